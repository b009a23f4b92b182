import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Progress } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_SDK_TIMEOUT_MS, PausableTimeout, withPausableTimeout } from './pausable-timeout';
import type { PersonWaits, SdkCallOptions, TimeoutKind } from './pausable-timeout';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function clock(timeoutMs: number, maxTotalMs: number): { timeout: PausableTimeout; fired: TimeoutKind[] } {
  const fired: TimeoutKind[] = [];
  return { timeout: new PausableTimeout({ timeoutMs, maxTotalMs, onTimeout: (kind) => fired.push(kind) }), fired };
}

/** A PersonWaits the test switches by hand. */
function switchableWaits(): PersonWaits & { set(waiting: boolean): void; listeners(): number } {
  const listeners = new Set<(waiting: boolean) => void>();
  let waiting = false;
  return {
    get waiting() {
      return waiting;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      waiting = next;
      for (const listener of listeners) listener(next);
    },
    listeners: () => listeners.size,
  };
}

describe('PausableTimeout', () => {
  it('fires after the idle window when nothing happens', () => {
    const { fired } = clock(60_000, 600_000);
    vi.advanceTimersByTime(59_999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['idle']);
  });

  it('stands still while paused, however long, and gives a fresh idle window on resume', () => {
    const { timeout, fired } = clock(60_000, 600_000);
    vi.advanceTimersByTime(50_000);
    timeout.pause();
    vi.advanceTimersByTime(90_000);
    expect(fired).toEqual([]);
    expect(timeout.activeMs).toBe(50_000);
    timeout.resume();
    vi.advanceTimersByTime(59_999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['idle']);
  });

  it('does not count paused time against the total', () => {
    const { timeout, fired } = clock(1_000, 3_000);
    // Progress keeps the idle window open; the total still runs: 2.5 s active.
    for (let i = 0; i < 5; i += 1) {
      vi.advanceTimersByTime(500);
      timeout.reset();
    }
    timeout.pause();
    vi.advanceTimersByTime(3_600_000);
    expect(fired).toEqual([]);
    timeout.resume();
    vi.advanceTimersByTime(499);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['total']);
  });

  it('ignores progress while paused and anything after dispose', () => {
    const { timeout, fired } = clock(1_000, 10_000);
    timeout.pause();
    timeout.reset();
    vi.advanceTimersByTime(5_000);
    expect(fired).toEqual([]);
    timeout.dispose();
    timeout.resume();
    vi.advanceTimersByTime(20_000);
    expect(fired).toEqual([]);
  });

  it('never cuts a call shorter than one idle window, like the SDK option it replaces', () => {
    const { fired } = clock(5_000, 1_000);
    vi.advanceTimersByTime(4_999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    // Both limits ran out at once: it reads as the plain timeout.
    expect(fired).toEqual(['idle']);
  });
});

