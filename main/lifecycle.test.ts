import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createGracefulQuit, quitOnSignals, reportStartupFailure } from './lifecycle';
import type { MainLog } from './log';
import { buildAppMenuTemplate } from './menu';

function fakeLog() {
  return {
    info: vi.fn<MainLog['info']>(),
    warn: vi.fn<MainLog['warn']>(),
    error: vi.fn<MainLog['error']>(),
  } satisfies MainLog;
}

/** A host whose shutdown finishes only when the test says so. */
function slowHost() {
  let finish: () => void = () => undefined;
  let failWith: (error: Error) => void = () => undefined;
  const shutdown = vi.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        finish = resolve;
        failWith = reject;
      }),
  );
  return { shutdown, finish: () => finish(), fail: (error: Error) => failWith(error) };
}

function beforeQuitEvent() {
  return { preventDefault: vi.fn() };
}

describe('graceful quit', () => {
  it('holds the quit, awaits host.shutdown once even if before-quit fires twice, then exits 0', async () => {
    const host = slowHost();
    const exit = vi.fn();
    const quit = createGracefulQuit({ exit, getHost: () => host, log: fakeLog() });

    const first = beforeQuitEvent();
    quit.onBeforeQuit(first);
    const second = beforeQuitEvent();
    quit.onBeforeQuit(second);

    expect(first.preventDefault).toHaveBeenCalled();
    expect(second.preventDefault).toHaveBeenCalled();
    expect(host.shutdown).toHaveBeenCalledOnce();
    expect(quit.state).toBe('stopping');
    await Promise.resolve();
    expect(exit).not.toHaveBeenCalled();

    host.finish();
    await vi.waitFor(() => expect(exit).toHaveBeenCalledExactlyOnceWith(0));
    expect(host.shutdown).toHaveBeenCalledOnce();
    expect(quit.state).toBe('stopped');

    // After exit() a late before-quit must not be held, or the app could never end.
    const late = beforeQuitEvent();
    quit.onBeforeQuit(late);
    expect(late.preventDefault).not.toHaveBeenCalled();
  });

  it('signals, before-quit and direct quits share one shutdown', async () => {
    const host = slowHost();
    const exit = vi.fn();
    const log = fakeLog();
    const quit = createGracefulQuit({ exit, getHost: () => host, log });
    const signals = new EventEmitter();
    const dispose = quitOnSignals(signals, quit, log);

    signals.emit('SIGTERM');
    signals.emit('SIGINT');
    quit.onBeforeQuit(beforeQuitEvent());
    const direct = quit.quit();
    expect(host.shutdown).toHaveBeenCalledOnce();
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('SIGINT received while shutting down'));

    host.finish();
    await direct;
    expect(exit).toHaveBeenCalledExactlyOnceWith(0);
    dispose();
    expect(signals.listenerCount('SIGINT')).toBe(0);
    expect(signals.listenerCount('SIGTERM')).toBe(0);
  });

  it('exits 1 and logs when the host shutdown fails', async () => {
    const host = slowHost();
    const exit = vi.fn();
    const log = fakeLog();
    const quit = createGracefulQuit({ exit, getHost: () => host, log });
    const done = quit.quit();
    host.fail(new Error('kill failed'));
    await done;
    expect(exit).toHaveBeenCalledExactlyOnceWith(1);
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('kill failed'), expect.any(Error));
  });

  it('gives up on a host that never finishes, so Quit always quits', async () => {
    const host = slowHost();
    const exit = vi.fn();
    const log = fakeLog();
    const quit = createGracefulQuit({ exit, getHost: () => host, log, timeoutMs: 20 });
    await quit.quit();
    expect(exit).toHaveBeenCalledExactlyOnceWith(1);
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('did not shut down within 20 ms'));
  });

  it('exits at once when no host was started', async () => {
    const exit = vi.fn();
    const quit = createGracefulQuit({ exit, getHost: () => null, log: fakeLog() });
    await quit.quit(3);
    expect(exit).toHaveBeenCalledExactlyOnceWith(3);
  });
});

describe('start-up failure', () => {
  it('shows the message in an error box, shuts down what started and exits non-zero', async () => {
    const host = { shutdown: vi.fn(async () => undefined) };
    const exit = vi.fn();
    const log = fakeLog();
    const quit = createGracefulQuit({ exit, getHost: () => host, log });
    const showErrorBox = vi.fn();
    await reportStartupFailure(new Error('config dir is read-only'), { showErrorBox, log, quit });
    expect(showErrorBox).toHaveBeenCalledExactlyOnceWith('Berth could not start', 'config dir is read-only');
    expect(host.shutdown).toHaveBeenCalledOnce();
    expect(exit).toHaveBeenCalledExactlyOnceWith(1);
  });

  it('still quits when the dialog itself throws', async () => {
    const exit = vi.fn();
    const log = fakeLog();
    const quit = createGracefulQuit({ exit, getHost: () => null, log });
    const showErrorBox = vi.fn(() => {
      throw new Error('no display');
    });
    await reportStartupFailure('plain string reason', { showErrorBox, log, quit });
    expect(showErrorBox).toHaveBeenCalledWith('Berth could not start', 'plain string reason');
    expect(exit).toHaveBeenCalledExactlyOnceWith(1);
  });
});

describe('application menu', () => {
  const roles = (template: ReturnType<typeof buildAppMenuTemplate>) => JSON.stringify(template);

  it('has a macOS app menu with quit only on macOS', () => {
    const mac = buildAppMenuTemplate({ platform: 'darwin', appName: 'Berth', isPackaged: true });
    expect(mac[0]?.label).toBe('Berth');
    expect(roles(mac)).toContain('"hideOthers"');
    const linux = buildAppMenuTemplate({ platform: 'linux', appName: 'Berth', isPackaged: true });
    expect(linux[0]?.role).toBe('fileMenu');
    expect(roles(linux)).toContain('"quit"');
    expect(roles(linux)).not.toContain('"hideOthers"');
  });

  it('keeps the edit roles everywhere and offers devtools only when not packaged', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const json = roles(buildAppMenuTemplate({ platform, appName: 'Berth', isPackaged: true }));
      for (const role of ['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']) expect(json).toContain(`"${role}"`);
      expect(json).not.toContain('toggleDevTools');
    }
    expect(roles(buildAppMenuTemplate({ platform: 'linux', appName: 'Berth', isPackaged: false }))).toContain(
      'toggleDevTools',
    );
  });
});
