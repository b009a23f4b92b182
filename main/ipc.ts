import type { Host } from '../app/host/host-types';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../shared/contract';
import { fail, type Result } from '../shared/result';
import { isAppUrl } from './app-protocol';
import { errorMessage } from '../shared/error-message';
import type { MainLog } from './log';

/** The frame that sent an IPC message (Electron's WebFrameMain, reduced to what is checked). */
export interface IpcSenderFrame {
  readonly parent: unknown;
  readonly url: string;
}

/** An `ipcMain.handle` event, reduced to what the sender check reads. */
export interface IpcCallEvent {
  readonly sender: unknown;
  readonly senderFrame: IpcSenderFrame | null;
}

/** The part of Electron's `ipcMain` the bridge uses. */
export interface BridgeIpcMain {
  handle(channel: string, listener: (event: IpcCallEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** The part of a BrowserWindow the bridge uses. */
export interface BridgeWindow {
  isDestroyed(): boolean;
  readonly webContents: {
    isDestroyed(): boolean;
    send(channel: string, ...args: unknown[]): void;
  };
}

export interface BridgeIpcOptions {
  ipcMain: BridgeIpcMain;
  host: Pick<Host, 'dispatch' | 'subscribe'>;
  /** The one window allowed to call the host, or null while there is none. */
  getWindow: () => BridgeWindow | null;
  log: MainLog;
}

/**
 * Why a call must be refused, or null when it comes from the top frame of our
 * main window showing our own origin. A sub-frame, another webContents (e.g. a
 * devtools extension page) or a navigated-away page never reaches the host.
 */
export function senderRejection(event: IpcCallEvent, win: BridgeWindow | null): string | null {
  const frame = event.senderFrame;
  if (frame === null || frame === undefined) return 'the sending frame is gone';
  if (win === null || win.isDestroyed()) return 'there is no main window';
  if (event.sender !== win.webContents) return 'the sender is not the main window';
  if (frame.parent !== null) return 'the sender is a sub-frame';
  if (!isAppUrl(frame.url)) return `the sender's origin is not berth://app (${frame.url.slice(0, 200)})`;
  return null;
}

/**
 * Serve the host's contract over Electron IPC: calls on IPC_CALL_CHANNEL
 * answer a Result (never a rejection, since Electron would keep only the error
 * message), host events go out on IPC_EVENT_CHANNEL. Returns a disposer.
 */
export function registerBridgeIpc(options: BridgeIpcOptions): () => void {
  const { ipcMain, host, getWindow, log } = options;

  ipcMain.handle(IPC_CALL_CHANNEL, async (event, method, input): Promise<Result<unknown>> => {
    const rejection = senderRejection(event, getWindow());
    if (rejection !== null) {
      log.warn(`refused bridge call ${describeMethod(method)}: ${rejection}`);
      return fail('FORBIDDEN', `Call refused: ${rejection}.`);
    }
    try {
      return await host.dispatch(method, input);
    } catch (error) {
      // dispatch promises never to throw; if it does, that is a bug worth a log line.
      log.error(`host.dispatch threw for ${describeMethod(method)}`, error);
      return fail('INTERNAL', `The host failed unexpectedly: ${errorMessage(error)}`);
    }
  });

  const unsubscribe = host.subscribe((topic, payload) => {
    const win = getWindow();
    if (win === null || win.isDestroyed() || win.webContents.isDestroyed()) return;
    win.webContents.send(IPC_EVENT_CHANNEL, topic, payload);
  });

  return () => {
    unsubscribe();
    ipcMain.removeHandler(IPC_CALL_CHANNEL);
  };
}

function describeMethod(method: unknown): string {
  return typeof method === 'string' ? `"${method.slice(0, 100)}"` : `(non-string method: ${typeof method})`;
}