describe('withPausableTimeout', () => {
  /** A request that never answers by itself and rejects with the abort reason, as the SDK does. */
  function sendNever(seen: SdkCallOptions[]): (sdk: SdkCallOptions) => Promise<string> {
    return (sdk) => {
      seen.push(sdk);
      return new Promise((_, reject) =>
        sdk.signal.addEventListener('abort', () => reject(sdk.signal.reason as Error), { once: true }),
      );
    };
  }

  it('gives a later call the signal of a call that ended unaborted with no listener left, and never an aborted or listened-to one', async () => {
    const signals: AbortSignal[] = [];
    const answer = (sdk: SdkCallOptions): Promise<string> => {
      signals.push(sdk.signal);
      return Promise.resolve('ok');
    };
    await withPausableTimeout({ timeoutMs: 2_000, maxTotalMs: 10_000 }, answer);
    await withPausableTimeout({ timeoutMs: 2_000, maxTotalMs: 10_000 }, answer);
    // Reused: making an AbortSignal is the dearest part of a call's clock.
    expect(signals[1]).toBe(signals[0]);
    expect(signals[1]?.aborted).toBe(false);

    // A listener left behind: that signal is not handed out again (a later abort would wake it).
    const leftOver = vi.fn();
    await withPausableTimeout({ timeoutMs: 2_000, maxTotalMs: 10_000 }, (sdk) => {
      sdk.signal.addEventListener('abort', leftOver);
      return answer(sdk);
    });
    const kept = signals[2] as AbortSignal;
    await withPausableTimeout({ timeoutMs: 2_000, maxTotalMs: 10_000 }, answer);
    expect(signals[3]).not.toBe(kept);

    // Timed out: aborted for good, and the next call gets a fresh signal.
    const seen: SdkCallOptions[] = [];
    const call = withPausableTimeout({ timeoutMs: 2_000, maxTotalMs: 10_000 }, sendNever(seen));
    const failure = expect(call).rejects.toBeInstanceOf(SdkError);
    await vi.advanceTimersByTimeAsync(2_000);
    await failure;
    const timedOut = seen[0]?.signal as AbortSignal;
    expect(timedOut.aborted).toBe(true);
    await withPausableTimeout({ timeoutMs: 2_000, maxTotalMs: 10_000 }, answer);
    expect(signals[4]).not.toBe(timedOut);
    expect(signals[4]?.aborted).toBe(false);
    expect(leftOver).not.toHaveBeenCalled();
  });

  it('keeps the SDK timer out of the way and times out with the SDK error Berth words already', async () => {
    const seen: SdkCallOptions[] = [];
    const call = withPausableTimeout({ timeoutMs: 2_000, maxTotalMs: 10_000 }, sendNever(seen));
    const failure = expect(call).rejects.toSatisfy(
      (error: unknown) => error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout,
    );
    expect(seen[0]?.timeout).toBe(NO_SDK_TIMEOUT_MS);
    await vi.advanceTimersByTimeAsync(2_000);
    await failure;
  });

  it('pauses while the person is asked and resumes fresh after the answer', async () => {
    const waits = switchableWaits();
    const seen: SdkCallOptions[] = [];
    let settled = false;
    const call = withPausableTimeout({ timeoutMs: 2_000, maxTotalMs: 2_000, personWaits: waits }, sendNever(seen));
    void call.catch(() => undefined).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(1_500);
    waits.set(true);
    await vi.advanceTimersByTimeAsync(90_000);
    expect(settled).toBe(false);
    expect(seen[0]?.signal.aborted).toBe(false);
    waits.set(false);
    // maxTotal is 2 s too, but only 1.5 s of it had run before the pause: 0.5 s more ends it (total, not idle).
    await vi.advanceTimersByTimeAsync(499);
    expect(seen[0]?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen[0]?.signal.aborted).toBe(true);
    expect((seen[0]?.signal.reason as SdkError).message).toBe('Maximum total timeout exceeded');
  });

  it('starts paused when the person is already being asked', async () => {
    const waits = switchableWaits();
    waits.set(true);
    const seen: SdkCallOptions[] = [];
    void withPausableTimeout({ timeoutMs: 1_000, maxTotalMs: 60_000, personWaits: waits }, sendNever(seen)).catch(
      () => undefined,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen[0]?.signal.aborted).toBe(false);
    waits.set(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen[0]?.signal.aborted).toBe(true);
  });

  it("passes the caller's cancel on with its reason, and stops listening once the call is over", async () => {
    const waits = switchableWaits();
    const stop = new AbortController();
    const seen: SdkCallOptions[] = [];
    const call = withPausableTimeout(
      { timeoutMs: 60_000, maxTotalMs: 60_000, signal: stop.signal, personWaits: waits },
      sendNever(seen),
    );
    stop.abort('cancelled by the user');
    await expect(call).rejects.toBe('cancelled by the user');
    expect(seen[0]?.signal.reason).toBe('cancelled by the user');
    const answered = await withPausableTimeout(
      { timeoutMs: 1_000, maxTotalMs: 1_000, personWaits: waits },
      async () => 'ok',
    );
    expect(answered).toBe('ok');
    // No listener is left behind on the waits of a finished call.
    expect(waits.listeners()).toBe(0);
  });

  it('resets the idle window on progress and hands the progress on', async () => {
    const seen: SdkCallOptions[] = [];
    const progress: unknown[] = [];
    void withPausableTimeout(
      { timeoutMs: 1_000, maxTotalMs: 60_000, onProgress: (p) => progress.push(p) },
      sendNever(seen),
    ).catch(() => undefined);
    for (let i = 1; i <= 3; i += 1) {
      await vi.advanceTimersByTimeAsync(900);
      seen[0]?.onprogress?.({ progress: i, total: 3 } as Progress);
    }
    expect(seen[0]?.signal.aborted).toBe(false);
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen[0]?.signal.aborted).toBe(true);
  });
});
