import { DispatchError } from '@modelcontextprotocol/ext-tasks/client';
import type {
  ConnectedMcpSessionPort,
  DispatchOptions,
  IncomingServerRequest,
  JsonRpcResponse,
  SessionTaskCapabilities,
} from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { HostError } from '../../shared/result';
import { immediateResponseOf } from './background-task';
import type { TaskPollPacer } from './task-poll-pacer';

/** Polls of one task that may time out in a row before Berth stops following it: a server slow for a moment does not lose the task. */
export const POLL_TIMEOUTS_TOLERATED = 3;

/** How one request reaches the server: the connection's `request` (failures in words, a lost remote link noticed). */
export type SendThroughConnection = <T>(
  method: string,
  what: string,
  signal: AbortSignal | undefined,
  send: () => Promise<T>,
) => Promise<T>;

function field(request: JsonValue, key: string): JsonValue | undefined {
  return typeof request === 'object' && request !== null && !Array.isArray(request)
    ? (request as Record<string, JsonValue>)[key]
    : undefined;
}

/** `tasks/get` → the task id it asks about. */
function polledTaskId(request: JsonValue): string | undefined {
  if (field(request, 'method') !== 'tasks/get') return undefined;
  const params = field(request, 'params');
  const taskId = params === undefined ? undefined : field(params, 'taskId');
  return typeof taskId === 'string' ? taskId : undefined;
}

function describe(request: JsonValue): { method: string; what: string } {
  const method = field(request, 'method');
  const params = field(request, 'params');
  const name = params === undefined ? undefined : field(params, 'name');
  const taskId = params === undefined ? undefined : field(params, 'taskId');
  return {
    method: typeof method === 'string' ? method : 'request',
    what: typeof name === 'string' ? `tool '${name}'` : typeof taskId === 'string' ? `task '${taskId}'` : '',
  };
}

/**
 * ext-tasks' port over the SDK client, with two things of Berth's in the way
 * of each request: a `tasks/get` waits for the {@linkcode TaskPollPacer}
 * (the server's interval at least, longer while the window is hidden), and
 * every request goes through the connection, so a timeout or a lost link
 * reads as the rest of Berth words it. Server requests, notifications and the
 * link's end pass straight through.
 */
export class PacedTaskPort implements ConnectedMcpSessionPort {
  /** Immediate responses servers gave with a new task (CreateTaskResult `_meta`), by task id, until taken. */
  private readonly immediate = new Map<string, string>();

  constructor(
    private readonly inner: ConnectedMcpSessionPort & Disposable,
    private readonly pacer: TaskPollPacer,
    private readonly send: SendThroughConnection,
  ) {}

  get endpointId(): string {
    return this.inner.endpointId;
  }

  get taskCapabilities(): SessionTaskCapabilities {
    return this.inner.taskCapabilities;
  }

  get invalidated(): boolean {
    return this.inner.invalidated;
  }

  async dispatch(request: JsonValue, options?: DispatchOptions): Promise<JsonRpcResponse> {
    const taskId = polledTaskId(request);
    if (taskId === undefined) return this.once(request, options);
    // tasks/get changes nothing on the server, so a poll that timed out is asked again (at the pacer's pace) before Berth gives the task up.
    for (let attempt = 1; ; attempt += 1) {
      await this.pacer.beforePoll(taskId, options?.signal);
      try {
        return await this.once(request, options);
      } catch (error) {
        const timedOut = error instanceof HostError && error.code === 'TIMEOUT';
        if (
          !timedOut ||
          attempt >= POLL_TIMEOUTS_TOLERATED ||
          options?.signal?.aborted === true ||
          this.inner.invalidated
        )
          throw error;
      }
    }
  }

  /** The immediate response the server gave with task `taskId`, once (ext-tasks does not keep a CreateTaskResult's `_meta`). */
  takeImmediateResponse(taskId: string): string | undefined {
    const text = this.immediate.get(taskId);
    this.immediate.delete(taskId);
    return text;
  }

  private once(request: JsonValue, options: DispatchOptions | undefined): Promise<JsonRpcResponse> {
    const { method, what } = describe(request);
    return this.send(method, what, options?.signal, async () => {
      try {
        const response = await this.inner.dispatch(request, options);
        if (method === 'tools/call' && response.kind === 'result') this.keepImmediateResponse(response.result);
        return response;
      } catch (error) {
        // The SDK's own error (a timeout, the link closed) is what the connection words.
        if (error instanceof DispatchError && error.cause !== undefined) throw error.cause;
        throw error;
      }
    });
  }

  private keepImmediateResponse(result: JsonValue): void {
    const text = immediateResponseOf(result);
    if (text === undefined) return;
    // 2025-11-25 nests the task (`task.taskId`); 2026-07-28 is the task itself (`taskId`).
    const task = field(result, 'task');
    const taskId = task === undefined ? field(result, 'taskId') : field(task, 'taskId');
    if (typeof taskId === 'string') this.immediate.set(taskId, text);
  }

  onServerRequest(handler: (incoming: IncomingServerRequest) => Promise<JsonRpcResponse | undefined>): () => void {
    return this.inner.onServerRequest(handler);
  }

  onNotification(listener: (notification: JsonValue) => void): () => void {
    return this.inner.onNotification(listener);
  }

  onInvalidated(listener: (reason: unknown) => void): () => void {
    return this.inner.onInvalidated(listener);
  }

  [Symbol.dispose](): void {
    this.inner[Symbol.dispose]();
  }
}
