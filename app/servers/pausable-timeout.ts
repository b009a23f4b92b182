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
    const kind: TimeoutKind = left < this.options.timeoutMs ? 'total' : 'idle';
    this.timer = setTimeout(
      () => {
        this.dispose();
        this.options.onTimeout(kind);
      },
      Math.max(0, kind === 'total' ? left : this.options.timeoutMs),
    );
  }
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
export async function withPausableTimeout<T>(options: PausableCallOptions, send: (sdk: SdkCallOptions) => Promise<T>): Promise<T> {
  const { signal, personWaits, onProgress, timeoutMs, maxTotalMs } = options;
  const controller = new AbortController();
  const clock = new PausableTimeout({
    timeoutMs,
    maxTotalMs,
    onTimeout: (kind) =>
      controller.abort(
        kind === 'idle'
          ? new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs })
          : new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', { maxTotalTimeout: Math.max(maxTotalMs, timeoutMs) }),
      ),
  });
  const onAbort = (): void => {
    clock.dispose();
    controller.abort(signal?.reason);
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  if (personWaits?.waiting === true) clock.pause();
  const unsubscribe = personWaits?.onChange((waiting) => (waiting ? clock.pause() : clock.resume()));
  try {
    return await send({
      timeout: NO_SDK_TIMEOUT_MS,
      signal: controller.signal,
      ...(onProgress === undefined
        ? {}
        : {
            onprogress: (p: Progress) => {
              clock.reset();
              onProgress({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) });
            },
          }),
    });
  } finally {
    clock.dispose();
    unsubscribe?.();
    signal?.removeEventListener('abort', onAbort);
  }
}
