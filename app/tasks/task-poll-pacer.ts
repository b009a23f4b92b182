/** While nobody can see Berth's window, a task is polled this many times less often… */
export const HIDDEN_BACKOFF_FACTOR = 4;
/** …but at least this often (unless the server itself asks for a longer interval). */
export const HIDDEN_MAX_INTERVAL_MS = 30_000;
/** The interval when the server names none (ext-tasks' own default). */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** Berth never polls one task more often than this, whatever the server asks (a `pollInterval: 1` would be ~1,000 requests a second). */
export const MIN_POLL_INTERVAL_MS = 500;
/** A long task is polled less often: the gap grows this much after each minute it has run… */
export const LONG_TASK_BACKOFF_FACTOR = 1.5;
export const LONG_TASK_BACKOFF_EVERY_MS = 60_000;
/** …up to this gap (unless the server itself asks for a longer one). */
export const LONG_TASK_MAX_INTERVAL_MS = 30_000;

/** What the pacer needs to know about the window (TaskRegistry). */
export interface WindowVisibility {
  readonly windowVisible: boolean;
  onWindowVisibility(listener: (visible: boolean) => void): () => void;
}

/**
 * The gap between two polls of one task: the server's interval, but never
 * below Berth's floor; backed off ×1.5 for each whole minute the task has run
 * and while the window is hidden (each up to 30 s); never below what the
 * server asked.
 */
export function pollGapMs(serverIntervalMs: number | undefined, windowVisible: boolean, taskAgeMs = 0): number {
  const asked =
    serverIntervalMs !== undefined && Number.isFinite(serverIntervalMs) && serverIntervalMs > 0
      ? serverIntervalMs
      : DEFAULT_POLL_INTERVAL_MS;
  const floored = Math.max(asked, MIN_POLL_INTERVAL_MS);
  const minutes = Math.floor(Math.max(0, taskAgeMs) / LONG_TASK_BACKOFF_EVERY_MS);
  const aged = Math.max(floored, Math.min(floored * LONG_TASK_BACKOFF_FACTOR ** minutes, LONG_TASK_MAX_INTERVAL_MS));
  if (windowVisible) return aged;
  return Math.max(aged, Math.min(aged * HIDDEN_BACKOFF_FACTOR, HIDDEN_MAX_INTERVAL_MS));
}

interface PacedTask {
  /** When Berth started following the task, epoch ms: its age backs the polls off. */
  since: number;
  /** When the last poll (or the task's creation) was sent, epoch ms. */
  last: number;
  intervalMs: number | undefined;
}

/**
 * Holds each `tasks/get` back until the task's gap since its last poll has
 * passed. ext-tasks waits the server's interval itself; the pacer makes that
 * a guarantee (never faster than the server asked, nor than Berth's floor)
 * and adds the back-offs for a long task and while the window is hidden. A wait re-checks when the window is shown or hidden,
 * so a task shown again is polled at the server's pace at once.
 */
export class TaskPollPacer {
  private readonly tasks = new Map<string, PacedTask>();
  private readonly wakers = new Set<() => void>();
  private readonly stopListening: () => void;

  constructor(
    private readonly visibility: WindowVisibility,
    private readonly now: () => number = Date.now,
  ) {
    this.stopListening = visibility.onWindowVisibility(() => {
      for (const wake of [...this.wakers]) wake();
    });
  }

  /** The task was created (or recovered) now, with the server's interval if it named one. */
  started(taskId: string, intervalMs: number | undefined): void {
    const now = this.now();
    this.tasks.set(taskId, { since: now, last: now, intervalMs });
  }

  /** The server named a (new) interval in a status. */
  interval(taskId: string, intervalMs: number | undefined): void {
    const task = this.tasks.get(taskId);
    if (task !== undefined && intervalMs !== undefined) task.intervalMs = intervalMs;
  }

  /** Resolves when `taskId` may be polled again (and counts that poll as sent); rejects when `signal` aborts. */
  async beforePoll(taskId: string, signal: AbortSignal | undefined): Promise<void> {
    const task = this.tasks.get(taskId) ?? { since: this.now(), last: 0, intervalMs: undefined };
    this.tasks.set(taskId, task);
    for (;;) {
      signal?.throwIfAborted();
      const gap = pollGapMs(task.intervalMs, this.visibility.windowVisible, this.now() - task.since);
      const wait = task.last + gap - this.now();
      if (wait <= 0) break;
      await this.sleep(wait, signal);
    }
    task.last = this.now();
  }

  forget(taskId: string): void {
    this.tasks.delete(taskId);
  }

  close(): void {
    this.stopListening();
    for (const wake of [...this.wakers]) wake();
  }

  /** Waits `ms`, or less when the window's visibility changes; rejects on abort. */
  private sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const cleanUp = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        signal?.removeEventListener('abort', onAbort);
      };
      const done = (): void => {
        cleanUp();
        resolve();
      };
      const onAbort = (): void => {
        cleanUp();
        reject(signal?.reason instanceof Error ? signal.reason : new Error('the poll was cancelled'));
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
