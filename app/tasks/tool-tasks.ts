import type { PendingChange } from '../../shared/domain/pending';
import type { ServerState } from '../../shared/domain/server';
import { isTerminalTaskStatus } from '../../shared/domain/task';
import type { TasksChanged } from '../../shared/domain/task';
import { workspaceError } from '../../shared/domain/workspace-errors';
import { taskStatusWords } from '../../shared/domain/task-errors';
import { HostError } from '../../shared/result';
import type { LogSink } from '../logs/log-sink';
import type { OpenConnection, ServerConnectionOptions, SupervisedConnection } from '../servers/connection-options';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import { BACKGROUND_TASK_AFTER_MS } from './background-task';
import type { FinishedTask } from './background-task';
import { TaskAwareConnection } from './task-aware-connection';
import { TaskJournal } from './task-journal';
import type { TaskJournalEntry } from './task-journal';
import type { TaskRegistry } from './task-registry';
import type { ToolTaskQuestions } from './task-input';
import { STDIO_TASK_LOST, ToolTaskSession } from './tool-task-session';

/** Options for {@linkcode ToolTasks.open}. */
export interface ToolTasksOptions {
  stateDir: string;
  registry: TaskRegistry;
  logs: LogSink;
  /** The per-server setting: tools that may run as a task do (SettingsStore.tasksForOptionalTools). */
  optionalAsTasks: (server: string) => boolean;
  /** Berth's own dialogs, for the questions a 2026-07-28 tool call asks (`inputRequests`). */
  questions?: ToolTaskQuestions;
  /** How long a chat's call waits for its task before the turn goes on without it (default BACKGROUND_TASK_AFTER_MS). */
  backgroundAfterMs?: number;
  now?: () => number;
}

/** The endpoint a saved task handle belongs to: the same server at the same place. */
function endpointIdOf(server: string, options: ServerConnectionOptions): string {
  return `berth:${JSON.stringify([server, options.config.url ?? null, options.config.command ?? null])}`;
}

/**
 * Berth's MCP tool tasks (requester side, both eras), as one service:
 * it declares the `tasks` capability (with the receiver's part), makes each
 * connection task-aware (wrapping how the supervisor opens them), keeps the
 * tasks in the state dir, and at start-up picks up those of HTTP servers
 * again once their server is ready; a stdio server's are marked lost.
 */
export class ToolTasks implements ServerLifecycleListener {
  private readonly sessions = new Map<string, ToolTaskSession>();
  /** Tasks from before the restart, waiting for their server to be ready. */
  private readonly toResume = new Map<string, TaskJournalEntry[]>();
  private quitting = false;
  private finishedListener: ((task: FinishedTask) => void) | undefined;

  private constructor(
    private readonly options: ToolTasksOptions,
    readonly journal: TaskJournal,
  ) {}

  static async open(options: ToolTasksOptions): Promise<ToolTasks> {
    const journal = await TaskJournal.open({
      stateDir: options.stateDir,
      warn: (text) => log(options.logs, '', 'warning', text),
      ...(options.now ? { now: options.now } : {}),
    });
    const tasks = new ToolTasks(options, journal);
    tasks.recover();
    return tasks;
  }

  /** How the supervisor opens connections, made task-aware. */
  wrap(open: OpenConnection): OpenConnection {
    return async (options) => {
      const connection = await open(options);
      return this.taskAware(options, connection);
    };
  }

  /** Who hears of a task that ended with nobody waiting for its call (the chat, which opens after the tasks). */
  onFinished(listener: (task: FinishedTask) => void): void {
    this.finishedListener = listener;
  }

  /** The registry changed (also through the Tasks view): the journal keeps up. */
  registryChanged(change: TasksChanged): void {
    this.journal.changed(change);
  }

  /**
   * A question opened or ended (PendingRequests): an elicitation or sampling
   * review for the chat call a running task belongs to is that task's
   * question, so its record points at it (`waitingFor`) until it is answered
   * or withdrawn.
   */
  questionsChanged({ change }: PendingChange): void {
    const { registry } = this.options;
    if (change.type === 'opened') {
      const { request } = change;
      if (request.kind !== 'elicitation' && request.kind !== 'sampling') return;
      const task = registry
        .list()
        .find(
          (record) =>
            record.side === 'requester' &&
            !isTerminalTaskStatus(record.status) &&
            record.server === request.server &&
            record.toolUseId !== undefined &&
            record.toolUseId === request.toolUseId,
        );
      if (task !== undefined) registry.update(task.id, { waitingFor: request.id });
      return;
    }
    for (const record of registry.list())
      if (record.waitingFor === change.id) registry.update(record.id, { waitingFor: undefined });
  }

