import { getEventListeners } from 'node:events';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Progress } from '@modelcontextprotocol/client';

/**
 * Whether a running call's server is waiting for Berth's side: the person
 * (a sampling review, an elicitation form, a roots question the server asked
 * for while the call runs) or Berth's model writing a sampling reply.
 */
export interface PersonWaits {
  readonly waiting: boolean;
  /** Each change of `waiting`; returns the unsubscribe function. */
  onChange(listener: (waiting: boolean) => void): () => void;
}

/** Which limit ran out: no answer (nor progress) for `timeoutMs`, or the whole call took longer than `maxTotalMs`. */
export type TimeoutKind = 'idle' | 'total';

/** Options for {@linkcode PausableTimeout}. */
export interface PausableTimeoutOptions {
  timeoutMs: number;
  /** Bound on the call's active time: progress does not extend it, time paused for the person does not count. */
  maxTotalMs: number;
  onTimeout(kind: TimeoutKind): void;
  now?: () => number;
}

/**
 * A request timeout that can stand still. While the person is being asked
 * something for the call, the server cannot answer, so neither limit runs;
 * after the answer the idle limit starts over (the server needs time to use
 * it) and the total limit goes on from where it stood.
 */
export class PausableTimeout {
  private timer: NodeJS.Timeout | undefined;
  /** Active time before the current running stretch, in ms. */
  private activeBefore = 0;
  /** When the current running stretch began; undefined while paused. */
  private runningSince: number | undefined;
  private ended = false;
  /** Which limit the armed timer stands for. */
  private firing: TimeoutKind = 'idle';
  private readonly now: () => number;
  private readonly maxTotalMs: number;

  constructor(private readonly options: PausableTimeoutOptions) {
    this.now = options.now ?? Date.now;
    // As before: the total never cuts a call shorter than one idle window.
    this.maxTotalMs = Math.max(options.maxTotalMs, options.timeoutMs);
    this.runningSince = this.now();
    this.arm();
  }

  get paused(): boolean {
    return this.runningSince === undefined;
  }

  /** Active time so far (paused time excluded), in ms. */
  get activeMs(): number {
    return this.activeBefore + (this.runningSince === undefined ? 0 : this.now() - this.runningSince);
  }

  /** The person is being asked: stop the clock. */
  pause(): void {
    if (this.ended || this.runningSince === undefined) return;
    this.activeBefore = this.activeMs;
    this.runningSince = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Nothing waits for the person any more: a fresh idle window. */
  resume(): void {
    if (this.ended || this.runningSince !== undefined) return;
    this.runningSince = this.now();
    this.arm();
  }

  /** The server showed it is working (progress): a fresh idle window, the total goes on. Ignored while paused. */
  reset(): void {
    if (this.ended || this.runningSince === undefined) return;
    this.arm();
  }

  /** The call ended: no timeout will fire. */
  dispose(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    clearTimeout(this.timer);
    const left = this.maxTotalMs - this.activeMs;
    // Both running out at once reads as the plain timeout.
    this.firing = left < this.options.timeoutMs ? 'total' : 'idle';
    // One module-level callback with this clock as its argument: no closure per call (every tool call arms one).
    this.timer = setTimeout(fire, Math.max(0, this.firing === 'total' ? left : this.options.timeoutMs), this);
  }

  /** The timer ran out (see `fire`). */
  expire(): void {
    const kind = this.firing;
    this.dispose();
    this.options.onTimeout(kind);
  }
}

function fire(clock: PausableTimeout): void {
  clock.expire();
}

/**
 * The largest delay Node's timers take; a larger one fires at once. Berth
 * runs the call's clock itself, so the SDK's own timer is set out of reach.
 */
export const NO_SDK_TIMEOUT_MS = 2_147_483_647;

/** Options for {@linkcode withPausableTimeout}. */
export interface PausableCallOptions {
  timeoutMs: number;
  maxTotalMs: number;
  /** The caller's own cancel (the person pressed Stop): passed on with its reason. */
  signal?: AbortSignal;
  /** Pauses the clock while the person is asked something for this call. */
  personWaits?: PersonWaits;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** What the SDK request gets: no timer of its own, Berth's signal, and progress that resets Berth's clock. */
export interface SdkCallOptions {
  timeout: number;
  signal: AbortSignal;
  onprogress?: (progress: Progress) => void;
}

/**
 * Run one request with Berth's pausable timeout instead of the SDK's: the
 * SDK only sees an abort signal. A timeout aborts with the same SdkError the
 * SDK would have raised (RequestTimeout), so the failure reads the same, and
 * the SDK tells the server the request was cancelled.
 */
export async function withPausableTimeout<T>(
  options: PausableCallOptions,
  send: (sdk: SdkCallOptions) => Promise<T>,
): Promise<T> {
  const { signal, personWaits, onProgress, timeoutMs, maxTotalMs } = options;
  const controller = idleControllers.pop() ?? new AbortController();
  const clock = new PausableTimeout({
    timeoutMs,
    maxTotalMs,
    onTimeout: (kind) => controller.abort(timeoutError(kind, timeoutMs, maxTotalMs)),
  });
  // Every tool call comes through here: closures and listeners only for what the call has (a cancel, a person to wait for, progress).
  let onAbort: (() => void) | undefined;
  if (signal !== undefined) {
    onAbort = () => {
      clock.dispose();
      controller.abort(signal.reason);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  let unsubscribe: (() => void) | undefined;
  if (personWaits !== undefined) {
    if (personWaits.waiting) clock.pause();
    unsubscribe = personWaits.onChange((waiting) => (waiting ? clock.pause() : clock.resume()));
  }
  const sdk: SdkCallOptions = { timeout: NO_SDK_TIMEOUT_MS, signal: controller.signal };
  if (onProgress !== undefined) {
    sdk.onprogress = (p: Progress) => {
      clock.reset();
      onProgress({
        progress: p.progress,
        ...(p.total !== undefined ? { total: p.total } : {}),
        ...(p.message !== undefined ? { message: p.message } : {}),
      });
    };
  }
  try {
    return await send(sdk);
  } finally {
    clock.dispose();
    unsubscribe?.();
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    putBack(controller);
  }
}

/**
 * Controllers of calls that ended without being aborted, for the next calls.
 * Making an AbortSignal is the dearest part of a call's clock in Node (~2 µs,
 * more than the rest of Berth's timeout together, and garbage besides), and
 * every tool call needs one for the SDK. A signal that was never aborted and
 * that nobody listens to any more (the SDK removes its listener when its
 * request settles) is as good as new.
 */
const idleControllers: AbortController[] = [];
const MAX_IDLE_CONTROLLERS = 256;

function putBack(controller: AbortController): void {
  if (controller.signal.aborted || idleControllers.length >= MAX_IDLE_CONTROLLERS) return;
  // Someone still listening (an SDK that kept its listener) could be woken by a later call's abort: never reuse that one.
  if (getEventListeners(controller.signal, 'abort').length > 0) return;
  idleControllers.push(controller);
}

/** The same SdkError the SDK raises when its own timer runs out. */
function timeoutError(kind: TimeoutKind, timeoutMs: number, maxTotalMs: number): SdkError {
  return kind === 'idle'
    ? new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs })
    : new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
        maxTotalTimeout: Math.max(maxTotalMs, timeoutMs),
      });
}
