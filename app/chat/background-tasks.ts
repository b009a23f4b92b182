import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { TASK_RESULT_STATUSES } from '../../shared/domain/chat';
import type { ChatEvent, ChatMessage, ChatTaskResultBlock, Conversation } from '../../shared/domain/chat';
import type { TaskRecord } from '../../shared/domain/task';
import { errorMessage } from '../../shared/error-message';
import { HostError } from '../../shared/result';
import type { ConversationStore } from './conversation-store';
import { taskNotice, taskResultId, taskResultSent } from './task-result-message';
import { outcomeFromCallToolResult } from './tool-results';
import type { TurnHandle, TurnOutcome } from './chat-engine';

// Background tasks in a conversation: a chat call whose MCP task did not finish
// soon answered the model at once (app/tasks/background-task.ts); when the task
// ends, its result comes here. It is saved as a notice the person sees (a
// task_result block, never sent as it is) and, when the conversation says so, sent
// on at once as a follow-up turn — one at a time, after the running turn.

/** A task that went on in the background has ended (app/tasks' FinishedTask). */
export interface BackgroundTaskEnd {
  record: TaskRecord;
  result?: CallToolResult;
  error?: string;
}

/** What the follow-up needs from the engine. */
export interface FollowUpTurns {
  sendTaskResult(conversationId: string, taskId: string): Promise<TurnHandle>;
  turnDone(conversationId: string): Promise<TurnOutcome> | undefined;
}

/** Options for {@linkcode BackgroundTasks}. */
export interface BackgroundTasksOptions {
  store: Pick<ConversationStore, 'get' | 'appendMessage'>;
  turns: FollowUpTurns;
  emit: (event: ChatEvent) => void;
  log: (level: 'info' | 'warning', text: string) => void;
  /** Whether a follow-up turn may start (a key for the model's provider, Berth not shutting down): throws in words when not. */
  canStart?: (conversation: Conversation) => void;
  now?: () => number;
}

function noticeOf(end: BackgroundTaskEnd, finishedAt: number): ChatTaskResultBlock {
  const { record } = end;
  const status = (TASK_RESULT_STATUSES as readonly string[]).includes(record.status)
    ? (record.status as ChatTaskResultBlock['status'])
    : 'lost';
  const toolUseId = taskResultId(record.id);
  const result =
    end.result !== undefined
      ? { type: 'tool_result' as const, toolUseId, ...outcomeFromCallToolResult(end.result) }
      : {
          type: 'tool_result' as const,
          toolUseId,
          content: [{ type: 'text' as const, text: end.error ?? record.error ?? record.statusMessage ?? status }],
          isError: true,
        };
  return {
    type: 'task_result',
    taskId: record.id,
    serverTaskId: record.taskId,
    server: record.server,
    tool: record.tool ?? '',
    ...(record.toolUseId !== undefined ? { toolUseId: record.toolUseId } : {}),
    status,
    finishedAt,
    result,
  };
}

/**
 * Where background tasks' ends land: each in its conversation, once. A conversation gone meanwhile drops it with a
 * log line; a conversation set to `continue` gets a follow-up turn, queued behind the running one and the other
 * follow-ups, so two tasks ending together make two notices and two turns, one after the other.
 */
export class BackgroundTasks {
  /** Per conversation, the follow-ups queued: each waits for the one before it. */
  private readonly queues = new Map<string, Promise<void>>();
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: BackgroundTasksOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A task ended: its notice goes into its conversation (and a follow-up is queued there when it says so). */
  async deliver(end: BackgroundTaskEnd): Promise<void> {
    const { record } = end;
    const conversationId = record.conversationId;
    const what = `the result of task '${record.taskId}' (tool '${record.tool ?? '?'}' on server '${record.server}')`;
    if (conversationId === undefined) return;
    let conversation: Conversation;
    try {
      conversation = await this.options.store.get(conversationId);
    } catch (error) {
      this.options.log(
        'info',
        `${what} was dropped: its conversation ${conversationId} is gone (${errorMessage(error)})`,
      );
      return;
    }
    // A task picked up again after a restart may have come in before Berth quit: once is enough.
    if (taskNotice(conversation, record.id) !== undefined) return;
    const message: ChatMessage = {
      id: randomUUID(),
      role: 'user',
      createdAt: this.now(),
      content: [noticeOf(end, this.now())],
    };
    try {
      await this.options.store.appendMessage(conversationId, message);
    } catch (error) {
      this.options.log(
        'warning',
        `${what} could not be saved in conversation ${conversationId}: ${errorMessage(error)}`,
      );
      return;
    }
    this.options.emit({ type: 'task-finished', conversationId, message });
    if ((conversation.backgroundTasks ?? 'tell') === 'continue') this.followUp(conversationId, record.id);
  }

  /** No more follow-ups start (Berth is shutting down); the notices stay for the person to send. */
  close(): void {
    this.closed = true;
  }

  private followUp(conversationId: string, taskId: string): void {
    const before = this.queues.get(conversationId) ?? Promise.resolve();
    const next = before.then(() => this.runFollowUp(conversationId, taskId));
    this.queues.set(conversationId, next);
    void next.finally(() => {
      if (this.queues.get(conversationId) === next) this.queues.delete(conversationId);
    });
  }

  /** Waits for the running turn (the person's, or another follow-up) to end, then sends the result as a turn of its own, and waits for that. */
  private async runFollowUp(conversationId: string, taskId: string): Promise<void> {
    const { turns } = this.options;
    for (;;) {
      if (this.closed) return;
      const running = turns.turnDone(conversationId);
      if (running !== undefined) {
        await running;
        continue;
      }
      try {
        const conversation = await this.options.store.get(conversationId);
        // The person sent it themselves meanwhile.
        if (taskResultSent(conversation, taskId)) return;
        this.options.canStart?.(conversation);
        const handle = await turns.sendTaskResult(conversationId, taskId);
        await handle.done;
        return;
      } catch (error) {
        // Someone started a turn between the check and ours: wait for it.
        if (error instanceof HostError && error.code === 'CONFLICT' && turns.turnDone(conversationId) !== undefined)
          continue;
        this.options.log(
          'warning',
          `the follow-up for task ${taskId} in conversation ${conversationId} did not start: ${errorMessage(error)}; its result waits there to be sent`,
        );
        return;
      }
    }
  }
}
