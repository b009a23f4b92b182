import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TaskRegistry } from './task-registry';
import {
  HIDDEN_MAX_INTERVAL_MS,
  LONG_TASK_MAX_INTERVAL_MS,
  MIN_POLL_INTERVAL_MS,
  TaskPollPacer,
  pollGapMs,
} from './task-poll-pacer';

describe('pollGapMs', () => {
  it("is the server's interval while the window is seen, four times it (at most 30 s) while hidden, never below what the server asked", () => {
    expect(pollGapMs(1_000, true)).toBe(1_000);
    expect(pollGapMs(1_000, false)).toBe(4_000);
    expect(pollGapMs(10_000, false)).toBe(HIDDEN_MAX_INTERVAL_MS);
    expect(pollGapMs(60_000, false)).toBe(60_000);
    expect(pollGapMs(undefined, true)).toBe(1_000);
    expect(pollGapMs(-5, true)).toBe(1_000);
  });

  it('never goes below the 500 ms floor, whatever the server asks', () => {
    expect(pollGapMs(1, true)).toBe(MIN_POLL_INTERVAL_MS);
    expect(pollGapMs(0.5, true)).toBe(MIN_POLL_INTERVAL_MS);
    expect(pollGapMs(1, false)).toBe(4 * MIN_POLL_INTERVAL_MS);
  });

  it('backs off ×1.5 after each minute a task has run, up to 30 s, and never below what the server asked', () => {
    expect(pollGapMs(1_000, true, 59_999)).toBe(1_000);
    expect(pollGapMs(1_000, true, 60_000)).toBe(1_500);
    expect(pollGapMs(1_000, true, 125_000)).toBe(2_250);
    expect(pollGapMs(1_000, true, 60 * 60_000)).toBe(LONG_TASK_MAX_INTERVAL_MS);
    expect(pollGapMs(45_000, true, 60 * 60_000)).toBe(45_000);
    expect(pollGapMs(1_000, false, 60_000)).toBe(6_000);
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

  it('a server asking for 1 ms is polled every 500 ms, and less often once the task has run a minute', async () => {
    const pacer = new TaskPollPacer(new TaskRegistry());
    pacer.started('t', 1);
    const times: number[] = [];
    for (let poll = 0; poll < 4; poll += 1) {
      const seen = pollAt(pacer, 't');
      await vi.advanceTimersByTimeAsync(499);
      expect(seen.at).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      times.push(seen.at ?? -1);
    }
    expect(times).toEqual([500, 1_000, 1_500, 2_000]);
    await vi.advanceTimersByTimeAsync(60_000 - 2_000);
    const late = pollAt(pacer, 't');
    await vi.advanceTimersByTimeAsync(0);
    expect(late.at).toBe(60_000);
    const next = pollAt(pacer, 't');
    await vi.advanceTimersByTimeAsync(749);
    expect(next.at).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(next.at).toBe(60_750);
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
