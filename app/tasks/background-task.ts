import type { CallToolResult } from '@modelcontextprotocol/client';
import type { TaskRecord } from '../../shared/domain/task';

// A chat's tool call whose task does not finish soon goes on in the background:
// the model gets an answer at once and the turn ends; the task's result comes
// into the conversation when it finishes (app/chat/background-tasks.ts).

/**
 * How long a chat's tool call waits for its task before answering at once (time the task waits for the person's
 * answer not counted). Long enough that a task of a few seconds (a search, a build step; polled at 0.5–1 s) still
 * answers in the turn as a plain call would; short enough that the person is not left watching a turn they cannot
 * add to.
 */
export const BACKGROUND_TASK_AFTER_MS = 8_000;

/** Where a server puts what the model should read while its task runs (the tasks spec's CreateTaskResult `_meta`). */
export const IMMEDIATE_RESPONSE_META = 'io.modelcontextprotocol/model-immediate-response';

/** The longest immediate response Berth passes on: it is the server's words to the model, not a result. */
export const MAX_IMMEDIATE_RESPONSE = 4_000;

/** What the model reads when the server gave no immediate response of its own. */
export function berthImmediateText(taskId: string, server: string): string {
  return `The task ${taskId} started on ${server} and runs in the background; its result will come into the conversation when it finishes.`;
}

/** The answer a call in the background gives the model at once: the server's immediate response, else Berth's words. */
export function immediateAnswer(record: TaskRecord, serverText: string | undefined): CallToolResult {
  const text =
    serverText !== undefined && serverText.trim() !== ''
      ? serverText.slice(0, MAX_IMMEDIATE_RESPONSE)
      : berthImmediateText(record.taskId, record.server);
  return { content: [{ type: 'text', text }] };
}

/** The server's immediate response in a CreateTaskResult (either era), when it gave a string. */
export function immediateResponseOf(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const meta = (result as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const text = (meta as Record<string, unknown>)[IMMEDIATE_RESPONSE_META];
  return typeof text === 'string' ? text : undefined;
}

/** A task that went on in the background (or was picked up after a restart) has ended: its record, and its result or why none. */
export interface FinishedTask {
  /** The task's record as it ended (status completed, failed, cancelled or lost). */
  record: TaskRecord;
  result?: CallToolResult;
  /** Why there is no result, in words. */
  error?: string;
}
