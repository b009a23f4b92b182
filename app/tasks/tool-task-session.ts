import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  createSessionPortFromClient,
  JsonRpcResponseError,
  TaskRecoveryOwnershipError,
  taskViewFromExecutionEvent,
  toolDeclaration,
  withTasks,
} from '@modelcontextprotocol/ext-tasks/client';
import type {
  SerializedTaskReference,
  TaskEnabledSession,
  TaskView,
  ToolDeclaration,
  ToolExecution,
} from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { isTerminalTaskStatus } from '../../shared/domain/task';
import type { TaskRecord } from '../../shared/domain/task';
import type { ToolInfo } from '../../shared/domain/server';
import { errorMessage } from '../../shared/error-message';
import { HostError } from '../../shared/result';
import { cancelledByText, taskError, taskStatusWords, type TaskCancelledBy } from '../../shared/domain/task-errors';
import type { HostMessage } from '../../shared/domain/host-message';
import type { CodedText } from '../../shared/domain/host-wording';
import type { CallToolOptions, SupervisedConnection } from '../servers/connection-options';
import { immediateAnswer } from './background-task';
import type { FinishedTask } from './background-task';
import { creationTimeLimit } from './creation-time-limit';
import { modernTaskSessionOptions, RAW_REQUEST_ID_PREFIX } from './modern-dispatch';
import type { ModernTaskSessionOptions } from './modern-dispatch';
import { PacedTaskPort } from './paced-task-port';
import { taskInputHandler } from './task-input';
import type { TaskCallContext, ToolTaskQuestions } from './task-input';
import type { TaskJournal, TaskJournalEntry } from './task-journal';
import { TaskPollPacer } from './task-poll-pacer';
import type { TaskRegistry } from './task-registry';

type TaskExecution = Extract<ToolExecution<unknown, TaskCallContext | undefined>, { kind: 'task' }>;
type Patch = Partial<Omit<TaskRecord, 'id' | 'createdAt'>>;

/** How a call goes through the task session (ext-tasks' `task.preference`). */
export type TaskPreference = 'require' | 'prefer' | 'allow';
/** What a task the server purged (or let expire) reads: not a failure of its work. */
export { EXPIRED_TASK } from '../../shared/domain/task-errors';
/** Why a stdio server's running task cannot be followed after Berth quits. */
export const STDIO_TASK_LOST = taskStatusWords('task-errors.status-process-ended', {});

/** Options for {@linkcode ToolTaskSession}. */
export interface ToolTaskSessionOptions {
  server: string;
  connection: SupervisedConnection;
  transport: 'stdio' | 'http';
  /** Stable across restarts for the same server and address: a saved handle is only picked up again by the same endpoint. */
  endpointId: string;
  requestTimeoutMs: number;
  /** How long the request that releases a task's queued question may stay open. */
  maxTotalMs: number;
  registry: TaskRegistry;
  journal: TaskJournal;
  /** Berth is quitting: a task is left running on an HTTP server (picked up at the next start), not cancelled. */
  quitting: () => boolean;
  log: (level: 'info' | 'warning', text: string) => void;
  /** Berth's own dialogs, for the questions of a 2026-07-28 call (its `inputRequests`); without them such a question is refused. */
  questions?: ToolTaskQuestions;
  /** How long a call that may go on in the background (`onBackground`) waits for its task before answering at once. */
  backgroundAfterMs: number;
  /** A task that went on in the background, or was picked up after a restart, has ended. */
  finished?: (task: FinishedTask) => void;
  now?: () => number;
}

/** What follows one task to its end. */
interface Followed {
  execution: TaskExecution;
  /** Why Berth stopped following it, when it did (quit, closed link): the record says so instead of a failure. */
  leftBecause?: { status: 'working' | 'lost'; statusMessage: string; statusWording?: HostMessage; berthQuit: boolean };
}

/** ext-tasks' declaration of a tool from Berth's tool list (its task support included). */
function declarationOf(tools: readonly ToolInfo[], name: string): ToolDeclaration | undefined {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) return undefined;
  return toolDeclaration({
    name: tool.name,
    inputSchema: tool.inputSchema as Record<string, JsonValue>,
    ...(tool.execution?.taskSupport !== undefined ? { taskSupport: tool.execution.taskSupport } : {}),
  });
}

