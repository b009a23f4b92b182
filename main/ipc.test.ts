import { describe, expect, it, vi } from 'vitest';
import type { Host, HostEventListener } from '../app/host/host-types';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../shared/contract';
import { ok, type Result } from '../shared/result';
import { registerBridgeIpc, type BridgeWindow, type IpcCallEvent } from './ipc';
import type { MainLog } from './log';

type CallListener = (event: IpcCallEvent, ...args: unknown[]) => Promise<unknown>;

function setup(options: { window?: 'live' | 'none' | 'destroyed' } = {}) {
  const handlers = new Map<string, CallListener>();
  const ipcMain = {
    handle: vi.fn((channel: string, listener: CallListener) => {
      handlers.set(channel, listener);
    }),
    removeHandler: vi.fn((channel: string) => {
      handlers.delete(channel);
    }),
  };
  let hostListener: HostEventListener | null = null;
  const unsubscribe = vi.fn();
  const host = {
    dispatch: vi.fn(async (method: unknown, input: unknown): Promise<Result<unknown>> => ok({ method, input })),
    subscribe: vi.fn((listener: HostEventListener) => {
      hostListener = listener;
      return unsubscribe;
    }),
  } satisfies Pick<Host, 'dispatch' | 'subscribe'>;
  const contentsDestroyed = { value: false };
  const win: BridgeWindow & { destroyed: boolean } = {
    destroyed: options.window === 'destroyed',
    isDestroyed() {
      return this.destroyed;
    },
    webContents: { isDestroyed: () => contentsDestroyed.value, send: vi.fn() },
  };
  const log: MainLog = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const dispose = registerBridgeIpc({
    ipcMain,
    host,
    getWindow: () => (options.window === 'none' ? null : win),
    log,
  });
  const call = (event: IpcCallEvent, method: unknown, input: unknown): Promise<unknown> => {
    const handler = handlers.get(IPC_CALL_CHANNEL);
    if (handler === undefined) throw new Error('no handler registered');
    return handler(event, method, input);
  };
  const emit: HostEventListener = (topic, payload) => {
    if (hostListener === null) throw new Error('host not subscribed');
    hostListener(topic, payload);
  };
  const topFrame = { parent: null, url: 'berth://app/index.html' };
  const goodEvent: IpcCallEvent = { sender: win.webContents, senderFrame: topFrame };
  return {
    ipcMain,
    host,
    win,
    log,
    dispose,
    call,
    emit,
    goodEvent,
    topFrame,
    contentsDestroyed,
    unsubscribe,
    handlers,
  };
}

