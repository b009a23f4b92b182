// The model's reasoning (thinking): the levels a conversation can ask for, which models
// take them, and how a finished thought is titled. Zod-free: the composer's control and
// the thinking block on the first screen use it.

/** Off, or on with an effort. Anthropic: thinking with that effort; OpenAI-compatible: `reasoning_effort`. */
export const REASONING_LEVELS = ['off', 'low', 'medium', 'high'] as const;
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];
export type ReasoningEffort = Exclude<ReasoningLevel, 'off'>;

/** What a new conversation uses until the person picks: no thinking (it costs output tokens and time). */
export const DEFAULT_REASONING: ReasoningLevel = 'off';

/**
 * How a model takes reasoning. `adaptive`: Anthropic's adaptive thinking with `output_config.effort`;
 * `budget`: Anthropic's extended thinking with `budget_tokens`; `effort`: OpenAI-style `reasoning_effort`;
 * `none`: the model does not reason; `unknown`: Berth has no word on it. The control is hidden for both
 * (asking a model that does not reason is refused by most servers); reasoning such a model streams anyway
 * (a local model's `<think>`) is still shown and kept.
 */
export const REASONING_SUPPORTS = ['adaptive', 'budget', 'effort', 'none', 'unknown'] as const;
export type ReasoningSupport = (typeof REASONING_SUPPORTS)[number];

/** What a request asks for: an effort, and how the model takes it (LlmStreamRequest.reasoning). */
export interface ReasoningRequest {
  effort: ReasoningEffort;
  support: ReasoningSupport;
}

/** Whether the composer offers the reasoning control: only for models known to take it. */
export function offersReasoning(support: ReasoningSupport | undefined): boolean {
  return support === 'adaptive' || support === 'budget' || support === 'effort';
}

/** The request's reasoning for `level` on a model that takes it as `support`; undefined when off or it does not reason. */
export function reasoningRequest(level: ReasoningLevel, support: ReasoningSupport): ReasoningRequest | undefined {
  return level === 'off' || !offersReasoning(support) ? undefined : { effort: level, support };
}

/** The global defaults: the level of conversations left on the default, and whether servers' sampling may reason. */
export interface ReasoningDefaults {
  level: ReasoningLevel;
  /** Off by default: a server's request should not spend the person's tokens on thinking unless they allow it. */
  sampling: boolean;
}

/** Claude lines by generation: 4.6 and later think adaptively, 3.7 to 4.5 with a budget, older ones not at all. */
const CLAUDE_ADAPTIVE = [
  /^claude-(opus|sonnet|haiku)-4-([6-9]|\d\d)(?!\d)/,
  /^claude-(opus|sonnet|haiku|fable|mythos)-([5-9]|\d\d)/,
];
const CLAUDE_BUDGET = [/^claude-3-7-sonnet/, /^claude-(opus|sonnet|haiku)-4(-[0-5])?(?!\d)/];

/** OpenAI-compatible models known to reason (reasoning_effort, or reasoning_content / <think> in the reply). */
const REASONERS: readonly RegExp[] = [
  /^o[134](-|$)/,
  /^gpt-5/,
  /^gpt-oss/,
  /deepseek-(r1|reasoner)/,
  /^qwq/,
  /^qwen3/,
  /magistral/,
  /^grok-(3-mini|4)/,
  /phi-?4-(mini-)?reasoning/,
  /thinking/,
];

/**
 * How `modelId` of a provider takes reasoning: what the provider's model listing said (`listed`, Anthropic's
 * capabilities) first, else guessed from its id as the pickers guess vision (shared/domain/model-images.ts).
 * `anthropic`: the built-in provider (Claude ids).
 */
export function reasoningSupport(modelId: string, anthropic: boolean, listed?: ReasoningSupport): ReasoningSupport {
  if (listed !== undefined) return listed;
  const id = (modelId.split('/').at(-1) ?? modelId).trim().toLowerCase();
  if (anthropic || id.startsWith('claude-')) {
    if (CLAUDE_ADAPTIVE.some((pattern) => pattern.test(id))) return 'adaptive';
    if (CLAUDE_BUDGET.some((pattern) => pattern.test(id))) return 'budget';
    // A Claude Berth does not know is newer than its table: current models think adaptively.
    return /^claude-(3|2|instant)/.test(id) ? 'none' : 'adaptive';
  }
  return REASONERS.some((pattern) => pattern.test(id)) ? 'effort' : 'unknown';
}

/** "Thought for 12 s" (whole seconds, at least 1; minutes above 90 s). */
export function thoughtFor(durationMs: number): string {
  const seconds = Math.max(1, Math.round(durationMs / 1000));
  if (seconds <= 90) return `Thought for ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `Thought for ${minutes} min${rest === 0 ? '' : ` ${rest} s`}`;
}
