import { describe, expect, it } from 'vitest';
import { ServerConfigSchema, type ServerConfig } from '../../shared/domain/server';
import { parseForeignConfig } from './foreign-formats';
import { markDuplicates } from './duplicates';

const config = (input: { command: string; args?: string[]; cwd?: string }): ServerConfig =>
  ServerConfigSchema.parse(input);

describe('markDuplicates', () => {
  const preview = parseForeignConfig(
    'cursor',
    JSON.stringify({
      mcpServers: {
        GitHub: { command: 'npx', args: ['-y', 'gh'] },
        files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
        'files-other-dir': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv'] },
        'files-other-cwd': {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
          cwd: '/x',
        },
        remote: { url: 'https://example.com/mcp' },
      },
    }),
  );
  const existing = new Map([
    ['github', config({ command: 'docker', args: ['run', 'gh'] })],
    ['fs', config({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] })],
  ]);
  const checked = markDuplicates(preview.servers, existing);

  it('marks the same name, ignoring case', () => {
    expect(checked[0]?.duplicateOf).toEqual({
      name: 'github',
      reason: 'same-name',
      message: 'Berth already has a server named "github"',
      hostMessage: { code: 'config-import-errors.duplicate-name', params: { name: 'github' } },
    });
  });

  it('marks the same command, args and cwd under another name', () => {
    expect(checked[1]?.duplicateOf).toEqual({
      name: 'fs',
      reason: 'same-command',
      message: 'Berth already runs the same command as "fs"',
      hostMessage: { code: 'config-import-errors.duplicate-command', params: { name: 'fs' } },
    });
  });

  it('does not mark different args, a different cwd or remote entries', () => {
    expect(checked.slice(2).map((candidate) => candidate.duplicateOf)).toEqual([undefined, undefined, undefined]);
  });

  it('does not change the candidates it was given', () => {
    expect(preview.servers.some((candidate) => 'duplicateOf' in candidate)).toBe(false);
  });
});
