import { describe, expect, it } from 'vitest';
import { RunningToolCalls } from './host-tool-context';

describe('RunningToolCalls', () => {
  it('attributes a request to the one call running on its server, and only while it runs', async () => {
    const calls = new RunningToolCalls();
    const args = { message: 'hi' };
    calls.tag(args, { conversationId: 'c1', toolUseId: 't1' });
    let release: () => void = () => undefined;
    const running = calls.run('everything', args, () => new Promise<string>((resolve) => (release = () => resolve('done'))));
    expect(calls.originOf('everything')).toEqual({ conversationId: 'c1', toolUseId: 't1' });
    expect(calls.originOf('other')).toEqual({});
    release();
    expect(await running).toBe('done');
    expect(calls.originOf('everything')).toEqual({});
  });

  it('claims only the conversation when several of its calls run, and nothing across conversations', async () => {
    const calls = new RunningToolCalls();
    const pending: Array<() => void> = [];
    const start = (conversationId: string, toolUseId: string) => {
      const args = {};
      calls.tag(args, { conversationId, toolUseId });
      return calls.run('s', args, () => new Promise<void>((resolve) => pending.push(resolve)));
    };
    const a = start('c1', 't1');
    const b = start('c1', 't2');
    expect(calls.originOf('s')).toEqual({ conversationId: 'c1' });
    const c = start('c2', 't3');
    expect(calls.originOf('s')).toEqual({});
    for (const resolve of pending) resolve();
    await Promise.all([a, b, c]);
    expect(calls.originOf('s')).toEqual({});
  });

  it('runs untagged calls without registering them, and unregisters a call that fails', async () => {
    const calls = new RunningToolCalls();
    expect(await calls.run('s', {}, async () => 1)).toBe(1);
    const args = {};
    calls.tag(args, { conversationId: 'c', toolUseId: 't' });
    await expect(calls.run('s', args, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(calls.originOf('s')).toEqual({});
  });
});
