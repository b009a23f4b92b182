/** While nobody can see Berth's window, a task is polled this many times less often… */
export const HIDDEN_BACKOFF_FACTOR = 4;
/** …but at least this often (unless the server itself asks for a longer interval). */
export const HIDDEN_MAX_INTERVAL_MS = 30_000;
/** The interval when the server names none (ext-tasks' own default). */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;

/** What the pacer needs to know about the window (TaskRegistry). */
export interface WindowVisibility {
  readonly windowVisible: boolean;
  onWindowVisibility(listener: (visible: boolean) => void): () => void;
}

/** The gap between two polls of one task: the server's interval, backed off while the window is hidden; never below what the server asked. */
export function pollGapMs(serverIntervalMs: number | undefined, windowVisible: boolean): number {
  const asked =
    serverIntervalMs !== undefined && Number.isFinite(serverIntervalMs) && serverIntervalMs > 0
      ? serverIntervalMs
      : DEFAULT_POLL_INTERVAL_MS;
  if (windowVisible) return asked;
  return Math.max(asked, Math.min(asked * HIDDEN_BACKOFF_FACTOR, HIDDEN_MAX_INTERVAL_MS));
}

interface PacedTask {
  /** When the last poll (or the task's creation) was sent, epoch ms. */
  last: number;
  intervalMs: number | undefined;
}

/**
 * Holds each `tasks/get` back until the task's gap since its last poll has
 * passed. ext-tasks waits the server's interval itself; the pacer makes that
 * a guarantee (never faster than the server asked) and adds the back-off while
 * the window is hidden. A wait re-checks when the window is shown or hidden,
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
    this.tasks.set(taskId, { last: this.now(), intervalMs });
  }

  /** The server named a (new) interval in a status. */
  interval(taskId: string, intervalMs: number | undefined): void {
    const task = this.tasks.get(taskId);
    if (task !== undefined && intervalMs !== undefined) task.intervalMs = intervalMs;
  }

  /** Resolves when `taskId` may be polled again (and counts that poll as sent); rejects when `signal` aborts. */
  async beforePoll(taskId: string, signal: AbortSignal | undefined): Promise<void> {
    const task = this.tasks.get(taskId) ?? { last: 0, intervalMs: undefined };
    this.tasks.set(taskId, task);
    for (;;) {
      signal?.throwIfAborted();
      const wait = task.last + pollGapMs(task.intervalMs, this.visibility.windowVisible) - this.now();
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
