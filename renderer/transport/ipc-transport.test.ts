import { describe, expect, it } from 'vitest';
import { METHOD_NAMES, type TopicName } from '../../shared/contract';
import type { BerthPreloadApi } from '../../shared/contract/preload-api';
import { fail, ok, type Result } from '../../shared/result';
import { createIpcTransport } from './ipc-transport';

/** What the preload exposes, recorded: one function per contract method plus `on`. */
function fakePreload() {
  const calls: [string, unknown][] = [];
  const listeners = new Map<TopicName, Set<(payload: unknown) => void>>();
  const methods = Object.fromEntries(
    METHOD_NAMES.map((name) => [
      name,
      (input: unknown): Promise<Result<unknown>> => {
        calls.push([name, input]);
        return Promise.resolve(name === 'servers.start' ? fail('NOT_FOUND', 'no such server') : ok({ echoed: input }));
      },
    ]),
  ) as BerthPreloadApi['methods'];
  const api: BerthPreloadApi = {
    methods,
    on(topic, listener) {
      if (!listeners.has(topic)) listeners.set(topic, new Set());
      listeners.get(topic)!.add(listener);
      return () => listeners.get(topic)!.delete(listener);
    },
  };
  return {
    api,
    calls,
    emit: (topic: TopicName, payload: unknown) => listeners.get(topic)?.forEach((l) => l(payload)),
    listeners,
  };
}

describe('createIpcTransport', () => {
  it('forwards each call to the preload function of the same name, results untouched', async () => {
    const { api, calls } = fakePreload();
    const transport = createIpcTransport(api);
    await expect(transport.call('servers.stop', { name: 'a' })).resolves.toEqual({
      ok: true,
      value: { echoed: { name: 'a' } },
    });
    await expect(transport.call('servers.start', { name: 'b' })).resolves.toEqual({
      ok: false,
      code: 'NOT_FOUND',
      message: 'no such server',
    });
    expect(calls).toEqual([
      ['servers.stop', { name: 'a' }],
      ['servers.start', { name: 'b' }],
    ]);
    expect(transport.connection.get().state).toBe('open');
  });

  it("keeps a failure's host message, cloned as Electron clones it, so the renderer can word it", async () => {
    const { api } = fakePreload();
    const coded = fail('NOT_FOUND', 'No server named "b"', 'name', {
      code: 'server-errors.not-found',
      params: { name: 'b' },
    });
    const transport = createIpcTransport({
      ...api,
      methods: { ...api.methods, 'servers.start': () => Promise.resolve(structuredClone(coded)) },
    });
    await expect(transport.call('servers.start', { name: 'b' })).resolves.toEqual(coded);
  });

  it('subscribes through the preload and unsubscribes on close', () => {
    const { api, emit, listeners } = fakePreload();
    const transport = createIpcTransport(api);
    const seen: unknown[] = [];
    const off = transport.on('servers.removed', (payload) => seen.push(payload));
    transport.on('logs.cleared', (payload) => seen.push(payload));
    emit('servers.removed', { name: 'x' });
    off();
    emit('servers.removed', { name: 'y' });
    transport.close();
    emit('logs.cleared', {});
    expect(seen).toEqual([{ name: 'x' }]);
    expect([...listeners.values()].every((set) => set.size === 0)).toBe(true);
  });
});