describe('registerBridgeIpc: sender checks', () => {
  it('dispatches a call from the top frame of the main window on berth://app', async () => {
    const t = setup();
    const result = await t.call(t.goodEvent, 'servers.list', {});
    expect(result).toEqual({ ok: true, value: { method: 'servers.list', input: {} } });
    expect(t.host.dispatch).toHaveBeenCalledExactlyOnceWith('servers.list', {});
    expect(t.log.warn).not.toHaveBeenCalled();
  });

  it('accepts any path and query on our own origin', async () => {
    const t = setup();
    const event = { sender: t.win.webContents, senderFrame: { parent: null, url: 'berth://app/index.html?x=1#/logs' } };
    expect(await t.call(event, 'app.info', {})).toMatchObject({ ok: true });
  });

  const refusals: Array<[string, (t: ReturnType<typeof setup>) => IpcCallEvent]> = [
    [
      'a sub-frame',
      (t) => ({ sender: t.win.webContents, senderFrame: { parent: t.topFrame, url: 'berth://app/frame.html' } }),
    ],
    [
      'a foreign origin',
      (t) => ({ sender: t.win.webContents, senderFrame: { parent: null, url: 'https://evil.example/' } }),
    ],
    [
      'a lookalike host',
      (t) => ({ sender: t.win.webContents, senderFrame: { parent: null, url: 'berth://app.evil.example/index.html' } }),
    ],
    [
      'a URL with credentials',
      (t) => ({ sender: t.win.webContents, senderFrame: { parent: null, url: 'berth://evil@app/index.html' } }),
    ],
    [
      'a file: page',
      (t) => ({ sender: t.win.webContents, senderFrame: { parent: null, url: 'file:///tmp/index.html' } }),
    ],
    ['another webContents', (t) => ({ sender: { isDestroyed: () => false, send: vi.fn() }, senderFrame: t.topFrame })],
    ['no senderFrame', (t) => ({ sender: t.win.webContents, senderFrame: null })],
    // MCP Apps: the sandbox proxy (berth-app://sandbox) and the app's srcdoc frame inside it.
    [
      'the app sandbox proxy frame',
      (t) => ({
        sender: t.win.webContents,
        senderFrame: { parent: t.topFrame, url: 'berth-app://sandbox/?csp=%7B%7D' },
      }),
    ],
    [
      "an app's frame inside the sandbox",
      (t) => ({
        sender: t.win.webContents,
        senderFrame: { parent: { parent: t.topFrame, url: 'berth-app://sandbox/' }, url: 'about:srcdoc' },
      }),
    ],
    [
      'the app sandbox origin as a top frame',
      (t) => ({ sender: t.win.webContents, senderFrame: { parent: null, url: 'berth-app://sandbox/' } }),
    ],
    [
      'a berth-app lookalike of our origin',
      (t) => ({ sender: t.win.webContents, senderFrame: { parent: null, url: 'berth-app://app/index.html' } }),
    ],
  ];

  for (const [name, makeEvent] of refusals) {
    it(`refuses ${name} with FORBIDDEN without touching the host`, async () => {
      const t = setup();
      const result = await t.call(makeEvent(t), 'servers.remove', { name: 'x' });
      expect(result).toMatchObject({ ok: false, code: 'FORBIDDEN' });
      expect(t.host.dispatch).not.toHaveBeenCalled();
      expect(t.log.warn).toHaveBeenCalledWith(expect.stringContaining('refused bridge call "servers.remove"'));
    });
  }

  it('refuses every call while there is no main window', async () => {
    const t = setup({ window: 'none' });
    const event = { sender: {}, senderFrame: { parent: null, url: 'berth://app/index.html' } };
    expect(await t.call(event, 'app.info', {})).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(t.host.dispatch).not.toHaveBeenCalled();
  });

  it('refuses calls once the main window is destroyed', async () => {
    const t = setup();
    t.win.destroyed = true;
    expect(await t.call(t.goodEvent, 'app.info', {})).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(t.host.dispatch).not.toHaveBeenCalled();
  });

  it('turns a throwing dispatch into an INTERNAL failure instead of a rejected invoke', async () => {
    const t = setup();
    t.host.dispatch.mockRejectedValueOnce(new Error('boom'));
    expect(await t.call(t.goodEvent, 'app.info', {})).toMatchObject({
      ok: false,
      code: 'INTERNAL',
      message: expect.stringContaining('boom'),
    });
    expect(t.log.error).toHaveBeenCalled();
  });

  it('passes method and input through unvalidated: the host validates them', async () => {
    const t = setup();
    await t.call(t.goodEvent, 42, { evil: true });
    expect(t.host.dispatch).toHaveBeenCalledWith(42, { evil: true });
  });
});

describe('registerBridgeIpc: events', () => {
  it('forwards host events to the live main window', () => {
    const t = setup();
    t.emit('servers.removed', { name: 'a' });
    expect(t.win.webContents.send).toHaveBeenCalledExactlyOnceWith(IPC_EVENT_CHANNEL, 'servers.removed', { name: 'a' });
  });

  it('drops events when there is no window, or it or its webContents is destroyed', () => {
    const none = setup({ window: 'none' });
    none.emit('servers.removed', { name: 'a' });
    expect(none.win.webContents.send).not.toHaveBeenCalled();

    const destroyed = setup({ window: 'destroyed' });
    destroyed.emit('servers.removed', { name: 'a' });
    expect(destroyed.win.webContents.send).not.toHaveBeenCalled();

    const gone = setup();
    gone.contentsDestroyed.value = true;
    gone.emit('servers.removed', { name: 'a' });
    expect(gone.win.webContents.send).not.toHaveBeenCalled();
  });

  it('the disposer removes the handler and the host subscription', () => {
    const t = setup();
    expect(t.handlers.has(IPC_CALL_CHANNEL)).toBe(true);
    t.dispose();
    expect(t.ipcMain.removeHandler).toHaveBeenCalledWith(IPC_CALL_CHANNEL);
    expect(t.handlers.has(IPC_CALL_CHANNEL)).toBe(false);
    expect(t.unsubscribe).toHaveBeenCalledOnce();
  });
});
