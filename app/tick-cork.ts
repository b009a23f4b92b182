import type { Writable } from 'node:stream';

/** Streams corked by {@linkcode corkUntilTickEnd} and not yet released. */
const corkedNow = new WeakSet<Writable>();

/**
 * Holds writes to `stream` until the current tick (and the promise jobs it
 * queued) is over, then lets them out together. Many requests in flight get
 * their answers in one read, and the code each answer wakes up writes the
 * next message in the same tick: one write(2) or writev(2) for all of them
 * instead of a system call per message (a pipe to a server, a WebSocket to a
 * window). Order and content are unchanged; a lone message waits only for the
 * current tick to end. Calls within one tick cork the stream once.
 */
export function corkUntilTickEnd(stream: Writable): void {
  if (corkedNow.has(stream)) return;
  corkedNow.add(stream);
  stream.cork();
  process.nextTick(() => {
    corkedNow.delete(stream);
    stream.uncork();
  });
}
