import type { ContextCut, Conversation } from '../../../shared/domain/chat';
import { MIN_COMPACT_TRIGGER } from '../../providers/anthropic-context';
import type { ApiCompaction, ApiContextManagement } from '../../providers/anthropic-context';
import { activeCut, messagesAfterCut } from './context-cut';

// The provider's own context management (Anthropic's server-side compaction) as a conversation uses it:
// asked for on models whose listing says they take it, with a trigger below the point where Berth would
// compact itself (context-keeper.ts ACT_AT), so the API acts first; the block it returns becomes the
// conversation's cut, shown as Berth's own compaction is, and is sent back first from then on.

/** The API compacts when the prompt passes this share of the room (window less the reply's max_tokens). */
export const API_COMPACT_AT = 0.75;

export interface ApiContextInput {
  conversation: Conversation;
  /** Whether the conversation's model takes the provider's context management (its listing says so). */
  takes: boolean;
  /** The model's window, when known. */
  window: number | undefined;
  maxTokens: number;
}

/**
 * What a request of `conversation` asks of the provider's context management; undefined when Berth manages the
 * context itself: the model does not take it, the person chose to drop or to be asked, or the room is too small
 * for the API's least trigger.
 */
export function apiContextManagement({
  conversation,
  takes,
  window,
  maxTokens,
}: ApiContextInput): ApiContextManagement | undefined {
  if (!takes || (conversation.contextPolicy ?? 'compact') !== 'compact') return undefined;
  const trigger = window === undefined ? undefined : Math.floor((window - maxTokens) * API_COMPACT_AT);
  if (trigger !== undefined && trigger < MIN_COMPACT_TRIGGER) return undefined;
  const compaction = apiCompactionOf(activeCut(conversation));
  return {
    ...(trigger !== undefined ? { triggerTokens: trigger } : {}),
    ...(compaction !== undefined ? { compaction } : {}),
  };
}

/** The block a cut made by the provider sends back; undefined for Berth's own cuts. */
export function apiCompactionOf(cut: ContextCut | undefined): ApiCompaction | undefined {
  if (cut?.api === undefined || cut.summary === undefined) return undefined;
  return { content: cut.summary, ...cut.api };
}

/** A provider's cut as Berth's own: its summary kept, its block no longer sent (the provider refused it). */
export function ownCut(cut: ContextCut): ContextCut {
  const own = { ...cut };
  delete own.api;
  return own;
}

/** The cut a reply's compaction makes: everything before the reply, summarised by the provider. */
export function apiCut(input: {
  conversation: Conversation;
  compaction: ApiCompaction;
  tokensBefore: number;
  tokensAfter: number;
}): ContextCut | undefined {
  const { conversation, compaction, tokensBefore, tokensAfter } = input;
  const through = conversation.messages.at(-1);
  if (through === undefined) return undefined;
  const before = activeCut(conversation);
  const { content, ...api } = compaction;
  return {
    kind: 'compact',
    throughMessageId: through.id,
    summary: content,
    createdAt: Date.now(),
    model: conversation.model,
    messageCount: (before?.messageCount ?? 0) + messagesAfterCut(conversation).length,
    tokensBefore: Math.max(0, Math.round(tokensBefore)),
    tokensAfter: Math.max(0, Math.round(tokensAfter)),
    api,
  };
}
