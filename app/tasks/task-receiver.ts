import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import { bindTaskReceiver } from '@modelcontextprotocol/ext-tasks/receiver';
import type {
  TaskReceiverBinding,
  TaskReceiverCallbackContext,
  TaskReceiverErrorContext,
  TaskReceiverMethod,
  TaskReceiverRequest,
} from '@modelcontextprotocol/ext-tasks/receiver';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { errorMessage } from '../../shared/error-message';
import type { ServerState } from '../../shared/domain/server';
import { isTerminalTaskStatus } from '../../shared/domain/task';
import type { TaskRecord, TaskStatus } from '../../shared/domain/task';
import type { HostMessage } from '../../shared/domain/host-message';
import { taskStatusWords, type TaskErrorCode, type TaskErrorMessages } from '../../shared/domain/task-errors';
import type { PendingChange } from '../../shared/domain/pending';
import { formatSeconds } from '../format-seconds';
import type { RequestOrigin } from '../pending/running-tool-calls';
import type { LogSink } from '../logs/log-sink';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import type { TaskRegistry } from './task-registry';
import {
  hasInstalledHandler,
  installedCaller,
  isTaskAugmented,
  requestedTtlMs,
  wrapInstalledHandler,
} from './task-receiver-hooks';
import { checkedParams, checkedResult } from './task-receiver-params';
import type { ReceiverKind, ReceiverQuestions } from './task-receiver-params';

/** How long Berth keeps a task a server asked for without saying how long (from its creation, answered or not). */
export const DEFAULT_RECEIVER_TTL_MS = 60 * 60_000;
/** The longest Berth keeps one, whatever the server asks. */
export const MAX_RECEIVER_TTL_MS = 24 * 60 * 60_000;
/** Unfinished tasks one server may have at once; more are refused before a task exists (as many as PendingRequests lets it wait on). */
export const MAX_OPEN_RECEIVER_TASKS = 20;
/** Finished tasks of one server the Tasks view keeps; older ones go, so a server cannot fill the list. */
export const MAX_FINISHED_RECEIVER_TASKS = 50;
/** The `pollInterval` Berth suggests: an answer comes from a person, so once a second is plenty. */
export const RECEIVER_POLL_INTERVAL_MS = 1_000;

const METHODS: Record<ReceiverKind, TaskReceiverMethod> = {
  sampling: 'sampling/createMessage',
  elicitation: 'elicitation/create',
};

/** The part of Berth's client capabilities the receiver adds: `tasks` with list, cancel and the two request kinds. */
export function taskReceiverCapabilities(binding: TaskReceiverBinding): ClientCapabilities {
  return { tasks: { list: {}, cancel: {}, requests: { ...binding.capabilities.requests } } };
}

/** How a task Berth ended reads in the registry, and the note on its question if one was still open. */
interface Ending {
  status: TaskStatus;
  note: string;
  /** The note as a code, for a record Berth ends as cancelled or lost. */
  statusWording?: HostMessage;
  error?: string;
}

/** An ending in Berth's words: its note is the record's statusMessage, with its code. */
function endedWith<C extends `task-errors.status-${string}` & TaskErrorCode>(
  status: TaskStatus,
  code: C,
  params: TaskErrorMessages[C],
  error?: string,
): Ending {
  const { statusMessage, statusWording } = taskStatusWords(code, params);
  return { status, note: statusMessage, statusWording, ...(error === undefined ? {} : { error }) };
}

interface ReceiverTask {
  readonly id: string;
  readonly taskId: string;
  readonly server: string;
  readonly expiresAt: number;
  readonly ttlMs: number;
  /** Aborted to withdraw the task's open question. */
  readonly question: AbortController;
  waitingFor?: string;
  /** The registry holds the task's final state. */
  settled: boolean;
  /** Berth itself is ending the task (cancelled by the person, server gone): what to record once the binding lets go. */
  ending?: Ending;
}

/** One connection's binding and its unfinished tasks. */
interface BoundClient {
  readonly client: Client;
  readonly binding: TaskReceiverBinding;
  readonly cancel: (params: Record<string, unknown>) => Promise<unknown>;
  readonly tasks: Map<string, ReceiverTask>;
}

