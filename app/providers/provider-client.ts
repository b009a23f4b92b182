import type { LlmProvider } from './llm-provider';
import type { ModelTier } from '../../shared/domain/model-ranks';
import type { ReasoningSupport } from '../../shared/domain/reasoning';

// The seam every model provider sits behind. The chat engine and sampling
// only ever see LlmProvider (Anthropic-shaped messages and tools, the same
// LlmError kinds); a provider of another API translates both ways inside its
// client. Settings use the two extra calls to list models and test the
// connection.

/** A model as the provider lists it. */
export interface ProviderModelInfo {
  /** The provider's own id (what its API takes), not the model key. */
  id: string;
  /** A display name when the provider gives one. */
  label?: string;
  /** Context window in tokens, when the provider says. */
  contextWindow?: number;
  /** Whether the model takes images, when the provider says (Anthropic's capabilities). */
  takesImages?: boolean;
  /** A tier from the provider's model line (Anthropic), when it gives one. */
  tier?: ModelTier;
  /** How the model reasons, when the provider says (Anthropic's capabilities; anthropic-capabilities.ts). */
  reasoning?: ReasoningSupport;
  /** Whether the provider compacts the model's context itself, when it says (Anthropic's context_management). */
  contextManagement?: boolean;
}

export interface ProviderClient extends LlmProvider {
  /**
   * The provider's models (`GET /v1/models` for OpenAI-compatible servers,
   * Anthropic's models endpoint). Rejects with an LlmError whose message says
   * exactly what is wrong (nothing listening, key rejected…).
   */
  listModels(signal?: AbortSignal): Promise<ProviderModelInfo[]>;
  /**
   * "Test connection": reaches the provider with the key; with `model`, also
   * checks that model exists there. Resolves when all is well, else rejects
   * with an LlmError in words a person can act on.
   */
  check(options?: { model?: string; signal?: AbortSignal }): Promise<void>;
}
