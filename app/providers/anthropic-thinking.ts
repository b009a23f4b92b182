import type Anthropic from '@anthropic-ai/sdk';
import type { OutputConfig, ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import type { ReasoningEffort, ReasoningRequest } from '../../shared/domain/reasoning';

// How a reasoning level becomes Anthropic's request fields. Models from Claude 4.6 on think
// adaptively (`thinking: {type: 'adaptive'}` with `output_config.effort`); Claude 3.7 to 4.5 take
// extended thinking with a token budget (at least 1,024, and below max_tokens). Thinking counts
// toward max_tokens either way, so the budget is added on top: the answer keeps the room it had.

/** Thinking tokens per effort (Anthropic's minimum is 1,024; its docs start at 1,024–16k and go up for hard tasks). */
export const THINKING_BUDGETS: Readonly<Record<ReasoningEffort, number>> = { low: 2_048, medium: 8_192, high: 24_576 };

export interface AnthropicThinkingFields {
  thinking?: ThinkingConfigParam;
  output_config?: OutputConfig;
  max_tokens?: number;
}

/** The request fields for `reasoning` on a reply of `maxTokens`; none when no reasoning is asked for. */
export function anthropicThinking(reasoning: ReasoningRequest | undefined, maxTokens: number): AnthropicThinkingFields {
  if (reasoning === undefined || reasoning.support === 'none') return {};
  const budget = THINKING_BUDGETS[reasoning.effort];
  if (reasoning.support === 'budget')
    return { thinking: { type: 'enabled', budget_tokens: budget }, max_tokens: maxTokens + budget };
  // Adaptive is the API's way for current models (and a Claude Berth does not know is newer than its table).
  return {
    thinking: { type: 'adaptive' },
    output_config: { effort: reasoning.effort },
    max_tokens: maxTokens + budget,
  };
}

/** The reasoning share of Anthropic's output tokens, where the usage says (`output_tokens_details.thinking_tokens`). */
export function thinkingTokens(usage: Partial<Anthropic.Usage> | undefined): { reasoningTokens?: number } {
  const value = usage?.output_tokens_details?.thinking_tokens;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? { reasoningTokens: Math.floor(value) } : {};
}
