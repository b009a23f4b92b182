import { describe, expect, it } from 'vitest';
import { ServerConfigSchema, ServerStateSchema } from './server';
import { serverReason, serverTools } from './server-state-read';

const config = ServerConfigSchema.parse({ command: 'node', args: ['server.js'] });
const common = { name: 'files', config, restartCount: 0 };
const tool = { name: 'read', inputSchema: { type: 'object' } };

/** The problems zod reports, as `path: message`, so a refusal says which field was wrong. */
function refusal(state: unknown): string[] {
  const parsed = ServerStateSchema.safeParse(state);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.code}`);
}

describe('ServerStateSchema: one variant per status', () => {
  it('accepts each status with what belongs to it', () => {
    const states = [
      { ...common, status: 'stopped' },
      { ...common, status: 'stopped', reason: 'stopped' },
      { ...common, status: 'starting', pid: 42 },
      { ...common, status: 'ready', pid: 42, tools: [tool], readySince: 1, transport: 'stdio', era: 'legacy' },
      { ...common, status: 'error', reason: 'command not found', auth: { state: 'needs-sign-in' } },
      { ...common, status: 'crashed', reason: 'exited with code 1 (automatic restart is off)' },
      { ...common, status: 'restarting', reason: 'exited with code 1', nextRestartAt: 2, restartCount: 1 },
    ];
    for (const state of states) expect(refusal(state), state.status).toEqual([]);
  });

  it('refuses a field that does not belong to its status', () => {
    expect(refusal({ ...common, status: 'stopped', pid: 42 })).toEqual([': unrecognized_keys']);
    expect(refusal({ ...common, status: 'stopped', tools: [] })).toEqual([': unrecognized_keys']);
    expect(refusal({ ...common, status: 'starting', reason: 'was stopped' })).toEqual([': unrecognized_keys']);
    expect(refusal({ ...common, status: 'crashed', reason: 'gone', capabilities: {} })).toEqual([
      ': unrecognized_keys',
    ]);
    expect(
      refusal({ ...common, status: 'ready', tools: [], readySince: 1, transport: 'stdio', nextRestartAt: 2 }),
    ).toEqual([': unrecognized_keys']);
    expect(refusal({ ...common, status: 'error', reason: 'bad', readySince: 1 })).toEqual([': unrecognized_keys']);
  });

  it('refuses a status without what it needs', () => {
    expect(refusal({ ...common, status: 'error' })).toEqual(['reason: invalid_type']);
    expect(refusal({ ...common, status: 'crashed' })).toEqual(['reason: invalid_type']);
    expect(refusal({ ...common, status: 'restarting', reason: 'exited' })).toEqual(['nextRestartAt: invalid_type']);
    expect(refusal({ ...common, status: 'ready', tools: [], transport: 'stdio' })).toEqual([
      'readySince: invalid_type',
    ]);
    expect(refusal({ ...common, status: 'paused' })).toEqual(['status: invalid_union']);
  });
});

describe('reading a state by its status', () => {
  it('tools only from a ready server, a reason only from one that is not starting or running', () => {
    const ready = ServerStateSchema.parse({
      ...common,
      status: 'ready',
      tools: [tool],
      readySince: 1,
      transport: 'stdio',
    });
    const crashed = ServerStateSchema.parse({ ...common, status: 'crashed', reason: 'exited with code 1' });
    expect(serverTools(ready).map((entry) => entry.name)).toEqual(['read']);
    expect(serverTools(crashed)).toEqual([]);
    expect(serverTools(undefined)).toEqual([]);
    expect(serverReason(crashed)).toBe('exited with code 1');
    expect(serverReason(ready)).toBeUndefined();
  });
});