export interface TaskReceiversOptions {
  registry: Pick<TaskRegistry, 'put' | 'update' | 'list' | 'remove'>;
  /** Told when questions are answered or withdrawn, so a task shows it is working again. */
  pending: { onChange(listener: (event: PendingChange) => void): unknown };
  questions: ReceiverQuestions;
  /** Where a request from the server most likely came from (the running chat tool call). */
  origin(server: string): RequestOrigin;
  logs: LogSink;
  now?: () => number;
  defaultTtlMs?: number;
  maxTtlMs?: number;
}

/**
 * Berth as a task receiver (2025-11-25): a server may ask that its
 * `sampling/createMessage` or `elicitation/create` run as a task. ext-tasks'
 * binding answers at once with the task and serves `tasks/get`,
 * `tasks/result`, `tasks/list` and `tasks/cancel`; the question itself goes
 * through the same sampling review or form as a plain request, and waits for
 * the person with no request timeout, until the task's time to live runs out.
 * Each task is in the TaskRegistry (side `receiver`), where Cancel withdraws
 * its question.
 *
 * Plain requests (no `params.task`, including ones that only carry a related
 * task's `_meta`) go on to the handlers registered before the binding: Berth's
 * own, so register this listener after ServerQuestions (app/consent/server-questions.ts).
 */
export class TaskReceivers implements ServerLifecycleListener {
  private readonly bound = new Map<string, BoundClient>();
  private readonly lastStatus = new Map<string, ServerState['status']>();
  private readonly byQuestion = new Map<string, ReceiverTask>();
  private readonly now: () => number;
  private readonly defaultTtlMs: number;
  private readonly maxTtlMs: number;
  /** The TTL of the task being created right now: set around the binding's synchronous task creation, read by its `ttlMs`. */
  private creatingTtlMs: number | undefined;
  /**
   * When that task is created, read before the binding reads its own clock: the binding expires the task by its own
   * creation time, so Berth's time to live must not start later, or at the binding's expiry Berth's clock could still
   * be short of it (by the millisecond the creation took) and read the expiry as a cancel by the server.
   */
  private creatingAt: number | undefined;

  constructor(private readonly options: TaskReceiversOptions) {
    this.now = options.now ?? Date.now;
    this.defaultTtlMs = options.defaultTtlMs ?? DEFAULT_RECEIVER_TTL_MS;
    this.maxTtlMs = options.maxTtlMs ?? MAX_RECEIVER_TTL_MS;
    options.pending.onChange(({ change }) => {
      if (change.type !== 'answered' && change.type !== 'withdrawn') return;
      const task = this.byQuestion.get(change.id);
      if (task === undefined) return;
      this.byQuestion.delete(change.id);
      if (task.settled || task.waitingFor !== change.id) return;
      task.waitingFor = undefined;
      options.registry.update(task.id, { status: 'working', waitingFor: undefined });
    });
  }

  /** Binds the receiver to a new client: after ServerQuestions' plain handlers, before connect. */
  clientSetup(server: string, client: Client): void {
    // Plain requests go on to the handlers found at binding time; without them they would be refused.
    const missing = Object.values(METHODS).filter((method) => !hasInstalledHandler(client, method));
    if (missing.length > 0)
      throw new Error(
        `the task receiver binds after Berth's own handlers, and there are none yet for ${missing.join(', ')}`,
      );
    this.release(
      server,
      endedWith(
        'lost',
        'task-errors.status-server-reconnected',
        { server },
        `server '${server}' reconnected; the task did not survive it`,
      ),
    );
    const tasks = new Map<string, ReceiverTask>();
    const bound: { current?: BoundClient } = {};
    const run = (kind: ReceiverKind) => (request: TaskReceiverRequest, context: TaskReceiverCallbackContext) => {
      if (bound.current === undefined) return Promise.reject(new Error('the task receiver is not set up yet'));
      return this.run(server, bound.current, kind, request, context);
    };
    const binding = bindTaskReceiver(client, {
      methods: { 'sampling/createMessage': true, 'elicitation/create': true },
      sampling: run('sampling'),
      elicitation: run('elicitation'),
      ttlMs: () => this.creatingTtlMs ?? this.defaultTtlMs,
      pollIntervalMs: RECEIVER_POLL_INTERVAL_MS,
      onError: (error, context) => this.bindingError(server, error, context),
    });
    try {
      for (const kind of ['sampling', 'elicitation'] as const) this.screen(server, client, kind, () => tasks.size);
      bound.current = { client, binding, cancel: installedCaller(client, 'tasks/cancel'), tasks };
      client.registerCapabilities(taskReceiverCapabilities(binding));
    } catch (error) {
      binding.close();
      throw error;
    }
    this.bound.set(server, bound.current);
  }

