// What the prompt cache costs next to plain input, per provider, as a factor of the input price.
// Anthropic: a read is 0.1×, a write (5-minute entry) 1.25×. OpenAI: cached input is 0.5× to 0.1×
// by model and writing is free; Berth counts the smallest discount, 0.5×, so it never claims more
// than was saved (local servers such as Ollama charge nothing either way).

export interface CachePrices {
  read: number;
  write: number;
}

/** The cache counts of a usage (LlmUsage's). */
export interface CacheCounts {
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

export const ANTHROPIC_CACHE_PRICES: CachePrices = { read: 0.1, write: 1.25 };
export const OPENAI_CACHE_PRICES: CachePrices = { read: 0.5, write: 1 };

/**
 * What the cache saved on one request, in input tokens' worth: the reads' discount minus the
 * writes' surcharge (negative when a request wrote more than it read). undefined without cache counts.
 */
export function cacheSavedTokens(usage: CacheCounts, prices: CachePrices): number | undefined {
  if (usage.cacheReadTokens === undefined && usage.cacheWriteTokens === undefined) return undefined;
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  return Math.round(read * (1 - prices.read) - write * (prices.write - 1));
}

/** The usage with what the cache saved, at these prices, where it reported cache counts. */
export function withCacheSaving<T extends CacheCounts>(
  usage: T,
  prices: CachePrices,
): T & { cacheSavedTokens?: number } {
  const saved = cacheSavedTokens(usage, prices);
  return saved === undefined ? usage : { ...usage, cacheSavedTokens: saved };
}
