import type { Host } from '../app/host/host-types';
import { errorMessage } from '../shared/error-message';
import type { MainLog } from './log';

/** How long Quit waits for the host before giving up, so Quit always quits. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000;

export interface GracefulQuitOptions {
  /** Electron's `app.exit`: ends the process without emitting before-quit again. */
  exit(code: number): void;
  /** The running host, or null when start-up did not get that far. */
  getHost(): Pick<Host, 'shutdown'> | null;
  log: MainLog;
  timeoutMs?: number;
}

export type QuitState = 'running' | 'stopping' | 'stopped';

export interface GracefulQuit {
  /** The `app.on('before-quit')` listener: holds the quit until the host has shut down. */
  onBeforeQuit(event: { preventDefault(): void }): void;
  /** Shut the host down once, then exit with `code`; every caller gets the same promise. */
  quit(code?: number): Promise<void>;
  readonly state: QuitState;
}

/**
 * Quit = graceful shutdown: every server stopped per spec (whole process
 * trees) before the process ends. Electron would otherwise exit right after
 * `before-quit`, leaving server processes behind, so the first quit is held,
 * the host shut down, and the process ended with `app.exit`.
 */
export function createGracefulQuit(options: GracefulQuitOptions): GracefulQuit {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let state: QuitState = 'running';
  let pending: Promise<void> | null = null;

  async function shutDownThenExit(code: number): Promise<void> {
    state = 'stopping';
    let exitCode = code;
    const host = options.getHost();
    if (host !== null) {
      options.log.info('quitting: stopping every server');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      try {
        const outcome = await Promise.race([host.shutdown().then(() => 'done' as const), timedOut]);
        if (outcome === 'timeout') {
          options.log.error(`quitting: the host did not shut down within ${timeoutMs} ms; exiting anyway`);
          exitCode = exitCode === 0 ? 1 : exitCode;
        }
      } catch (error) {
        options.log.error(`quitting: host shutdown failed: ${errorMessage(error)}`, error);
        exitCode = exitCode === 0 ? 1 : exitCode;
      } finally {
        clearTimeout(timer);
      }
    }
    state = 'stopped';
    options.exit(exitCode);
  }

  const quit = (code = 0): Promise<void> => {
    pending ??= shutDownThenExit(code);
    return pending;
  };

  return {
    onBeforeQuit(event) {
      // Once exit() was called, let any late quit through rather than hang.
      if (state === 'stopped') return;
      event.preventDefault();
      void quit(0);
    },
    quit,
    get state() {
      return state;
    },
  };
}

/** The part of `process` used to catch termination signals. */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

/**
 * Ctrl+C in a terminal and `kill` from a session manager get the same
 * graceful shutdown as the Quit menu item. Returns a disposer.
 */
export function quitOnSignals(source: SignalSource, quit: GracefulQuit, log: MainLog): () => void {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  const listener = (signal: NodeJS.Signals) => () => {
    if (quit.state !== 'running') {
      log.warn(`${signal} received while shutting down; still waiting for servers to stop`);
      return;
    }
    log.info(`${signal} received`);
    void quit.quit(0);
  };
  const installed = signals.map((signal) => [signal, listener(signal)] as const);
  for (const [signal, handler] of installed) source.on(signal, handler);
  return () => {
    for (const [signal, handler] of installed) source.off(signal, handler);
  };
}

/**
 * Start-up failed (host, IPC, window): tell the person why in a native dialog,
 * then shut down whatever did start and exit non-zero.
 */
export function reportStartupFailure(
  error: unknown,
  deps: { showErrorBox(title: string, content: string): void; log: MainLog; quit: GracefulQuit },
): Promise<void> {
  const message = errorMessage(error);
  deps.log.error(`start-up failed: ${message}`, error);
  try {
    deps.showErrorBox('Berth could not start', message);
  } catch (dialogError) {
    deps.log.error('could not show the start-up error dialog', dialogError);
  }
  return deps.quit.quit(1);
}
