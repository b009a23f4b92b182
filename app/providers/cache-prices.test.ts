import { describe, expect, it } from 'vitest';
import { anthropicUsage } from './llm-provider';
import { toLlmUsage } from './openai-translate-reply';
import { ANTHROPIC_CACHE_PRICES, cacheSavedTokens, OPENAI_CACHE_PRICES } from './cache-prices';

describe('what the prompt cache saved, in input tokens’ worth', () => {
  it('counts Anthropic reads at a tenth of the input price and writes at 1.25×, so a first write costs more', () => {
    expect(cacheSavedTokens({ cacheReadTokens: 10_000, cacheWriteTokens: 400 }, ANTHROPIC_CACHE_PRICES)).toBe(8_900);
    expect(cacheSavedTokens({ cacheReadTokens: 0, cacheWriteTokens: 4_000 }, ANTHROPIC_CACHE_PRICES)).toBe(-1_000);
    expect(cacheSavedTokens({}, ANTHROPIC_CACHE_PRICES)).toBeUndefined();
    expect(
      anthropicUsage({
        input_tokens: 5,
        output_tokens: 9,
        cache_read_input_tokens: 2_000,
        cache_creation_input_tokens: 100,
      }),
    ).toEqual({
      inputTokens: 5,
      outputTokens: 9,
      cacheReadTokens: 2_000,
      cacheWriteTokens: 100,
      cacheSavedTokens: 1_775,
    });
    // A provider that says nothing of a cache gets no saving either.
    expect(anthropicUsage({ input_tokens: 5, output_tokens: 9 })).toEqual({ inputTokens: 5, outputTokens: 9 });
  });

  it('counts OpenAI-compatible cached tokens at half the input price, and nothing without them', () => {
    expect(cacheSavedTokens({ cacheReadTokens: 1_024 }, OPENAI_CACHE_PRICES)).toBe(512);
    expect(
      toLlmUsage({
        prompt_tokens: 1_500,
        completion_tokens: 3,
        total_tokens: 1_503,
        prompt_tokens_details: { cached_tokens: 1_280 },
      }),
    ).toEqual({ inputTokens: 220, outputTokens: 3, cacheReadTokens: 1_280, cacheSavedTokens: 640 });
    expect(toLlmUsage({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 })).toEqual({
      inputTokens: 10,
      outputTokens: 3,
    });
  });
});
