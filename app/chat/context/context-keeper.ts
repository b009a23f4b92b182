import type { ContextCut, Conversation } from '../../../shared/domain/chat';
import type { LlmProvider, LlmStreamRequest, LlmUsage } from '../../providers/llm-provider';
import type { ConversationStore } from '../conversation-store';
import { activeCut, cutPreface, messagesAfterCut } from './context-cut';
import { planCut } from './context-planner';
import { SUMMARY_MAX_TOKENS, summarise } from './compactor';
import { partsTotal, rawRequestParts } from '../../providers/token-estimate';
import type { ApiCompaction } from '../../providers/anthropic-context';
import { apiCut } from './api-compaction';
import type { TokenEstimator } from '../../providers/token-estimate';
import { chatError } from '../../../shared/domain/chat-error';
import { chatNotice } from '../../../shared/domain/chat-notice';
import type { HostMessage } from '../../../shared/domain/host-message';
import type { Worded } from '../../../shared/domain/host-wording';

// Before each model request of a conversation: will it fit the model's window? When it would not,
// Berth acts as the person chose for the conversation (its contextPolicy): compact the oldest turns
// into a summary by the conversation's own model (the default), leave them out (drop), or stop and ask.

/** Act when the estimate reaches this share of the room (window less the reply's max_tokens): the estimate is one. */
export const ACT_AT = 0.95;
/** A compaction brings the request down to this share of the window, so the next turns have room before another. */
export const COMPACT_TO = 0.5;
/** Dropping leaves more of the conversation: down to this share. */
export const DROP_TO = 0.7;

/** The request would not fit and Berth may not (or cannot) make it fit: the turn ends with this, and the chat offers Compact and retry. */
export class ContextFullError extends Error {
  /** The message as a code and parameters (chat-error.context-*), for the renderer to word. */
  readonly hostMessage: HostMessage;
  constructor({ text, message }: Worded) {
    super(text);
    this.name = 'ContextFullError';
    this.hostMessage = message;
  }
}

export interface ContextKeeperOptions {
  store: ConversationStore;
  provider: LlmProvider;
  tokens: TokenEstimator;
  contextWindow: (model: string) => number | undefined;
  /** How messages name a model key. */
  modelName: (model: string) => string;
}

export interface FitInput {
  conversation: Conversation;
  /** The request as it would go for a conversation (cut or not). */
  build: (conversation: Conversation) => LlmStreamRequest;
  /**
   * Make room now, whatever the estimate says: the provider refused the request as too long, or
   * the person asked (Compact and retry). The person's choice of drop is kept; ask becomes compact.
   */
  force?: boolean;
  signal?: AbortSignal;
  /** Told what was done, in words for the chat (and as a code). */
  notify: (notice: Worded) => void;
  /** The summary requests' usage. */
  onUsage?: (usage: LlmUsage) => void;
}

/** What fit decided: the conversation to send, and its request when it is the one fit measured (nothing was cut). */
export interface FitResult {
  conversation: Conversation;
  request?: LlmStreamRequest;
}

export class ContextKeeper {
  constructor(private readonly options: ContextKeeperOptions) {}

  /**
   * The provider compacted the conversation itself while answering `request` (Anthropic's context management,
   * api-compaction.ts): its summary becomes the conversation's cut, shown as Berth's own and sent back first from
   * now on. `promptAfter`: the compacted prompt, as the provider counted it.
   */
  async adoptApiCompaction(input: {
    conversation: Conversation;
    request: LlmStreamRequest;
    compaction: ApiCompaction;
    promptAfter: number;
    notify: (notice: Worded) => void;
  }): Promise<void> {
    const { conversation, request, compaction, promptAfter, notify } = input;
    const { tokens } = this.options;
    const before = tokens.request(conversation.model, request, conversation.id);
    const cut = apiCut({ conversation, compaction, tokensBefore: before, tokensAfter: promptAfter });
    if (cut === undefined) return;
    // The anchor described the uncut conversation; the next request is estimated afresh.
    tokens.forget(conversation.id);
    await this.options.store.updateSettings(conversation.id, { contextCut: cut });
    notify(
      chatNotice('chat-notice.api-compacted', {
        before,
        messages: cut.messageCount,
        model: this.options.modelName(conversation.model),
        after: promptAfter,
      }),
    );
  }

