import { describe, expect, it } from 'vitest';
import { anthropicThinking, THINKING_BUDGETS, thinkingTokens } from './anthropic-thinking';

describe('anthropicThinking', () => {
  it('asks nothing without reasoning, or for a model that does not reason', () => {
    expect(anthropicThinking(undefined, 4096)).toEqual({});
    expect(anthropicThinking({ effort: 'high', support: 'none' }, 4096)).toEqual({});
  });

  it('gives current models adaptive thinking with the effort, and keeps the answer its room', () => {
    expect(anthropicThinking({ effort: 'medium', support: 'adaptive' }, 4096)).toEqual({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'medium' },
      max_tokens: 4096 + THINKING_BUDGETS.medium,
    });
  });

  it('gives older thinking models a budget of at least 1,024 tokens, below max_tokens', () => {
    for (const effort of ['low', 'medium', 'high'] as const) {
      const fields = anthropicThinking({ effort, support: 'budget' }, 1000);
      expect(fields.thinking).toEqual({ type: 'enabled', budget_tokens: THINKING_BUDGETS[effort] });
      expect(THINKING_BUDGETS[effort]).toBeGreaterThanOrEqual(1024);
      expect(fields.max_tokens).toBe(1000 + THINKING_BUDGETS[effort]);
      expect(fields).not.toHaveProperty('output_config');
    }
    expect(THINKING_BUDGETS.low).toBeLessThan(THINKING_BUDGETS.medium);
    expect(THINKING_BUDGETS.medium).toBeLessThan(THINKING_BUDGETS.high);
  });

  it('reads the thinking tokens from output_tokens_details', () => {
    expect(thinkingTokens({ output_tokens: 500, output_tokens_details: { thinking_tokens: 320 } })).toEqual({
      reasoningTokens: 320,
    });
    expect(thinkingTokens({ output_tokens: 500, output_tokens_details: null })).toEqual({});
    expect(thinkingTokens(undefined)).toEqual({});
  });
});
