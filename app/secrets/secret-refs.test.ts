import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '../../shared/domain/server';
import { configSecretIds, extractPlainSecrets, parseSecretRef, referencedSecretIds, secretRef, serverSecretId } from './secret-refs';

describe('secret references', () => {
  it('formats and parses the whole-value ${secret:id} form only', () => {
    const id = serverSecretId('my server', 'API_TOKEN');
    expect(id).toBe('server/my server/env/API_TOKEN');
    expect(secretRef(id)).toBe('${secret:server/my server/env/API_TOKEN}');
    expect(parseSecretRef(secretRef(id))).toBe(id);
    for (const plain of ['s3cret', '${secret:}', 'x${secret:a}', '${secret:a}x', '${input:token}', '$secret:a']) expect(parseSecretRef(plain)).toBeUndefined();
  });

  it('finds every id referred to in a text, broken entries included', () => {
    const text = '{ "mcpServers": { "a": { "command": "x", "env": { "T": "${secret:server/a/env/T}" } }, "b": { "command": 5, "env": { "U": "${secret:server/b/env/U}" } } } }';
    expect(referencedSecretIds(text)).toEqual(new Set(['server/a/env/T', 'server/b/env/U']));
    expect(configSecretIds(ServerConfigSchema.parse({ command: 'x', env: { T: secretRef('i'), P: 'plain' } }))).toEqual(new Map([['T', 'i']]));
  });
});

describe('extractPlainSecrets', () => {
  const text = [
    '{',
    '  "globalShortcut": "",',
    '  "mcpServers": {',
    '    "github": {',
    '      "command": "npx",',
    '      "args": ["-y", "gh"],',
    '      "env": { "GITHUB_TOKEN": "ghp_123", "MODE": "ro", "DONE": "${secret:server/github/env/DONE}" },',
    '      "secretEnv": ["GITHUB_TOKEN", "DONE"]',
    '    },',
    '    "plain": { "command": "node", "env": { "TOKEN": "not-marked" } },',
    '    "broken": { "command": 5, "env": { "K": "v" }, "secretEnv": ["K"] }',
    '  }',
    '}',
  ].join('\n');

  it('replaces plain values of secretEnv keys with references and changes nothing else', () => {
    const result = extractPlainSecrets(text);
    expect(result.moved).toEqual([{ server: 'github', key: 'GITHUB_TOKEN', id: 'server/github/env/GITHUB_TOKEN', value: 'ghp_123' }]);
    expect(result.text).not.toContain('ghp_123');
    expect(result.text).toBe(text.replace('"GITHUB_TOKEN": "ghp_123"', '"GITHUB_TOKEN": "${secret:server/github/env/GITHUB_TOKEN}"'));
  });

  it('leaves a file with nothing to move, or with a syntax error, as it is', () => {
    const once = extractPlainSecrets(text).text;
    expect(extractPlainSecrets(once)).toEqual({ text: once, moved: [] });
    const broken = '{ "mcpServers": { "a": { "command": "x", "env": { "T": "v" }, "secretEnv": ["T"] } } ';
    expect(extractPlainSecrets(broken)).toEqual({ text: broken, moved: [] });
  });
});
