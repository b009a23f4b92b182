import { isPersonMessage, isStoppedResult, messageText, STOPPED_BY_PERSON } from '../../../shared/domain/chat-text';
import type {
  ChatAttachment,
  ChatMessage,
  ChatTaskResultBlock,
  ChatThinkingBlock,
  ChatToolResultBlock,
  ChatToolUseBlock,
} from '../../../shared/domain/chat';
import type { LiveToolCall } from '../../store';
import type { Translate } from '../../i18n/use-t';

/** One tool call as the chat shows it: what the model asked, and what came back (once it did). */
export interface ToolCallItem {
  kind: 'tool-call';
  use: ChatToolUseBlock;
  result?: ChatToolResultBlock;
}

export type AssistantPart =
  { kind: 'text'; text: string } | { kind: 'thinking'; block: ChatThinkingBlock } | ToolCallItem;

/** A row of the message list. Tool results are folded into the call that caused them. */
export type TimelineItem =
  | { kind: 'person'; message: ChatMessage; text: string; attachments: ChatAttachment[]; isLast: boolean }
  | { kind: 'assistant'; message: ChatMessage; parts: AssistantPart[] }
  /**
   * A background task's end: its notice (`copy` false; `sent` once its result went to the model), or the copy the
   * person sent (`copy` true), which the model read as a message of theirs.
   */
  | { kind: 'task-result'; message: ChatMessage; block: ChatTaskResultBlock; sent: boolean; copy: boolean };

/** Builds the rows: person messages, and assistant messages with each tool call paired with its result. */
export function buildTimeline(messages: readonly ChatMessage[]): TimelineItem[] {
  const results = new Map<string, ChatToolResultBlock>();
  for (const message of messages) {
    for (const block of message.content) if (block.type === 'tool_result') results.set(block.toolUseId, block);
  }
  const sentTasks = new Set<string>();
  for (const message of messages)
    for (const block of message.content)
      if (block.type === 'task_result' && block.forModel === true) sentTasks.add(block.taskId);
  const lastPerson = messages.findLastIndex(isPersonMessage);
  const items: TimelineItem[] = [];
  messages.forEach((message, index) => {
    for (const block of message.content)
      if (block.type === 'task_result')
        items.push({
          kind: 'task-result',
          message,
          block,
          sent: sentTasks.has(block.taskId),
          copy: block.forModel === true,
        });
    if (message.role === 'user') {
      if (isPersonMessage(message)) {
        const attachments = message.content.flatMap((block) => (block.type === 'attachment' ? [block.attachment] : []));
        items.push({ kind: 'person', message, text: messageText(message), attachments, isLast: index === lastPerson });
      }
      return;
    }
    const parts: AssistantPart[] = [];
    for (const block of message.content) {
      if (block.type === 'text') parts.push({ kind: 'text', text: block.text });
      else if (block.type === 'thinking') parts.push({ kind: 'thinking', block });
      else if (block.type === 'tool_use') {
        const result = results.get(block.id);
        parts.push(result ? { kind: 'tool-call', use: block, result } : { kind: 'tool-call', use: block });
      }
    }
    // An answer with nothing in it still gets its row: it says so, and shows what the request used.
    if (parts.length > 0 || message.content.length === 0) items.push({ kind: 'assistant', message, parts });
  });
  return items;
}

/** What a tool-call card says about where the call is. */
export type ToolCallStatus =
  | 'awaiting-consent'
  | 'running'
  | 'waiting-answer'
  | 'waiting-result'
  | 'done'
  | 'error'
  | 'denied'
  | 'withdrawn'
  | 'stopped'
  | 'interrupted';

/**
 * The result a card shows: the saved one, or until it is saved (parallel calls are
 * saved together, after the slowest) the one its `tool-call-finished` event carried.
 */
export function shownResult(
  result: ChatToolResultBlock | undefined,
  live: LiveToolCall | undefined,
): ChatToolResultBlock | undefined {
  return result ?? live?.result;
}

/**
 * The result wins (saved or just finished, see `shownResult`); until there is one the
 * live events tell; with neither, the call never finished (the turn was stopped or Berth closed).
 */
export function toolCallStatus(
  result: ChatToolResultBlock | undefined,
  live: LiveToolCall | undefined,
  turnRunning: boolean,
): ToolCallStatus {
  if (result) {
    if (result.denied) return result.denied.byHost === true ? 'withdrawn' : 'denied';
    if (isStoppedResult(result)) return 'stopped';
    return result.isError ? 'error' : 'done';
  }
  if (live && turnRunning) {
    if (live.status === 'awaiting-consent') return 'awaiting-consent';
    // Its server asked the person something for it (tool-call-waiting): the call stands still until they answer.
    if (live.status === 'running') return live.waitingFor !== undefined ? 'waiting-answer' : 'running';
    return 'waiting-result';
  }
  return turnRunning ? 'waiting-result' : 'interrupted';
}

/** Progress as a 0…1 fraction when the server gave a total; undefined means “indeterminate”. */
export function progressFraction(progress: LiveToolCall['progress']): number | undefined {
  if (!progress || progress.total === undefined || progress.total <= 0) return undefined;
  return Math.min(1, Math.max(0, progress.progress / progress.total));
}

/** Words for a finished turn that did not simply end. */
export function stopReasonNote(stopReason: string | undefined, t: Translate): string | undefined {
  switch (stopReason) {
    case undefined:
    case 'end_turn':
    case 'tool_use':
    case 'stop_sequence':
      return undefined;
    case STOPPED_BY_PERSON:
      return t('chat.stop.byYou');
    case 'max_tokens':
      return t('chat.stop.maxTokens');
    case 'refusal':
      return t('chat.stop.refusal');
    case 'pause_turn':
      return t('chat.stop.paused');
    default:
      return t('chat.stop.other', { reason: stopReason });
  }
}
