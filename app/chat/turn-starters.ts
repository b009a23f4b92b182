import { randomUUID } from 'node:crypto';
import { HostError } from '../../shared/result';
import { conversationError } from '../../shared/domain/conversation-errors';
import { isPersonMessage } from '../../shared/domain/chat';
import type { ChatAttachment, ChatContentBlock, ChatMessage, Conversation } from '../../shared/domain/chat';
import { historyKeepingNotices, taskResultTurn } from './task-result-message';
import type { ConversationStore } from './conversation-store';
import { unfinishedReplyMissing } from './turn-failure';

/**
 * Reshapes a conversation before a turn runs (drops the replies a retry replaces, takes a failed message out) and
 * gives the messages the turn starts with. Runs once the turn is claimed; a throw (HostError) starts nothing.
 */
export type PrepareTurn = (conversation: Conversation) => Promise<ChatMessage[]>;

/**
 * The ways a person starts a turn — send, retry, edit, compact and retry, continue, send a task's result — each as
 * the reshaping it does first. The engine claims the turn, runs the preparation, then the loop.
 */
export class TurnStarters {
  constructor(private readonly store: ConversationStore) {}

  /** A new message from the person, on `model` when they picked another. Refuses an empty message at once. */
  send(conversationId: string, text: string, options: { model?: string; attachments?: ChatAttachment[] }): PrepareTurn {
    const attachments = options.attachments ?? [];
    if (text.trim() === '' && attachments.length === 0)
      throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.message-empty', {}), 'text');
    return async (conversation) => {
      if (options.model !== undefined && options.model !== conversation.model)
        await this.store.updateSettings(conversationId, { model: options.model });
      return [personMessage(text, attachments)];
    };
  }

  /**
   * The last message the person wrote again, every reply after it dropped. With `messageId`, a message that failed
   * earlier (others came after it) is sent again as the newest one: moved to the end, its mark cleared.
   */
  retry(conversationId: string, messageId?: string): PrepareTurn {
    return async (conversation) => {
      const failed = messageId === undefined ? undefined : failedMessage(conversation, messageId);
      if (failed !== undefined && failed.index !== conversation.messages.findLastIndex(isPersonMessage)) {
        await this.store.replaceMessages(
          conversationId,
          conversation.messages.filter((message) => message.id !== messageId),
        );
        const { failed: _cleared, ...message } = failed.message;
        return [{ ...message, createdAt: Date.now() }];
      }
      await this.retryLast(conversation);
      return [];
    };
  }

  /** The last message the person wrote again, after the engine made room (the turn is started with forceCompact). */
  compactAndRetry(): PrepareTurn {
    return async (conversation) => {
      await this.retryLast(conversation);
      return [];
    };
  }

  /**
   * The last message the person wrote (and everything after it) replaced by `text`. With `messageId`, a message that
   * failed earlier (others came after it) is taken out and `text` sent as the newest message.
   */
  editAndResend(conversationId: string, text: string, messageId?: string): PrepareTurn {
    if (text.trim() === '')
      throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.edit-empty', {}), 'text');
    return async (conversation) => {
      const failed = messageId === undefined ? undefined : failedMessage(conversation, messageId);
      if (failed !== undefined && failed.index !== conversation.messages.findLastIndex(isPersonMessage)) {
        await this.store.replaceMessages(
          conversationId,
          conversation.messages.filter((message) => message.id !== messageId),
        );
        return [personMessage(text)];
      }
      const index = conversation.messages.findLastIndex(isPersonMessage);
      if (index === -1)
        throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.nothing-to-edit', {}));
      await this.store.replaceMessages(conversationId, historyKeepingNotices(conversation.messages, index));
      return [personMessage(text)];
    };
  }

  /**
   * An earlier message of the person's `messageId` edited: the conversation branches there. What followed it is kept
   * as the other version of that position (switchable back), and `text` (with the message's attachments) starts the
   * new one.
   */
  editAt(conversationId: string, messageId: string, text: string): PrepareTurn {
    if (text.trim() === '')
      throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.edit-empty', {}), 'text');
    return async (conversation) => {
      const message = conversation.messages.find((candidate) => candidate.id === messageId);
      if (message === undefined || !isPersonMessage(message))
        throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.not-editable', {}), 'messageId');
      await this.store.branchAt(conversationId, messageId);
      return [personMessage(text, attachmentsOf(message))];
    };
  }

  /**
   * The model's reply `messageId` written again: a new version at its position (the reply and what followed it kept
   * as the earlier one). The model it is written with is the turn's (ActiveTurn.model), not saved with the conversation.
   */
  regenerate(conversationId: string, messageId: string): PrepareTurn {
    return async (conversation) => {
      const message = conversation.messages.find((candidate) => candidate.id === messageId);
      if (message?.role !== 'assistant')
        throw HostError.coded(
          'INVALID_INPUT',
          conversationError('conversation-errors.not-regenerable', {}),
          'messageId',
        );
      await this.store.branchAt(conversationId, messageId);
      return [];
    };
  }

  /** A background task's result (its notice in the conversation) as a new user turn; once only (taskResultTurn). */
  taskResult(taskId: string): PrepareTurn {
    return async (conversation) => [taskResultTurn(conversation, taskId)];
  }

  /** Nothing new: the turn goes on from the unfinished reply that must end the conversation (stopped or cut off). */
  continueReply(): PrepareTurn {
    return async (conversation) => {
      if (conversation.messages.at(-1)?.partial === undefined) throw unfinishedReplyMissing();
      return [];
    };
  }

  /** Drops every reply after the last message the person wrote, and its failed mark: it is sent again as it was. */
  private async retryLast(conversation: Conversation): Promise<void> {
    const index = conversation.messages.findLastIndex(isPersonMessage);
    if (index === -1)
      throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.nothing-to-retry', {}));
    const last = conversation.messages[index];
    if (index === conversation.messages.length - 1 && last?.failed === undefined) return;
    const kept = historyKeepingNotices(conversation.messages, index + 1).map((message, at) => {
      if (at !== index || message.failed === undefined) return message;
      const { failed: _cleared, ...rest } = message;
      return rest;
    });
    await this.store.replaceMessages(conversation.id, kept);
  }
}

function personMessage(text: string, attachments: ChatAttachment[] = []): ChatMessage {
  const content: ChatContentBlock[] = attachments.map((attachment) => ({ type: 'attachment', attachment }));
  if (text.trim() !== '') content.push({ type: 'text', text });
  return { id: randomUUID(), role: 'user', createdAt: Date.now(), content };
}

function attachmentsOf(message: ChatMessage): ChatAttachment[] {
  return message.content.flatMap((block) => (block.type === 'attachment' ? [block.attachment] : []));
}

/** The person's failed message `messageId`, or a clear refusal (another message is not retried this way). */
function failedMessage(conversation: Conversation, messageId: string): { message: ChatMessage; index: number } {
  const index = conversation.messages.findIndex((message) => message.id === messageId);
  const message = conversation.messages[index];
  if (message === undefined || message.failed === undefined || !isPersonMessage(message))
    throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.not-failed', {}));
  return { message, index };
}