/**
 * The MCP tasks of one connection, through ext-tasks: a tool call made as a
 * task, followed to its end, reported to the TaskRegistry (and the chat card)
 * at each change, and returned as an ordinary CallToolResult. Both eras: the
 * 2025-11-25 `tasks` capability, and the 2026-07-28
 * `io.modelcontextprotocol/tasks` extension, whose requests go past the SDK
 * Client (modern-dispatch.ts) and whose questions (`inputRequests`) go to
 * Berth's own dialogs (task-input.ts). Created lazily: the ext-tasks adapter
 * is installed on the client at the first call, once per client.
 */
export class ToolTaskSession {
  private session: TaskEnabledSession<TaskCallContext | undefined> | undefined;
  private port: PacedTaskPort | undefined;
  /** 2026-07-28: progress of the raw requests (the SDK Client never sees it). */
  private watchProgress: ModernTaskSessionOptions['watchProgress'] | undefined;
  private readonly pacer: TaskPollPacer;
  private readonly followed = new Map<string, Followed>();
  private readonly now: () => number;

  constructor(private readonly options: ToolTaskSessionOptions) {
    this.pacer = new TaskPollPacer(options.registry);
    this.now = options.now ?? Date.now;
  }

  /** Call `tool` as a task (`require`: it must be one; `prefer`: when the server agrees; `allow`: if the server answers with one). */
  async call(
    tool: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
    preference: TaskPreference,
  ): Promise<CallToolResult> {
    // The person's Stop cancels the call while it is being created; once it is a task, Stop cancels the task (tasks/cancel).
    const creation = new AbortController();
    const stopCreation = (): void => creation.abort(options.signal?.reason);
    if (options.signal?.aborted === true) stopCreation();
    options.signal?.addEventListener('abort', stopCreation, { once: true });
    const id = randomUUID();
    const session = this.tasks();
    // 2026-07-28: progress on the call re-arms its timeout and reaches the card, as on the plain path.
    const progressToken = this.watchProgress === undefined ? undefined : `${RAW_REQUEST_ID_PREFIX}progress-${id}`;
    const onProgress = options.onProgress;
    const unwatch =
      progressToken === undefined || onProgress === undefined
        ? undefined
        : this.watchProgress?.(progressToken, onProgress);
    const limit = creationTimeLimit(
      this.options.server,
      `tools/call tool '${tool}'`,
      options.maxTotalMs ?? this.options.maxTotalMs,
      options.personWaits,
      (reason) => creation.abort(reason),
    );
    let execution: ToolExecution<unknown, TaskCallContext | undefined>;
    try {
      execution = await session.callTool(tool, args as Record<string, JsonValue>, {
        task: { preference },
        requestTimeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs,
        signal: creation.signal,
        applicationContext: {
          recordId: id,
          resumed: false,
          ...(options.origin === undefined ? {} : { origin: options.origin }),
        },
        ...(progressToken === undefined ? {} : { metadata: { progressToken }, resetTimeoutOnProgress: true }),
      });
    } catch (error) {
      // ext-tasks keys a live task by the server's id: a second call handed the same id is refused before it is followed (never sent tasks/cancel, which would cancel the first's).
      if (error instanceof TaskRecoveryOwnershipError) throw this.reusedTaskId(tool, error.taskId);
      throw limit.exceeded ?? error;
    } finally {
      limit.end();
      unwatch?.();
      options.signal?.removeEventListener('abort', stopCreation);
    }
    if (execution.kind === 'immediate') {
      const outcome = await execution.result();
      if (outcome.status === 'completed') return withoutResultType(outcome.result as CallToolResult);
      const server = this.options.server;
      throw HostError.coded(
        'SERVER_ERROR',
        outcome.status === 'failed'
          ? taskError('task-errors.call-failed', { tool, server, detail: outcome.error.message })
          : taskError('task-errors.call-cancelled', { tool, server }),
      );
    }
    const now = this.now();
    const record: TaskRecord = {
      id,
      taskId: execution.handle.taskId,
      server: this.options.server,
      side: 'requester',
      kind: 'tool',
      tool,
      ...(options.origin ?? {}),
      status: 'working',
      createdAt: now,
      updatedAt: now,
    };
    this.options.journal.add({
      record,
      transport: this.options.transport,
      reference: execution.serializeReference() as TaskJournalEntry['reference'],
    });
    const serverText = this.port?.takeImmediateResponse(record.taskId);
    // Whether the task asked the person something since the last look: that time is theirs, not the task's.
    let asked = false;
    const onTask = options.onTask;
    const following = this.follow(execution, record, {
      ...options,
      onTask: (task) => {
        if (task.status === 'input_required') asked = true;
        onTask?.(task);
      },
    });
    if (options.onBackground === undefined) return following;
    const askedMeanwhile = (): boolean => {
      const was = asked;
      asked = false;
      return was;
    };
    return this.untilBackground(following, record, serverText, options.onBackground, askedMeanwhile);
  }

