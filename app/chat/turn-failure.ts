import { HostError } from '../../shared/result';
import type { HostMessage } from '../../shared/domain/host-message';
import { conversationError } from '../../shared/domain/conversation-errors';
import { errorMessage } from '../../shared/error-message';
import { LlmError } from '../providers/llm-provider';
import { ContextFullError } from './context/context-keeper';

/** A failed turn's words for the person: the English, and its code when the failure has one (chat-error.*, any HostError's). */
export function failureOf(error: unknown): { message: string; hostMessage?: HostMessage } {
  const hostMessage =
    error instanceof LlmError || error instanceof ContextFullError || error instanceof HostError
      ? error.hostMessage
      : undefined;
  return { message: errorMessage(error), ...(hostMessage !== undefined ? { hostMessage } : {}) };
}

/** The provider's own words in a failed call (its error message), else the whole English of the failure. */
export function providerDetail(error: unknown): string {
  const detail = error instanceof LlmError ? error.hostMessage?.params?.detail : undefined;
  return typeof detail === 'string' ? detail : errorMessage(error);
}

/** Continue was asked in a conversation that does not end with an unfinished reply. */
export function unfinishedReplyMissing(): HostError {
  return HostError.coded('INVALID_INPUT', conversationError('conversation-errors.nothing-to-continue', {}));
}