  /**
   * The conversation as its next request should be built: with a new cut when one was needed. When nothing was cut,
   * the request it measured comes with it, so the caller sends that one instead of building it again.
   */
  async fit({ conversation, build, force = false, signal, notify, onUsage }: FitInput): Promise<FitResult> {
    const { model } = conversation;
    const { tokens } = this.options;
    const request = build(conversation);
    const estimate = tokens.request(model, request, conversation.id);
    const window = this.options.contextWindow(model);
    const room = window === undefined ? undefined : window - request.maxTokens;
    if (!force && (room === undefined || estimate <= room * ACT_AT)) return { conversation, request };
    const policy = conversation.contextPolicy ?? 'compact';
    const name = this.options.modelName(model);
    if (policy === 'ask' && !force)
      throw new ContextFullError(
        chatError('chat-error.context-full-ask', { model: name, estimate, window: window ?? 0 }),
      );
    const kind = policy === 'drop' ? 'drop' : 'compact';
    // Without a known window, a refusal still says the request was too big: aim at half of it.
    const base = window ?? estimate;
    const target = Math.floor((kind === 'compact' ? COMPACT_TO : DROP_TO) * base);

    const messages = messagesAfterCut(conversation);
    const parts = tokens.parts(model, request);
    const fixed = parts.tools + parts.system;
    const raw = messages.map((message) => partsTotal(rawRequestParts({ messages: [message] })));
    const rawSum = raw.reduce((sum, value) => sum + value, 0);
    // Scaled so the messages add up to the request's own estimate of them (results as cut for the model, the preface).
    const scale = rawSum === 0 ? 0 : Math.max(0, estimate - fixed) / rawSum;
    const messageTokens = raw.map((value) => value * scale);
    const reserve = kind === 'compact' ? SUMMARY_MAX_TOKENS : 100;
    const plan = planCut(messages, messageTokens, fixed + reserve, target);
    if (plan === undefined)
      throw new ContextFullError(
        window === undefined
          ? chatError('chat-error.context-message-too-big', { model: name, estimate })
          : chatError('chat-error.context-message-too-big-window', { model: name, estimate, window }),
      );
    const left = messages.slice(0, plan.through + 1);
    const before = activeCut(conversation);
    const summary =
      kind === 'compact'
        ? await summarise({
            provider: this.options.provider,
            model,
            messages: left,
            earlier: before?.summary ?? (before !== undefined ? cutPreface(before) : undefined),
            maxChars: Math.max(
              8_000,
              Math.floor((base - SUMMARY_MAX_TOKENS - fixed) * 0.6 * tokens.charsPerToken(model)),
            ),
            signal,
            onUsage,
          })
        : undefined;
    const through = left.at(-1);
    if (through === undefined) return { conversation, request };
    const draft: ContextCut = {
      kind,
      throughMessageId: through.id,
      ...(summary !== undefined ? { summary } : {}),
      createdAt: Date.now(),
      model,
      messageCount: (before?.messageCount ?? 0) + left.length,
      tokensBefore: estimate,
      tokensAfter: 0,
    };
    // The anchor described the uncut conversation; the cut one is estimated afresh.
    tokens.forget(conversation.id);
    const after = tokens.request(model, build({ ...conversation, contextCut: draft }));
    const cut = { ...draft, tokensAfter: after };
    const saved = await this.options.store.updateSettings(conversation.id, { contextCut: cut });
    const facts = { before: estimate, messages: cut.messageCount, model: name, after };
    notify(chatNotice(kind === 'compact' ? 'chat-notice.compacted' : 'chat-notice.dropped', facts));
    if (room !== undefined && after > room)
      throw new ContextFullError(
        chatError('chat-error.context-still-full', { model: name, after, window: window ?? 0, cut: kind }),
      );
    return { conversation: saved };
  }
}