  serverChanged(state: ServerState): void {
    if (state.status !== 'ready') return;
    const waiting = this.toResume.get(state.name);
    const session = this.sessions.get(state.name);
    if (waiting === undefined || session === undefined) return;
    this.toResume.delete(state.name);
    for (const entry of waiting) void session.resume(entry);
  }

  serverRemoved(name: string): void {
    for (const entry of this.toResume.get(name) ?? [])
      this.options.registry.update(entry.record.id, {
        status: 'lost',
        ...taskStatusWords('task-errors.status-server-removed', {}),
      });
    this.toResume.delete(name);
    this.sessions.delete(name);
  }

  shuttingDown(): void {
    this.quitting = true;
  }

  /** Resolves once the journal's pending writes are done. */
  flush(): Promise<void> {
    return this.journal.flush();
  }

  private taskAware(options: ServerConnectionOptions, connection: SupervisedConnection): SupervisedConnection {
    const { name } = options;
    const session = new ToolTaskSession({
      server: name,
      connection,
      transport: connection.facts().transport === 'stdio' ? 'stdio' : 'http',
      endpointId: endpointIdOf(name, options),
      requestTimeoutMs: options.config.timeouts.requestMs,
      maxTotalMs: options.config.timeouts.maxTotalMs,
      registry: this.options.registry,
      journal: this.journal,
      quitting: () => this.quitting,
      log: (level, text) => log(this.options.logs, name, level, text),
      ...(this.options.questions ? { questions: this.options.questions } : {}),
      backgroundAfterMs: this.options.backgroundAfterMs ?? BACKGROUND_TASK_AFTER_MS,
      finished: (task) => this.finished(task),
      ...(this.options.now ? { now: this.options.now } : {}),
    });
    this.sessions.set(name, session);
    return new TaskAwareConnection(connection, session, () => this.options.optionalAsTasks(name));
  }

  private finished(task: FinishedTask): void {
    const { record } = task;
    if (this.finishedListener === undefined || record.conversationId === undefined) {
      log(
        this.options.logs,
        record.server,
        'info',
        `task '${record.taskId}' ended (${record.status}) with nobody to tell`,
      );
      return;
    }
    this.finishedListener(task);
  }

  /** Tasks from the last run: finished ones are listed again; running ones wait for their HTTP server, or are lost with their stdio server's process. */
  private recover(): void {
    const now = (this.options.now ?? Date.now)();
    const { registry } = this.options;
    const ids: string[] = [];
    for (const entry of this.journal.list()) {
      const { record } = entry;
      ids.push(record.id);
      if (isTerminalTaskStatus(record.status)) {
        registry.put(record);
        continue;
      }
      const expired = typeof record.ttlMs === 'number' && record.createdAt + record.ttlMs <= now;
      const lostBecause =
        entry.transport === 'stdio'
          ? STDIO_TASK_LOST
          : expired
            ? taskStatusWords('task-errors.status-ttl-ran-out', {})
            : entry.reference === undefined
              ? taskStatusWords('task-errors.status-no-handle', {})
              : undefined;
      // It was running when Berth last closed: its chat call ended "stopped" by that, not by the person.
      if (lostBecause !== undefined) {
        registry.put({ ...record, status: 'lost', ...lostBecause, berthQuit: true, updatedAt: now });
        continue;
      }
      registry.put(
        {
          ...record,
          ...taskStatusWords('task-errors.status-waiting-restart', {}),
          berthQuit: true,
          updatedAt: now,
        },
        async () => {
          throw HostError.coded(
            'NOT_READY',
            workspaceError('workspace-errors.task-cancel-not-ready', { server: record.server }),
          );
        },
      );
      const waiting = this.toResume.get(record.server) ?? [];
      waiting.push(entry);
      this.toResume.set(record.server, waiting);
    }
    // Before the host listens to the registry: what was found is saved as it now reads.
    this.journal.changed({ changed: ids.flatMap((id) => registry.get(id) ?? []), removed: [] });
  }
}

function log(logs: LogSink, server: string, level: 'info' | 'warning', text: string): void {
  logs.append({ server, time: Date.now(), source: 'host', level, text: server === '' ? text : `tasks: ${text}` });
}
