// What model requests cost, summed per turn and per conversation. Without zod, like
// chat-text.ts: the chat screen (first screen) uses these helpers.
import { isPersonMessage } from './chat-text';

/**
 * A ChatUsage (./chat), written out so this file needs no schema. As LlmUsage: `inputTokens` is the
 * prompt outside the provider's cache; the whole prompt adds the cache reads and writes (promptTokens).
 */
export interface UsageLike {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
  /** Input tokens' worth the cache saved (negative: writing cost more than reading saved). */
  readonly cacheSavedTokens?: number;
  readonly toolTokensEstimate?: number;
  readonly cappedTokensEstimate?: number;
  readonly toolTokensFullEstimate?: number;
  readonly reasoningTokens?: number;
  readonly requests?: number;
}

/** The parts of a ChatMessage the sums read. */
interface MessageLike {
  readonly id: string;
  readonly role: 'user' | 'assistant';
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  readonly usage?: UsageLike;
}

/**
 * Characters per token of Berth's estimate. Providers count with their own tokenizers (Anthropic's
 * count_tokens needs the network); about 4 characters of English or JSON per token is the usual
 * rule of thumb, so the estimate is said to be one wherever it is shown.
 */
export const CHARS_PER_TOKEN = 4;

/** About how many tokens `text` is (see CHARS_PER_TOKEN). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The whole prompt a request (or a turn) sent: uncached input plus what was read from and written to the cache. */
export function promptTokens(usage: UsageLike): number {
  return usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The usages added up; an optional count appears when any usage had it. undefined for none. */
export function sumUsage(usages: Iterable<UsageLike>): UsageLike | undefined {
  let total: Mutable<UsageLike> | undefined;
  for (const usage of usages) {
    total ??= { inputTokens: 0, outputTokens: 0, requests: 0 };
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    total.requests = (total.requests ?? 0) + (usage.requests ?? 1);
    if (usage.cacheReadTokens !== undefined)
      total.cacheReadTokens = (total.cacheReadTokens ?? 0) + usage.cacheReadTokens;
    if (usage.cacheWriteTokens !== undefined)
      total.cacheWriteTokens = (total.cacheWriteTokens ?? 0) + usage.cacheWriteTokens;
    if (usage.cacheSavedTokens !== undefined)
      total.cacheSavedTokens = (total.cacheSavedTokens ?? 0) + usage.cacheSavedTokens;
    if (usage.toolTokensEstimate !== undefined)
      total.toolTokensEstimate = (total.toolTokensEstimate ?? 0) + usage.toolTokensEstimate;
    if (usage.reasoningTokens !== undefined)
      total.reasoningTokens = (total.reasoningTokens ?? 0) + usage.reasoningTokens;
    if (usage.cappedTokensEstimate !== undefined)
      total.cappedTokensEstimate = (total.cappedTokensEstimate ?? 0) + usage.cappedTokensEstimate;
    // A request tool search did not narrow counts its sent definitions as the full ones, so the sum's difference is only what was saved.
    if (usage.toolTokensFullEstimate !== undefined || total.toolTokensFullEstimate !== undefined) {
      const before = total.toolTokensFullEstimate ?? (total.toolTokensEstimate ?? 0) - (usage.toolTokensEstimate ?? 0);
      total.toolTokensFullEstimate = before + (usage.toolTokensFullEstimate ?? usage.toolTokensEstimate ?? 0);
    }
  }
  return total;
}

/**
 * Each turn's usage (every model request of one reply, tool rounds included), keyed by the id of
 * the turn's last assistant message: where the answer ends, and where its cost is shown.
 */
export function turnUsages(messages: readonly MessageLike[]): Map<string, UsageLike> {
  const byTurn = new Map<string, UsageLike>();
  let lastAssistant: string | undefined;
  let usages: UsageLike[] = [];
  const close = () => {
    const total = sumUsage(usages);
    if (lastAssistant !== undefined && total !== undefined) byTurn.set(lastAssistant, total);
    lastAssistant = undefined;
    usages = [];
  };
  for (const message of messages) {
    if (isPersonMessage(message)) close();
    else if (message.role === 'assistant') {
      lastAssistant = message.id;
      if (message.usage !== undefined) usages.push(message.usage);
    }
  }
  close();
  return byTurn;
}

/** The whole conversation's usage; undefined when no saved reply reported any. */
export function conversationUsage(messages: readonly MessageLike[]): UsageLike | undefined {
  return sumUsage(
    messages.flatMap((message) => (message.role === 'assistant' && message.usage !== undefined ? [message.usage] : [])),
  );
}

/** Estimated definition tokens tool search kept out of the requests (0 when it was not on). */
export function toolSearchSaved(usage: UsageLike): number {
  return usage.toolTokensFullEstimate === undefined
    ? 0
    : Math.max(0, usage.toolTokensFullEstimate - (usage.toolTokensEstimate ?? 0));
}
