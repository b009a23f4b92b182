import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '../../../shared/domain';
import { activateLocale } from '../../i18n/i18n';
import { describeApprovals, heldApprovals, holdsApprovals, identityChanges } from './approvals-model';

const config = ServerConfigSchema.parse({ command: 'npx', args: ['-y', 'server-filesystem', '/tmp'] });

describe('approvals model', () => {
  it('a new command, argument, working folder or address is a new identity; env, timeouts or a stray space are not', () => {
    expect(
      identityChanges(config, {
        command: 'npx',
        args: ['-y', 'server-filesystem', '/tmp'],
        env: { A: '1' },
        timeouts: { startupMs: 5_000 },
      }),
    ).toBe(false);
    expect(identityChanges(config, { command: ' npx ', args: ['-y', 'server-filesystem', '/tmp'] })).toBe(false);
    expect(identityChanges(config, { command: 'npx', args: ['-y', 'server-filesystem', '/'] })).toBe(true);
    expect(identityChanges(config, { command: 'uvx', args: ['-y', 'server-filesystem', '/tmp'] })).toBe(true);
    expect(identityChanges(config, { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'], cwd: '/srv' })).toBe(
      true,
    );
    expect(
      identityChanges(ServerConfigSchema.parse({ url: 'https://a.example/mcp' }), { url: 'https://b.example/mcp' }),
    ).toBe(true);
  });

  it('counts tool permissions still bound to the server and folders it may see', () => {
    const held = heldApprovals(
      {
        consentPolicies: [
          { id: '1', scope: 'tool', server: 'fs', tool: 'read', createdAt: 1 },
          { id: '2', scope: 'server', server: 'fs', createdAt: 1, stale: 'tool-changed' },
          { id: '3', scope: 'tool', server: 'fs', tool: 'write', createdAt: 1, stale: 'server-changed' },
          { id: '4', scope: 'tool', server: 'fs', tool: 'old', createdAt: 1, stale: 'unrecorded' },
          { id: '5', scope: 'server', server: 'other', createdAt: 1 },
        ],
        rootsView: { roots: [], exposure: {}, consent: { fs: { allowed: ['r1'], denied: ['r2'] } } },
      },
      'fs',
    );
    expect(held).toEqual({ toolPermissions: 2, folders: 1 });
    expect(holdsApprovals(held)).toBe(true);
    expect(describeApprovals(held)).toEqual(['2 tool permissions', 'access to 1 folder']);
    expect(holdsApprovals({ toolPermissions: 0, folders: 0 })).toBe(false);
  });

  it("counts the approvals in the person's language", async () => {
    await activateLocale('ko');
    expect(describeApprovals({ toolPermissions: 3, folders: 1 })).toEqual([
      '도구 권한 3개',
      '폴더 1개에 대한 접근 권한',
    ]);
  });
});