  /**
   * The task's result if it comes within `backgroundAfterMs`; else the immediate answer, and the task goes on:
   * its end reaches `finished`, and nothing of the turn that started it (its Stop) reaches it any more.
   */
  private async untilBackground(
    following: Promise<CallToolResult>,
    record: TaskRecord,
    serverText: string | undefined,
    onBackground: (taskId: string) => void,
    askedMeanwhile: () => boolean,
  ): Promise<CallToolResult> {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<'background'>((resolve) => {
        timer = setTimeout(() => resolve('background'), this.options.backgroundAfterMs);
      });
      try {
        const first = await Promise.race([following, waited]);
        if (first !== 'background') return first;
      } finally {
        clearTimeout(timer);
      }
      // The task asked the person a question in this while (or still waits for the answer): the turn waits with it,
      // as for a plain call's, and the task gets a whole wait of its own after the answer.
      const current = this.options.registry.get(record.id);
      const waiting = current?.status === 'input_required' || current?.waitingFor !== undefined;
      if (!askedMeanwhile() && !waiting) break;
    }
    this.options.log('info', `task '${record.taskId}' of tool '${record.tool ?? '?'}' goes on in the background`);
    following.then(
      (result) => this.ended(record, { result }),
      (error: unknown) => this.ended(record, { error: errorMessage(error) }),
    );
    onBackground(record.id);
    return immediateAnswer(record, serverText);
  }

  /** A task nobody waits for ended: `finished` hears it with its record as it now reads. */
  private ended(record: TaskRecord, outcome: Omit<FinishedTask, 'record'>): void {
    const latest = this.options.registry.get(record.id) ?? record;
    // Left running on its server as Berth quits is no end: the next start picks it up again.
    if (!isTerminalTaskStatus(latest.status)) return;
    try {
      this.options.finished?.({ record: latest, ...outcome });
    } catch (error) {
      this.options.log('warning', `the end of task '${record.taskId}' could not be delivered: ${errorMessage(error)}`);
    }
  }

  private reusedTaskId(tool: string, taskId: string): HostError {
    this.options.log('warning', `tool '${tool}' was given task id '${taskId}', which a running task already has`);
    return HostError.coded(
      'SERVER_ERROR',
      taskError('task-errors.reused-id', { server: this.options.server, tool, taskId }),
    );
  }

  /** A task Berth ran before a restart: picked up again by its saved handle and followed to its end (nobody waits for its result). */
  async resume(entry: TaskJournalEntry): Promise<void> {
    const { record, reference } = entry;
    let execution: ToolExecution<unknown, TaskCallContext | undefined>;
    try {
      if (reference === undefined) throw new Error('no handle was saved for it');
      const origin =
        record.conversationId !== undefined && record.toolUseId !== undefined
          ? { conversationId: record.conversationId, toolUseId: record.toolUseId }
          : undefined;
      execution = await this.tasks().resumeTask(reference as SerializedTaskReference, {
        requestTimeoutMs: this.options.requestTimeoutMs,
        applicationContext: { recordId: record.id, resumed: true, ...(origin === undefined ? {} : { origin }) },
      });
    } catch (error) {
      const gone = isTaskGone(error) || isTaskGone(error instanceof Error ? error.cause : undefined);
      this.options.registry.update(record.id, {
        status: 'lost',
        ...taskStatusWords(gone ? 'task-errors.status-resume-expired' : 'task-errors.status-resume-failed', {
          detail: errorMessage(error),
        }),
        ...(gone ? { expired: true } : {}),
      });
      return;
    }
    if (execution.kind !== 'task') return;
    this.options.log(
      'info',
      `picked up task '${record.taskId}' of tool '${record.tool ?? '?'}' again after the restart`,
    );
    try {
      const result = await this.follow(execution, record, {});
      this.options.log('info', `task '${record.taskId}' of tool '${record.tool ?? '?'}' completed after the restart`);
      this.ended(record, { result });
    } catch (error) {
      this.options.log(
        'info',
        `task '${record.taskId}' of tool '${record.tool ?? '?'}' ended after the restart: ${errorMessage(error)}`,
      );
      this.ended(record, { error: errorMessage(error) });
    }
  }

  /**
   * The connection is closing. Berth quitting: tasks on an HTTP server are
   * left running there (their handles are saved; the next start picks them
   * up), a stdio server's end with its process. Otherwise (stop, restart,
   * a lost link) Berth stops following them and says so.
   */
  async close(): Promise<void> {
    const settling: Promise<unknown>[] = [];
    for (const followed of this.followed.values()) {
      await this.leave(followed);
      settling.push(followed.execution.result().catch(() => undefined));
    }
    // Detached executions settle a tick later; closing the session before that would cancel them on the server.
    await Promise.all(settling);
    this.pacer.close();
    await this.session?.close();
  }

  /** Stop following a task without cancelling it, saying why (see {@linkcode close}). */
  private async leave(followed: Followed): Promise<void> {
    const quitting = this.options.quitting();
    followed.leftBecause =
      quitting && this.options.transport === 'http'
        ? { status: 'working', ...taskStatusWords('task-errors.status-berth-quit', {}), berthQuit: true }
        : {
            status: 'lost',
            ...(quitting ? STDIO_TASK_LOST : taskStatusWords('task-errors.status-connection-closed', {})),
            berthQuit: quitting,
          };
    await followed.execution.detach();
  }

  private tasks(): TaskEnabledSession<TaskCallContext | undefined> {
    if (this.session !== undefined) return this.session;
    const { connection, questions } = this.options;
    const { client } = connection;
    // 2026-07-28: the SDK Client cannot read `resultType: "task"`, so tools/call and tasks/* go past it.
    const modern =
      client.getProtocolEra() === 'modern'
        ? modernTaskSessionOptions(client, { requestTimeoutMs: this.options.requestTimeoutMs })
        : undefined;
    this.watchProgress = modern?.watchProgress;
    const wire =
      modern === undefined ? {} : { rawDispatch: modern.rawDispatch, v2RequestFraming: modern.v2RequestFraming };
    const port = (this.port = new PacedTaskPort(
      createSessionPortFromClient(client, this.options.endpointId, wire),
      this.pacer,
      (method, what, signal, send) =>
        connection.request(method, what, this.options.requestTimeoutMs, signal, () => send()),
    ));
    this.session = withTasks<TaskCallContext | undefined>(port, {
      tools: { currentTool: (name) => declarationOf(connection.tools, name) },
      onError: (error) => this.options.log('warning', errorMessage(error)),
      // 2025-11-25 questions come as server requests, which ServerQuestions' own handlers answer first.
      ...(questions === undefined ? {} : { onInputRequest: taskInputHandler(this.options.server, questions) }),
    });
    return this.session;
  }

  /** Follows a task to its end: the registry and the card hear each change, Stop and the Tasks view's Cancel send tasks/cancel. */
  private async follow(
    execution: TaskExecution,
    record: TaskRecord,
    options: Pick<CallToolOptions, 'signal' | 'onTask'>,
  ): Promise<CallToolResult> {
    const { registry } = this.options;
    const { id, taskId } = record;
    const tool = record.tool ?? '?';
    /** Why Berth cancelled it: the record says so rather than the server's generic words. */
    let cancelledBecause: TaskCancelledBy | undefined;
    const report = (patch: Patch): void => {
      const current = registry.get(id);
      if (current === undefined || isTerminalTaskStatus(current.status)) return;
      const next = registry.update(
        id,
        patch.status === 'cancelled' && cancelledBecause !== undefined
          ? { ...patch, ...taskStatusWords('task-errors.status-by-you', { by: cancelledBecause }) }
          : patch,
      );
      if (next !== undefined)
        options.onTask?.({
          taskId: id,
          status: next.status,
          ...(next.statusMessage !== undefined ? { statusMessage: next.statusMessage } : {}),
        });
    };
    const cancel = async (why: TaskCancelledBy): Promise<void> => {
      cancelledBecause ??= why;
      try {
        await execution.cancel();
        report({ status: 'cancelled' });
      } catch (error) {
        await execution.detach();
        report({
          status: 'lost',
          ...taskStatusWords('task-errors.status-cancel-failed', { detail: errorMessage(error) }),
        });
      }
    };
    const followed: Followed = { execution };
    this.followed.set(id, followed);
    // A task picked up again may have asked its question already (ext-tasks reads it in the first tasks/get): keep the pointer to it.
    const asked = registry.get(id)?.waitingFor;
    registry.put({ ...record, ...(asked === undefined ? {} : { waitingFor: asked }), updatedAt: this.now() }, () =>
      cancel('cancel'),
    );
    options.onTask?.({ taskId: id, status: record.status });
    this.pacer.started(taskId, record.pollIntervalMs);
    const onStop = (): void => {
      // Berth quitting stops every chat turn: that is not the person's Stop, the task is left (or lost with its process).
      if (this.options.quitting()) {
        void this.leave(followed);
        return;
      }
      cancel('stop').catch((error: unknown) =>
        this.options.log('warning', `cancelling task '${taskId}' failed: ${errorMessage(error)}`),
      );
    };
    if (options.signal?.aborted === true) onStop();
    options.signal?.addEventListener('abort', onStop, { once: true });
    /** Berth no longer follows the task (it let go of it, or lost the way to it): the record says why; never SessionLostError, as the task exists and the call must not be sent again. */
    const notFollowed = (error: unknown): HostError => {
      const left = followed.leftBecause;
      if (left?.status === 'working')
        registry.update(id, {
          statusMessage: left.statusMessage,
          ...(left.statusWording === undefined ? {} : { statusWording: left.statusWording }),
          berthQuit: left.berthQuit,
        });
      else
        report({
          status: 'lost',
          ...(left === undefined
            ? taskStatusWords('task-errors.status-lost-track', { detail: errorMessage(error) })
            : {
                statusMessage: left.statusMessage,
                ...(left.statusWording === undefined ? {} : { statusWording: left.statusWording }),
              }),
          ...(left?.berthQuit === true ? { berthQuit: true } : {}),
        });
      return HostError.coded(
        'SERVER_ERROR',
        taskError('task-errors.not-followed', {
          tool,
          server: this.options.server,
          detail: left?.statusMessage ?? errorMessage(error),
        }),
      );
    };
    const releasing = new AbortController();
    let released = false;
    let settled: Awaited<ReturnType<TaskExecution['settle']>>;
    try {
      settled = await execution.settle({
        onEvent: (event) => {
          const view = taskViewFromExecutionEvent(event);
          if (view === undefined) return;
          this.pacer.interval(taskId, view.suggestedPollIntervalMs);
          report(patchOf(view));
          // 2026-07-28 questions come in tasks/get itself (ext-tasks hands them to onInputRequest).
          if (view.status === 'input_required' && !released && this.port?.taskCapabilities.generation === 'v1') {
            released = true;
            void this.releaseInput(taskId, releasing.signal).finally(() => {
              released = false;
            });
          }
        },
      });
    } catch (error) {
      throw notFollowed(error);
    } finally {
      releasing.abort();
      options.signal?.removeEventListener('abort', onStop);
      this.followed.delete(id);
      this.pacer.forget(taskId);
    }
    const { outcome } = settled;
    if (outcome.status === 'failed' && isPurged(outcome)) {
      report({ status: 'lost', ...taskStatusWords('task-errors.status-expired', {}), expired: true });
      throw HostError.coded(
        'SERVER_ERROR',
        taskError('task-errors.expired', { tool, server: this.options.server, detail: outcome.error.message }),
      );
    }
    // A task Berth let go of ends its execution as "failed" (closed): that says nothing about the task itself.
    if (followed.leftBecause !== undefined && outcome.status !== 'completed')
      throw notFollowed(outcome.status === 'failed' ? outcome.error : new Error('cancelled'));
    if (outcome.status === 'completed') {
      report({ status: 'completed' });
      return withoutResultType(outcome.result as CallToolResult);
    }
    if (outcome.status === 'failed') {
      report({ status: 'failed', error: outcome.error.message });
      throw HostError.coded(
        'SERVER_ERROR',
        taskError('task-errors.failed', { tool, server: this.options.server, detail: outcome.error.message }),
      );
    }
    report({ status: 'cancelled' });
    throw HostError.coded(
      'SERVER_ERROR',
      cancelledWords(tool, this.options.server, registry.get(id)?.statusMessage, cancelledBecause),
    );
  }

  /**
   * 2025-11-25: a server queues the question of a task in `input_required`
   * and delivers it only inside a `tasks/result` request, which ext-tasks
   * sends only once the task is terminal. Sending it now releases the
   * question: it arrives as an ordinary elicitation or sampling request
   * (Berth's own dialogs answer it); the request itself ends with the task.
   */
  private async releaseInput(taskId: string, signal: AbortSignal): Promise<void> {
    try {
      this.tasks();
      const response = await this.port?.dispatch(
        { method: 'tasks/result', params: { taskId } },
        { signal, context: { requestTimeoutMs: this.options.maxTotalMs } },
      );
      if (response?.kind === 'error' && !signal.aborted)
        this.options.log(
          'warning',
          `the server refused to hand over the question of task '${taskId}': ${response.error.message}`,
        );
    } catch (error) {
      if (!signal.aborted)
        this.options.log(
          'warning',
          `asking the server for the question of task '${taskId}' failed: ${errorMessage(error)}`,
        );
    }
  }
}

