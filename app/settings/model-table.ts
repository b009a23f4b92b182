import type { ModelTier } from '../../shared/domain/model-ranks';
import type { ReasoningSupport } from '../../shared/domain/reasoning';

export { MODEL_TIERS, type ModelTier } from '../../shared/domain/model-ranks';

/**
 * A model Berth may use. Ranks compare models on one axis each, with
 * 1 = the best on that axis (cheapest, fastest, most capable); ties allowed.
 */
export interface ConfiguredModel {
  id: string;
  label: string;
  tier: ModelTier;
  costRank: number;
  speedRank: number;
  intelligenceRank: number;
  /** Context window in tokens, for the warning when tool definitions take too much of it; undefined: unknown, no such warning. */
  contextWindow?: number;
  /** False for a model marked as calling no tools (absent: it does). */
  supportsTools?: boolean;
  /** Whether images are sent to it (absent: Berth's guess from its id, shared/domain/model-images.ts). */
  takesImages?: boolean;
  /** How it reasons, as the models endpoint said (absent: Berth's table, shared/domain/reasoning.ts). */
  reasoning?: ReasoningSupport;
  /** The API compacts its context itself, as the models endpoint said (absent: no; Berth compacts). */
  contextManagement?: boolean;
}

/**
 * Claude models' standard context window (200K tokens; some take 1M with a beta header Berth does
 * not send). The models endpoint reports each model's `max_input_tokens` where a live list is read.
 */
export const ANTHROPIC_CONTEXT_WINDOW = 200_000;

/**
 * The models Berth offers until settings.json says otherwise: Anthropic's
 * current line-up (models overview: Fable 5.1, Opus 5, Sonnet 5, Haiku 4.5;
 * the installed SDK warns that Sonnet 4.5 is deprecated). Ranks compare them
 * on each axis (1 = cheapest / fastest / most capable), from the published
 * prices and latencies, so sampling can map a server's cost / speed /
 * intelligence priorities onto them.
 */
export const DEFAULT_MODELS: readonly ConfiguredModel[] = [
  {
    id: 'claude-sonnet-5',
    label: 'Claude Sonnet 5',
    tier: 'balanced',
    costRank: 2,
    speedRank: 2,
    intelligenceRank: 3,
    contextWindow: ANTHROPIC_CONTEXT_WINDOW,
  },
  {
    id: 'claude-opus-5',
    label: 'Claude Opus 5',
    tier: 'smart',
    costRank: 3,
    speedRank: 3,
    intelligenceRank: 2,
    contextWindow: ANTHROPIC_CONTEXT_WINDOW,
  },
  {
    id: 'claude-fable-5-1',
    label: 'Claude Fable 5.1',
    tier: 'smart',
    costRank: 4,
    speedRank: 4,
    intelligenceRank: 1,
    contextWindow: ANTHROPIC_CONTEXT_WINDOW,
  },
  {
    id: 'claude-haiku-4-5',
    label: 'Claude Haiku 4.5',
    tier: 'fast',
    costRank: 1,
    speedRank: 1,
    intelligenceRank: 4,
    contextWindow: ANTHROPIC_CONTEXT_WINDOW,
  },
];

/** "The best combination of speed and intelligence" for everyday chat. */
export const DEFAULT_MODEL_ID = 'claude-sonnet-5';
