import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '../../shared/domain/server';
import {
  configSecretSlots,
  extractPlainSecrets,
  parseSecretRef,
  referencedSecretIds,
  secretRef,
  serverSecretId,
} from './secret-refs';

describe('secret references', () => {
  it('formats and parses the whole-value ${secret:id} form only', () => {
    const id = serverSecretId('my server', 'API_TOKEN');
    expect(id).toBe('server/my server/env/API_TOKEN');
    expect(secretRef(id)).toBe('${secret:server/my server/env/API_TOKEN}');
    expect(parseSecretRef(secretRef(id))).toBe(id);
    for (const plain of ['s3cret', '${secret:}', 'x${secret:a}', '${secret:a}x', '${input:token}', '$secret:a'])
      expect(parseSecretRef(plain)).toBeUndefined();
  });

  it('finds every id referred to in a text, broken entries included', () => {
    const text =
      '{ "mcpServers": { "a": { "command": "x", "env": { "T": "${secret:server/a/env/T}" } }, "b": { "command": 5, "env": { "U": "${secret:server/b/env/U}" } } } }';
    expect(referencedSecretIds(text)).toEqual(new Set(['server/a/env/T', 'server/b/env/U']));
    expect(
      configSecretSlots(ServerConfigSchema.parse({ command: 'x', env: { T: secretRef('i'), P: 'plain' } })),
    ).toEqual([{ section: 'env', key: 'T', id: 'i' }]);
    expect(
      configSecretSlots(
        ServerConfigSchema.parse({
          url: 'https://a.example/mcp',
          headers: { Authorization: secretRef('h'), 'X-Team': 'core' },
        }),
      ),
    ).toEqual([{ section: 'headers', key: 'Authorization', id: 'h' }]);
    expect(serverSecretId('remote', 'Authorization', 'headers')).toBe('server/remote/header/Authorization');
    expect(
      configSecretSlots(
        ServerConfigSchema.parse({
          url: 'https://a.example/mcp',
          oauth: { clientId: 'c', clientSecret: secretRef('o') },
        }),
      ),
    ).toEqual([{ section: 'oauth', key: 'clientSecret', id: 'o' }]);
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
    '    "broken": { "command": 5, "env": { "K": "v" }, "secretEnv": ["K"] },',
    '    "remote": { "url": "https://a.example/mcp", "headers": { "Authorization": "Bearer tok", "X-Team": "core", "X-Sig": "s1" }, "secretHeaders": ["X-Sig"] },',
    '    "robot": { "url": "https://b.example/mcp", "oauth": { "grant": "client_credentials", "clientId": "ci", "clientSecret": "cs-1" } }',
    '  }',
    '}',
  ].join('\n');

  it('replaces plain values of secretEnv keys with references and changes nothing else', () => {
    const result = extractPlainSecrets(text);
    expect(result.moved).toEqual([
      { server: 'github', section: 'env', key: 'GITHUB_TOKEN', id: 'server/github/env/GITHUB_TOKEN', value: 'ghp_123' },
      {
        server: 'remote',
        section: 'headers',
        key: 'Authorization',
        id: 'server/remote/header/Authorization',
        value: 'Bearer tok',
      },
      { server: 'remote', section: 'headers', key: 'X-Sig', id: 'server/remote/header/X-Sig', value: 's1' },
      { server: 'robot', section: 'oauth', key: 'clientSecret', id: 'server/robot/oauth/clientSecret', value: 'cs-1' },
    ]);
    expect(result.text).not.toContain('ghp_123');
    expect(result.text).not.toContain('Bearer tok');
    expect(result.text).toBe(
      text
        .replace('"GITHUB_TOKEN": "ghp_123"', '"GITHUB_TOKEN": "${secret:server/github/env/GITHUB_TOKEN}"')
        .replace('"Authorization": "Bearer tok"', '"Authorization": "${secret:server/remote/header/Authorization}"')
        .replace('"X-Sig": "s1"', '"X-Sig": "${secret:server/remote/header/X-Sig}"')
        .replace('"clientSecret": "cs-1"', '"clientSecret": "${secret:server/robot/oauth/clientSecret}"'),
    );
  });

  it('leaves a file with nothing to move, or with a syntax error, as it is', () => {
    const once = extractPlainSecrets(text).text;
    expect(extractPlainSecrets(once)).toEqual({ text: once, moved: [] });
    const broken = '{ "mcpServers": { "a": { "command": "x", "env": { "T": "v" }, "secretEnv": ["T"] } } ';
    expect(extractPlainSecrets(broken)).toEqual({ text: broken, moved: [] });
  });
});
