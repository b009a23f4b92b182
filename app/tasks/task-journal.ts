import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { TaskRecordSchema, isTerminalTaskStatus } from '../../shared/domain/task';
import type { TasksChanged } from '../../shared/domain/task';
import { atomicWriteFile } from '../config/atomic-write';
import { loadStateFile } from '../config/state-file';
import { errorMessage } from '../../shared/error-message';

/** The file in the state dir. */
export const TASK_JOURNAL_FILE = 'tasks.json';
/** Finished tasks kept across restarts (the newest); running ones are always kept. */
export const KEPT_FINISHED_TASKS = 200;

/** What ext-tasks needs to pick a task up again (SerializedTaskReference: v1 for the 2025-11-25 era, v2 for 2026-07-28). */
const TaskReferenceSchema = z.object({
  endpointId: z.string(),
  generation: z.enum(['v1', 'v2']),
  taskId: z.string(),
  originalOperation: z.literal('tools/call'),
});

const JournalEntrySchema = z.object({
  record: TaskRecordSchema,
  /** How Berth reached the server: a stdio server's tasks end with its process. */
  transport: z.enum(['stdio', 'http']),
  reference: TaskReferenceSchema.optional(),
});
export type TaskJournalEntry = z.infer<typeof JournalEntrySchema>;

// Entries are checked one by one: one bad entry costs that task, not every remembered task.
const JournalFileSchema = z.object({ version: z.literal(1), tasks: z.array(z.unknown()) });

/** Options for {@linkcode TaskJournal.open}. */
export interface TaskJournalOptions {
  stateDir: string;
  warn: (text: string) => void;
  now?: () => number;
}

/**
 * The requester tasks Berth ran, kept in `<stateDir>/tasks.json` (0600,
 * written atomically): each task's record and, while it runs, the handle that
 * picks it up again after a restart. Writes are coalesced: at most one in
 * flight and one queued, each writing the latest state.
 */
export class TaskJournal {
  private readonly entries = new Map<string, TaskJournalEntry>();
  private writing: Promise<void> | undefined;
  private queued = false;
  private saveBlocked: string | undefined;

  private constructor(private readonly options: TaskJournalOptions) {}

  static async open(options: TaskJournalOptions): Promise<TaskJournal> {
    const journal = new TaskJournal(options);
    const loaded = await loadStateFile(journal.path, JournalFileSchema, options.now ?? Date.now);
    if (loaded.kind === 'loaded') await journal.take(loaded.data.tasks, options);
    else if (loaded.kind === 'unusable') {
      options.warn(`tasks: ${loaded.message}; Berth starts with no remembered tasks`);
      journal.saveBlocked = loaded.saveBlocked;
    }
    return journal;
  }

  /** The entries of a readable file; any that cannot be used are left out, and the file as it was is copied aside first. */
  private async take(raw: readonly unknown[], options: TaskJournalOptions): Promise<void> {
    const bad: string[] = [];
    for (const [index, value] of raw.entries()) {
      const entry = JournalEntrySchema.safeParse(value);
      if (entry.success) this.entries.set(entry.data.record.id, entry.data);
      else bad.push(`#${index + 1}: ${entry.error.issues[0]?.message ?? 'invalid'}`);
    }
    if (bad.length === 0) return;
    const aside = `${this.path}.corrupt-${(options.now ?? Date.now)()}`;
    try {
      await copyFile(this.path, aside);
      options.warn(
        `tasks: left out ${bad.length} of ${raw.length} remembered tasks that could not be read (${bad.slice(0, 3).join('; ')}); the file as it was is kept at ${aside}`,
      );
    } catch (error) {
      // Keeping the file untouched matters more than remembering the rest: nothing is written over it.
      this.saveBlocked = `${bad.length} of its tasks could not be read and the file could not be copied aside (${errorMessage(error)})`;
      options.warn(`tasks: ${this.saveBlocked}; Berth will not write ${this.path} this run`);
    }
  }

  get path(): string {
    return join(this.options.stateDir, TASK_JOURNAL_FILE);
  }

  /** Everything remembered, oldest first. */
  list(): TaskJournalEntry[] {
    return [...this.entries.values()].sort((a, b) => a.record.createdAt - b.record.createdAt);
  }

  /** A new task Berth owns (or one recovered). */
  add(entry: TaskJournalEntry): void {
    this.entries.set(entry.record.id, entry);
    this.save();
  }

  /** The registry's change: records of tasks this journal keeps are updated, removed ones forgotten; other tasks (the receiver's) are not its business. */
  changed(change: TasksChanged): void {
    let dirty = false;
    for (const record of change.changed) {
      const entry = this.entries.get(record.id);
      if (entry === undefined) continue;
      this.entries.set(record.id, { ...entry, record });
      dirty = true;
    }
    for (const id of change.removed) dirty = this.entries.delete(id) || dirty;
    if (dirty) this.save();
  }

  /** Resolves when what was asked to be saved so far is on disk (or failed and was reported). */
  async flush(): Promise<void> {
    while (this.writing !== undefined) await this.writing;
  }

  private save(): void {
    if (this.saveBlocked !== undefined) return;
    if (this.writing !== undefined) {
      this.queued = true;
      return;
    }
    this.writing = this.write().finally(() => {
      this.writing = undefined;
      if (this.queued) {
        this.queued = false;
        this.save();
      }
    });
  }

  private async write(): Promise<void> {
    try {
      await atomicWriteFile(this.path, `${JSON.stringify({ version: 1, tasks: this.kept() }, null, 2)}\n`);
    } catch (error) {
      this.options.warn(
        `tasks: could not save ${this.path} (${errorMessage(error)}); the tasks running now cannot be recovered after a restart`,
      );
    }
  }

  /** Running tasks, and the newest finished ones. */
  private kept(): TaskJournalEntry[] {
    const all = this.list();
    const finished = all.filter((entry) => entry.reference === undefined || isTerminalTaskStatus(entry.record.status));
    const drop = new Set(
      finished.slice(0, Math.max(0, finished.length - KEPT_FINISHED_TASKS)).map((entry) => entry.record.id),
    );
    for (const id of drop) this.entries.delete(id);
    return all.filter((entry) => !drop.has(entry.record.id));
  }
}