  serverChanged(state: ServerState): void {
    const before = this.lastStatus.get(state.name);
    this.lastStatus.set(state.name, state.status);
    if (state.status === 'ready' || before !== 'ready') return;
    this.release(
      state.name,
      endedWith(
        'lost',
        'task-errors.status-server-disconnected',
        { server: state.name },
        `server '${state.name}' disconnected before it collected the answer`,
      ),
    );
  }

  serverRemoved(server: string): void {
    this.lastStatus.delete(server);
    this.release(
      server,
      endedWith('lost', 'task-errors.status-server-gone', { server }, `server '${server}' was removed`),
    );
  }

  shuttingDown(): void {
    for (const server of [...this.bound.keys()])
      this.release(
        server,
        endedWith('lost', 'task-errors.status-berth-quitting', {}, 'Berth quit before the server collected the answer'),
      );
  }

  /**
   * Puts a check in front of the binding's handler for `kind`: a task-augmented
   * request with bad params, or one Berth cannot answer at all, is refused
   * before a task is made; the TTL the server asked for (at most the maximum)
   * becomes the task's.
   */
  private screen(server: string, client: Client, kind: ReceiverKind, openTasks: () => number): void {
    wrapInstalledHandler(client, METHODS[kind], (installed) => async (request, context) => {
      if (!isTaskAugmented(request)) return installed(request, context);
      if (openTasks() >= MAX_OPEN_RECEIVER_TASKS) {
        this.log(
          server,
          'warning',
          `${METHODS[kind]} refused: ${MAX_OPEN_RECEIVER_TASKS} tasks of this server are already waiting`,
        );
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `Berth already runs ${MAX_OPEN_RECEIVER_TASKS} unfinished tasks for this server; finish or cancel some first`,
        );
      }
      const params = checkedParams(kind, (request as { params?: unknown }).params);
      if (!params.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, params.message);
      const refusal = kind === 'sampling' ? this.options.questions.samplingRefusal?.(server) : undefined;
      if (refusal !== undefined) throw refusal;
      this.creatingTtlMs = Math.min(requestedTtlMs(request) ?? this.defaultTtlMs, this.maxTtlMs);
      this.creatingAt = this.now();
      try {
        // The binding makes the task synchronously inside this call, reading creatingTtlMs and creatingAt.
        return installed(request, context);
      } finally {
        this.creatingTtlMs = undefined;
        this.creatingAt = undefined;
      }
    });
  }

  /** The binding made task `taskId`: record it and ask the person. Runs synchronously inside the binding's handler. */
  private run(
    server: string,
    bound: BoundClient,
    kind: ReceiverKind,
    request: TaskReceiverRequest,
    context: TaskReceiverCallbackContext,
  ): Promise<Record<string, JsonValue>> {
    const ttlMs = this.creatingTtlMs ?? this.defaultTtlMs;
    const createdAt = this.creatingAt ?? this.now();
    const task: ReceiverTask = {
      id: `receiver-${randomUUID()}`,
      taskId: context.taskId,
      server,
      expiresAt: createdAt + ttlMs,
      ttlMs,
      question: new AbortController(),
      settled: false,
    };
    bound.tasks.set(task.taskId, task);
    const record: TaskRecord = {
      id: task.id,
      taskId: task.taskId,
      server,
      side: 'receiver',
      kind,
      status: 'working',
      createdAt,
      updatedAt: createdAt,
      ttlMs,
      pollIntervalMs: RECEIVER_POLL_INTERVAL_MS,
      ...this.options.origin(server),
    };
    this.options.registry.put(record, () => this.cancelByPerson(bound, task));
    this.log(
      server,
      'info',
      `${METHODS[kind]} runs as task ${task.taskId}; Berth keeps it for ${formatSeconds(ttlMs)}`,
    );
    context.signal.addEventListener('abort', () => this.letGo(bound, task), { once: true });

    const params = checkedParams(kind, request.params);
    if (!params.ok) return this.failed(bound, task, new ProtocolError(ProtocolErrorCode.InvalidParams, params.message));
    const question = {
      signal: task.question.signal,
      taskId: task.id,
      onQuestion: (pendingId: string) => this.waiting(task, pendingId),
    };
    const answer =
      params.kind === 'sampling'
        ? this.options.questions.sampling(server, params.value, question)
        : this.options.questions.elicitation(server, params.value, question);
    return answer.then(
      (result) => {
        const checked = checkedResult(kind, params.value, result);
        if (!checked.ok)
          return this.failed(bound, task, new ProtocolError(ProtocolErrorCode.InternalError, checked.message));
        this.settle(bound, task, { status: 'completed', note: 'answered' });
        return checked.value;
      },
      (error: unknown) => this.failed(bound, task, error),
    );
  }

  private failed(bound: BoundClient, task: ReceiverTask, error: unknown): Promise<never> {
    this.settle(bound, task, { status: 'failed', note: errorMessage(error), error: errorMessage(error) });
    return Promise.reject(error instanceof Error ? error : new Error(errorMessage(error)));
  }

  /** The task's question opened (or the next one did: a sampling review asks twice). */
  private waiting(task: ReceiverTask, pendingId: string): void {
    if (task.settled) return;
    task.waitingFor = pendingId;
    this.byQuestion.set(pendingId, task);
    this.options.registry.update(task.id, { status: 'input_required', waitingFor: pendingId });
  }

  /**
   * The binding let go of the task: cancelled (by the server, or by Berth
   * for the person), expired, or the binding closed. A finished task is
   * only forgotten; an open one records why and withdraws its question.
   */
  private letGo(bound: BoundClient, task: ReceiverTask): void {
    if (task.settled) return;
    const ending =
      task.ending ??
      (this.now() >= task.expiresAt
        ? this.expired(task)
        : endedWith('cancelled', 'task-errors.status-server-cancelled', { server: task.server }));
    this.settle(bound, task, ending);
    this.log(task.server, 'info', `task ${task.taskId} ended (${ending.status}): ${ending.note}`);
    task.question.abort(ending.note);
  }

  private expired(task: ReceiverTask): Ending {
    const text = `the task's time to live (${formatSeconds(task.ttlMs)}) ran out before it was answered`;
    return { status: 'failed', note: text, error: text };
  }

  private settle(bound: BoundClient, task: ReceiverTask, ending: Ending): void {
    if (task.settled) return;
    task.settled = true;
    bound.tasks.delete(task.taskId);
    if (task.waitingFor !== undefined) this.byQuestion.delete(task.waitingFor);
    task.waitingFor = undefined;
    const statusMessage =
      ending.status === 'cancelled' || ending.status === 'lost'
        ? {
            statusMessage: ending.note,
            ...(ending.statusWording === undefined ? {} : { statusWording: ending.statusWording }),
          }
        : {};
    this.options.registry.update(task.id, {
      status: ending.status,
      waitingFor: undefined,
      ...statusMessage,
      ...(ending.error !== undefined ? { error: ending.error } : {}),
    });
    const finished = this.options.registry
      .list()
      .filter(
        (record) => record.side === 'receiver' && record.server === task.server && isTerminalTaskStatus(record.status),
      );
    // Newest first: the oldest beyond the limit go.
    if (finished.length > MAX_FINISHED_RECEIVER_TASKS)
      this.options.registry.remove(finished.slice(MAX_FINISHED_RECEIVER_TASKS).map((record) => record.id));
  }

  /** Cancel from the Tasks view: through the binding's own tasks/cancel, so the server hears `cancelled` too. */
  private async cancelByPerson(bound: BoundClient, task: ReceiverTask): Promise<void> {
    if (task.settled) return;
    task.ending = endedWith('cancelled', 'task-errors.status-you-cancelled', {});
    await bound.cancel({ taskId: task.taskId });
  }

  /** The connection is over: its binding closes, and each open task records `ending` and withdraws its question. */
  private release(server: string, ending: Ending): void {
    const bound = this.bound.get(server);
    if (bound === undefined) return;
    this.bound.delete(server);
    for (const task of bound.tasks.values()) task.ending ??= ending;
    bound.binding.close();
  }

  private bindingError(server: string, error: unknown, context: TaskReceiverErrorContext): void {
    const task = context.taskId === undefined ? '' : ` (task ${context.taskId})`;
    const late =
      context.lateAfter === undefined
        ? ''
        : `; it came after the task had ended (${context.lateAfter}) and was dropped`;
    this.log(
      server,
      context.lateAfter === undefined ? 'info' : 'warning',
      `${context.method}${task}: ${errorMessage(error)}${late}`,
    );
  }

  private log(server: string, level: 'info' | 'warning', text: string): void {
    this.options.logs.append({ server, time: this.now(), source: 'host', level, text: `task receiver: ${text}` });
  }
}
