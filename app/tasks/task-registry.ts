import { workspaceError } from '../../shared/domain/workspace-errors';
import { HostError } from '../../shared/result';
import { isTerminalTaskStatus, MAX_TASK_TEXT } from '../../shared/domain/task';
import type { TaskRecord, TasksChanged } from '../../shared/domain/task';

/** A server's words cut to what a record keeps (MAX_TASK_TEXT), marked as cut. */
function clipped(record: TaskRecord): TaskRecord {
  const clip = (text: string): string => (text.length <= MAX_TASK_TEXT ? text : `${text.slice(0, MAX_TASK_TEXT - 1)}…`);
  const { statusMessage, error } = record;
  if ((statusMessage?.length ?? 0) <= MAX_TASK_TEXT && (error?.length ?? 0) <= MAX_TASK_TEXT) return record;
  return {
    ...record,
    ...(statusMessage !== undefined ? { statusMessage: clip(statusMessage) } : {}),
    ...(error !== undefined ? { error: clip(error) } : {}),
  };
}

/** Cancels one running task: tasks/cancel to its server, or Berth stops waiting for the person. */
export type TaskCanceller = () => Promise<void>;

export interface TaskRegistryOptions {
  /** What changed, for the renderer (`tasks.changed`). */
  onChange?: (change: TasksChanged) => void;
  now?: () => number;
}

/**
 * Every task Berth knows about, requester and receiver side, across servers:
 * what the Tasks view lists and each tool card's task links to. The task's
 * owner (the requester session or the receiver binding) reports its state
 * here and registers how to cancel it; the registry announces only what
 * changed.
 */
export class TaskRegistry {
  private readonly records = new Map<string, TaskRecord>();
  private readonly cancellers = new Map<string, TaskCanceller>();
  private readonly visibilityListeners = new Set<(visible: boolean) => void>();
  private visible = true;
  private readonly now: () => number;

  constructor(private readonly options: TaskRegistryOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /** Newest first. */
  list(): TaskRecord[] {
    return [...this.records.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  get(id: string): TaskRecord | undefined {
    return this.records.get(id);
  }

  /** A new task, or a whole record replaced (recovery). */
  put(given: TaskRecord, cancel?: TaskCanceller): void {
    const record = clipped(given);
    this.records.set(record.id, record);
    if (cancel !== undefined && !isTerminalTaskStatus(record.status)) this.cancellers.set(record.id, cancel);
    else this.cancellers.delete(record.id);
    this.options.onChange?.({ changed: [record], removed: [] });
  }

  /** Part of a record changed; ignored for an unknown id (the task was cleared meanwhile). A terminal status drops its canceller. */
  update(id: string, patch: Partial<Omit<TaskRecord, 'id' | 'createdAt'>>): TaskRecord | undefined {
    const current = this.records.get(id);
    if (current === undefined) return undefined;
    // New words from the server replace Berth's: the old code would word the old message.
    const { statusWording: _replaced, ...kept } = current;
    const base = patch.statusMessage !== undefined && patch.statusWording === undefined ? kept : current;
    const next: TaskRecord = clipped({ ...base, ...patch, updatedAt: this.now() });
    this.records.set(id, next);
    if (isTerminalTaskStatus(next.status)) this.cancellers.delete(id);
    this.options.onChange?.({ changed: [next], removed: [] });
    return next;
  }

  /** NOT_FOUND for an unknown id; a finished task is left as it is. */
  async cancel(id: string): Promise<TaskRecord> {
    const record = this.records.get(id);
    if (record === undefined)
      throw HostError.coded('NOT_FOUND', workspaceError('workspace-errors.task-not-found', { id }));
    const cancel = this.cancellers.get(id);
    if (cancel === undefined || isTerminalTaskStatus(record.status)) return record;
    await cancel();
    return this.records.get(id) ?? record;
  }

  /** Removes tasks; running ones stay unless `includeRunning`. */
  remove(ids: readonly string[], includeRunning = false): string[] {
    const removed: string[] = [];
    for (const id of ids) {
      const record = this.records.get(id);
      if (record === undefined || (!includeRunning && !isTerminalTaskStatus(record.status))) continue;
      this.records.delete(id);
      this.cancellers.delete(id);
      removed.push(id);
    }
    if (removed.length > 0) this.options.onChange?.({ changed: [], removed });
    return removed;
  }

  /** Removes every finished task; returns how many. */
  clearFinished(): number {
    return this.remove(
      this.list()
        .filter((record) => isTerminalTaskStatus(record.status))
        .map((record) => record.id),
    ).length;
  }

  /** Whether anyone can see Berth's window: polling backs off while nobody can. */
  get windowVisible(): boolean {
    return this.visible;
  }

  setWindowVisible(visible: boolean): void {
    if (visible === this.visible) return;
    this.visible = visible;
    for (const listener of this.visibilityListeners) listener(visible);
  }

  onWindowVisibility(listener: (visible: boolean) => void): () => void {
    this.visibilityListeners.add(listener);
    return () => this.visibilityListeners.delete(listener);
  }
}
