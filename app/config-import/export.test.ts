import { describe, expect, it } from 'vitest';
import { SECRET_MASK, ServerConfigSchema } from '../../shared/domain/server';
import { parseForeignConfig } from './foreign-formats';
import { exportClaudeDesktop } from './export';

describe('exportClaudeDesktop', () => {
  const servers = new Map([
    [
      'github',
      ServerConfigSchema.parse({
        command: 'npx',
        args: ['-y', 'gh'],
        env: {
          GH_CONF: 'super-secret-value',
          GITHUB_API_URL: 'https://api.github.com',
          OPENAI_API_KEY: 'sk-live',
          MASKED: SECRET_MASK,
        },
        secretEnv: ['GH_CONF'],
        enabled: false,
        logLevel: 'debug',
      }),
    ],
    ['files', ServerConfigSchema.parse({ command: 'npx', args: ['fs'], cwd: '/tmp' })],
  ]);
  const result = exportClaudeDesktop(servers);

  it('writes the Claude Desktop shape without Berth-only fields', () => {
    expect(result.document).toEqual({
      mcpServers: {
        github: { command: 'npx', args: ['-y', 'gh'], env: { GITHUB_API_URL: 'https://api.github.com' } },
        files: { command: 'npx', args: ['fs'], cwd: '/tmp' },
      },
    });
    expect(JSON.parse(result.text)).toEqual(result.document);
    expect(result.text.endsWith('\n')).toBe(true);
  });

  it('omits secret values and lists the omitted keys', () => {
    expect(result.omittedSecrets).toEqual([
      { server: 'github', key: 'GH_CONF' },
      { server: 'github', key: 'OPENAI_API_KEY' },
      { server: 'github', key: 'MASKED' },
    ]);
    for (const secret of ['super-secret-value', 'sk-live', SECRET_MASK]) expect(result.text).not.toContain(secret);
  });

  it('omits secret references too: they mean nothing outside Berth', () => {
    const referenced = exportClaudeDesktop(
      new Map([
        ['x', ServerConfigSchema.parse({ command: 'x', env: { SHARED: '${secret:server/y/env/SHARED}', MODE: 'ro' } })],
      ]),
    );
    expect(referenced.document.mcpServers.x).toEqual({ command: 'x', args: [], env: { MODE: 'ro' } });
    expect(referenced.omittedSecrets).toEqual([{ server: 'x', key: 'SHARED' }]);
  });

  it("drops Berth's OAuth client settings and names their secrets", () => {
    const robot = ServerConfigSchema.parse({
      url: 'https://a.example/mcp',
      oauth: { grant: 'client_credentials', clientId: 'ci', clientSecret: 'cs-live-1' },
    });
    const exported = exportClaudeDesktop(new Map([['robot', robot]]));
    expect(exported.document.mcpServers.robot).toEqual({ url: 'https://a.example/mcp' });
    expect(exported.omittedSecrets).toEqual([{ server: 'robot', key: 'oauth.clientSecret' }]);
    expect(exported.text).not.toContain('cs-live-1');
  });

  it('round-trips through the Claude Desktop importer', () => {
    const preview = parseForeignConfig('claude-desktop', result.text);
    expect(preview.problems).toEqual([]);
    expect(
      preview.servers.map((candidate) => [candidate.name, candidate.config?.command, candidate.config?.cwd]),
    ).toEqual([
      ['github', 'npx', undefined],
      ['files', 'npx', '/tmp'],
    ]);
  });

  it('exports an empty set as an empty mcpServers', () => {
    expect(exportClaudeDesktop(new Map()).text).toBe('{\n  "mcpServers": {}\n}\n');
  });
});
