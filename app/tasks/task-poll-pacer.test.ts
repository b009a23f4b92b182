import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TaskRegistry } from './task-registry';
import { HIDDEN_MAX_INTERVAL_MS, TaskPollPacer, pollGapMs } from './task-poll-pacer';

describe('pollGapMs', () => {
  it("is the server's interval while the window is seen, four times it (at most 30 s) while hidden, never below what the server asked", () => {
    expect(pollGapMs(1_000, true)).toBe(1_000);
    expect(pollGapMs(1_000, false)).toBe(4_000);
    expect(pollGapMs(10_000, false)).toBe(HIDDEN_MAX_INTERVAL_MS);
    expect(pollGapMs(60_000, false)).toBe(60_000);
    expect(pollGapMs(undefined, true)).toBe(1_000);
    expect(pollGapMs(-5, true)).toBe(1_000);
  });
});

describe('TaskPollPacer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** When `beforePoll` resolved, in fake ms; undefined while it waits. */
  function pollAt(
    pacer: TaskPollPacer,
    taskId: string,
    signal?: AbortSignal,
  ): { at: number | undefined; failed: unknown } {
    const seen: { at: number | undefined; failed: unknown } = { at: undefined, failed: undefined };
    pacer.beforePoll(taskId, signal).then(
      () => (seen.at = Date.now()),
      (error: unknown) => (seen.failed = error),
    );
    return seen;
  }

  it("holds a poll until the server's interval has passed since the last one", async () => {
    const pacer = new TaskPollPacer(new TaskRegistry());
    pacer.started('t', 1_000);
    const first = pollAt(pacer, 't');
    await vi.advanceTimersByTimeAsync(999);
    expect(first.at).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(first.at).toBe(1_000);
    pacer.interval('t', 2_500);
    const second = pollAt(pacer, 't');
    await vi.advanceTimersByTimeAsync(2_499);
    expect(second.at).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(second.at).toBe(3_500);
  });

  it('backs off while the window is hidden and polls at the server pace again as soon as it is shown', async () => {
    const registry = new TaskRegistry();
    const pacer = new TaskPollPacer(registry);
    registry.setWindowVisible(false);
    pacer.started('t', 1_000);
    const hidden = pollAt(pacer, 't');
    await vi.advanceTimersByTimeAsync(3_999);
    expect(hidden.at).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(hidden.at).toBe(4_000);

    const shown = pollAt(pacer, 't');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(shown.at).toBeUndefined();
    registry.setWindowVisible(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(shown.at).toBe(6_000);
  });

  it('gives up waiting when the poll is cancelled', async () => {
    const pacer = new TaskPollPacer(new TaskRegistry());
    pacer.started('t', 5_000);
    const controller = new AbortController();
    const waiting = pollAt(pacer, 't', controller.signal);
    controller.abort(new Error('stop'));
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting).toMatchObject({ at: undefined, failed: new Error('stop') });
  });
});
