import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, METHOD_NAMES, type TopicName } from '../shared/contract';
import { PRELOAD_GLOBAL, type BerthPreloadApi } from '../shared/contract/preload-api';

type IpcListener = (event: unknown, ...args: unknown[]) => void;

const electron = vi.hoisted(() => {
  const listeners = new Map<string, Set<IpcListener>>();
  return {
    listeners,
    contextBridge: { exposeInMainWorld: vi.fn() },
    ipcRenderer: {
      invoke: vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, value: 'pong' })),
      on: vi.fn((channel: string, listener: IpcListener) => {
        const set = listeners.get(channel) ?? new Set();
        set.add(listener);
        listeners.set(channel, set);
      }),
      removeListener: vi.fn((channel: string, listener: IpcListener) => {
        listeners.get(channel)?.delete(listener);
      }),
      send: vi.fn(),
      sendSync: vi.fn(),
    },
  };
});

vi.mock('electron', () => ({ contextBridge: electron.contextBridge, ipcRenderer: electron.ipcRenderer }));

/** What main sends on the event channel, as Electron would deliver it. */
function emitFromMain(topic: string, payload: unknown): void {
  const fakeEvent = { sender: electron.ipcRenderer, senderId: 0 };
  for (const listener of electron.listeners.get(IPC_EVENT_CHANNEL) ?? []) listener(fakeEvent, topic, payload);
}

async function loadExposedApi(): Promise<BerthPreloadApi> {
  vi.resetModules();
  electron.contextBridge.exposeInMainWorld.mockClear();
  await import('./index');
  expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledOnce();
  const [name, api] = electron.contextBridge.exposeInMainWorld.mock.calls[0] ?? [];
  expect(name).toBe(PRELOAD_GLOBAL);
  return api as BerthPreloadApi;
}

describe('preload bridge', () => {
  let api: BerthPreloadApi;

  beforeEach(async () => {
    electron.listeners.clear();
    electron.ipcRenderer.invoke.mockClear();
    electron.ipcRenderer.on.mockClear();
    electron.ipcRenderer.removeListener.mockClear();
    api = await loadExposedApi();
  });

  it('exposes exactly `methods` and `on`, and nothing of ipcRenderer', () => {
    expect(Object.keys(api).sort()).toEqual(['methods', 'on']);
    expect(typeof api.on).toBe('function');
    const reachable = [api, api.methods, ...Object.values(api.methods)];
    for (const value of reachable) {
      expect(value).not.toBe(electron.ipcRenderer);
      expect(Object.values(value as object)).not.toContain(electron.ipcRenderer);
    }
    // Contract names like `chat.send` are fine; an ipcRenderer member name (`send`, `invoke`…) is not.
    const ipcNames = [...Object.keys(electron.ipcRenderer), 'invoke', 'send', 'sendSync', 'sendToHost', 'postMessage'];
    for (const key of Object.keys(api.methods)) expect(ipcNames).not.toContain(key);
  });

  it('has one function per contract method, and only those', () => {
    expect(Object.keys(api.methods).sort()).toEqual([...METHOD_NAMES].sort());
    for (const name of METHOD_NAMES) expect(typeof api.methods[name]).toBe('function');
    expect(Object.isFrozen(api.methods)).toBe(true);
  });

  it('each method invokes the call channel with its own name and the input', async () => {
    const input = { name: 'everything' };
    await expect(api.methods['servers.start'](input)).resolves.toEqual({ ok: true, value: 'pong' });
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith(IPC_CALL_CHANNEL, 'servers.start', input);
    await api.methods['app.info']({});
    expect(electron.ipcRenderer.invoke).toHaveBeenLastCalledWith(IPC_CALL_CHANNEL, 'app.info', {});
  });

  it('turns a failed invoke into an INTERNAL failure value', async () => {
    electron.ipcRenderer.invoke.mockRejectedValueOnce(new Error("No handler registered for 'berth:call'"));
    await expect(api.methods['app.info']({})).resolves.toMatchObject({
      ok: false,
      code: 'INTERNAL',
      message: expect.stringContaining('No handler registered'),
    });
  });

  it('delivers only the subscribed topic, with the payload and not the event', () => {
    const changed = vi.fn();
    const removed = vi.fn();
    api.on('servers.changed', changed);
    api.on('servers.removed', removed);
    emitFromMain('servers.removed', { name: 'a' });
    expect(removed).toHaveBeenCalledExactlyOnceWith({ name: 'a' });
    expect(changed).not.toHaveBeenCalled();
    emitFromMain('not.a.topic', { name: 'b' });
    expect(removed).toHaveBeenCalledOnce();
  });

  it('shares one IPC listener and removes it when the last subscriber leaves', () => {
    const offA = api.on('logs.appended', vi.fn());
    const offB = api.on('logs.cleared', vi.fn());
    expect(electron.ipcRenderer.on).toHaveBeenCalledOnce();
    offA();
    offA();
    expect(electron.ipcRenderer.removeListener).not.toHaveBeenCalled();
    offB();
    expect(electron.ipcRenderer.removeListener).toHaveBeenCalledOnce();
    expect(electron.listeners.get(IPC_EVENT_CHANNEL)?.size ?? 0).toBe(0);
  });

  it('unsubscribing stops delivery to that listener only', () => {
    const first = vi.fn();
    const second = vi.fn();
    const off = api.on('config.changed', first);
    api.on('config.changed', second);
    off();
    emitFromMain('config.changed', { path: '/x', state: 'ok', problems: [] });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledOnce();
  });

  it('a throwing listener does not stop the others', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const after = vi.fn();
    api.on('servers.removed', () => {
      throw new Error('listener bug');
    });
    api.on('servers.removed', after);
    emitFromMain('servers.removed', { name: 'a' });
    expect(after).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalledWith(expect.stringContaining('servers.removed'), expect.any(Error));
    error.mockRestore();
  });

  it('rejects unknown topics and non-function listeners with a clear error', () => {
    expect(() => api.on('ipc.raw' as TopicName, vi.fn())).toThrow(/Unknown event topic "ipc.raw"/);
    expect(() => api.on('__proto__' as TopicName, vi.fn())).toThrow(/Unknown event topic/);
    expect(() => api.on('servers.changed', 'alert(1)' as unknown as () => void)).toThrow(/must be a function/);
    expect(electron.ipcRenderer.on).not.toHaveBeenCalled();
  });
});