/**
 * The server no longer knows the task (it purged it, or its TTL ran out): a
 * `tasks/get`/`tasks/result` answered with an error before the server ever
 * said the task ended. A task the server reported as failed carries that
 * final status (`outcome.task`) and stays a failure.
 */
function isPurged(outcome: { error: Error; task?: TaskView }): boolean {
  if (outcome.task !== undefined) return false;
  return isTaskGone(outcome.error.cause);
}

/** The server's error for a task id it does not know (-32602 by the spec; other servers say so in words). */
function isTaskGone(error: unknown): boolean {
  if (!(error instanceof JsonRpcResponseError)) return false;
  return error.code === -32602 || /not found|unknown task|no such task|expired|does not exist/i.test(error.message);
}

/** SEP-2322's `resultType` is wire framing (ext-tasks keeps it); Berth's results, like the SDK's own, go without it. */
function withoutResultType(result: CallToolResult): CallToolResult {
  if (!('resultType' in result)) return result;
  const { resultType: _framing, ...rest } = result as CallToolResult & { resultType?: unknown };
  return rest;
}

function patchOf(view: TaskView): Patch {
  return {
    status: view.status,
    ...(view.statusMessage !== undefined ? { statusMessage: view.statusMessage } : {}),
    ttlMs: view.retentionMs,
    ...(view.suggestedPollIntervalMs !== undefined ? { pollIntervalMs: view.suggestedPollIntervalMs } : {}),
  };
}

/** Why a task ended cancelled: the person (the record says so in Berth's words), the server's own words, or nothing said. */
function cancelledWords(
  tool: string,
  server: string,
  statusMessage: string | undefined,
  cancelledBecause: TaskCancelledBy | undefined,
): CodedText {
  if (statusMessage === undefined) return taskError('task-errors.cancelled-by-server', { tool, server });
  if (cancelledBecause !== undefined && statusMessage === cancelledByText(cancelledBecause))
    return taskError('task-errors.cancelled-by-you', { tool, server, by: cancelledBecause });
  return taskError('task-errors.cancelled', { tool, server, detail: statusMessage });
}
