import type { Readable, Writable } from 'node:stream';

/**
 * A minimal Chrome DevTools Protocol client over `--remote-debugging-pipe`:
 * the browser reads commands from its fd 3 and writes replies and events to
 * its fd 4, one JSON message per NUL-terminated frame. Only the process that
 * spawned the browser holds these pipes, unlike a debugging port, which every
 * local user could connect to.
 */

/** Anything the browser says that is not a reply: `Target.targetCreated`, `Page.frameNavigated`… */
export interface DevToolsEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

export interface DevToolsPipe {
  /** Sends a command (to a target when `sessionId` is given) and resolves with its result. */
  call(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<Record<string, unknown>>;
  /** Listens to events; returns the unsubscribe function. */
  onEvent(listener: (event: DevToolsEvent) => void): () => void;
  /** Rejects every call in flight; later calls fail at once. Does not close the browser. */
  close(reason: string): void;
}

/** A browser frame bigger than this is not a reply to anything we ask; stop rather than buffer without bound. */
const MAX_FRAME_CHARS = 16 * 1024 * 1024;

interface PendingCall {
  method: string;
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function connectDevToolsPipe(toBrowser: Writable, fromBrowser: Readable): DevToolsPipe {
  const pending = new Map<number, PendingCall>();
  const listeners = new Set<(event: DevToolsEvent) => void>();
  let nextId = 1;
  let buffered = '';
  let closedBecause: string | undefined;

  const close = (reason: string): void => {
    if (closedBecause !== undefined) return;
    closedBecause = reason;
    const calls = [...pending.values()];
    pending.clear();
    for (const call of calls) call.reject(new Error(`${call.method}: ${reason}`));
  };

  const handleFrame = (frame: string): void => {
    let message: unknown;
    try {
      message = JSON.parse(frame);
    } catch {
      close('the browser sent a DevTools message that is not JSON');
      return;
    }
    if (!isRecord(message)) return;
    if (typeof message.id === 'number') {
      const call = pending.get(message.id);
      if (call === undefined) return;
      pending.delete(message.id);
      if (isRecord(message.error))
        call.reject(new Error(`${call.method}: ${String(message.error.message ?? 'failed')}`));
      else call.resolve(isRecord(message.result) ? message.result : {});
      return;
    }
    if (typeof message.method !== 'string') return;
    const event: DevToolsEvent = {
      method: message.method,
      params: isRecord(message.params) ? message.params : {},
      ...(typeof message.sessionId === 'string' ? { sessionId: message.sessionId } : {}),
    };
    for (const listener of [...listeners]) listener(event);
  };

  fromBrowser.setEncoding('utf8');
  fromBrowser.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\0')) !== -1) {
      const frame = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      handleFrame(frame);
    }
    if (buffered.length > MAX_FRAME_CHARS) {
      buffered = '';
      close('the browser sent a DevTools message too large to be a reply');
    }
  });
  fromBrowser.once('end', () => close('the browser closed its DevTools pipe'));
  fromBrowser.once('close', () => close('the browser closed its DevTools pipe'));
  // A browser that exits mid-write makes the pipes fail: that ends the conversation, it must not crash Berth.
  fromBrowser.on('error', (error) => close(`the DevTools pipe failed (${error.message})`));
  toBrowser.on('error', (error) => close(`the DevTools pipe failed (${error.message})`));

  return {
    call(method, params = {}, sessionId) {
      if (closedBecause !== undefined) return Promise.reject(new Error(`${method}: ${closedBecause}`));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { method, resolve, reject });
        toBrowser.write(
          `${JSON.stringify({ id, method, params, ...(sessionId !== undefined ? { sessionId } : {}) })}\0`,
        );
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close,
  };
}
