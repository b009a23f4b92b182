import { z } from 'zod';
import { HostError } from '../../shared/result';
import { settingsIssueWords } from '../../shared/domain/settings-issue-words';
import { settingsError } from '../../shared/domain/settings-errors';
import type { ProviderModel } from '../../shared/domain/providers';
import { REASONING_SUPPORTS } from '../../shared/domain/reasoning';
import { DEFAULT_MODELS, MODEL_TIERS, type ConfiguredModel } from './model-table';

// Anthropic's models as settings.json keeps them (`models`): Berth's defaults
// until the person fetches the list from Anthropic's models endpoint or types
// ids in Settings → Model providers → Anthropic. Each keeps its tier and
// ranks for sampling's choice, and the same per-model switches as any other
// provider's models (tools, images).

/** A model no one ranked: in the middle of every axis until the person says otherwise. */
export const UNRANKED = 50;

const rank = z.number().int().min(1).max(100);

export const AnthropicModelSchema = z
  .object({
    id: z.string().trim().min(1).max(200),
    label: z.string().trim().min(1).max(200),
    tier: z.enum(MODEL_TIERS),
    costRank: rank,
    speedRank: rank,
    intelligenceRank: rank,
    contextWindow: z.number().int().min(1_000).max(100_000_000).optional(),
    /** Absent: yes (every Claude calls tools). */
    supportsTools: z.boolean().optional(),
    /** Absent: Berth's guess from the id (shared/domain/model-images.ts). */
    takesImages: z.boolean().optional(),
    /** From the models endpoint's capabilities; absent: Berth's table (shared/domain/reasoning.ts). */
    reasoning: z.enum(REASONING_SUPPORTS).optional(),
    /** From the models endpoint's capabilities: the API compacts the context itself. */
    contextManagement: z.boolean().optional(),
  })
  .strict();

export const AnthropicModelsSchema = z
  .array(AnthropicModelSchema)
  .min(1, 'list at least one model')
  .refine((models) => new Set(models.map((m) => m.id)).size === models.length, 'model ids must be unique');

/**
 * The models the person saved for Anthropic, as settings.json keeps them. What
 * the list leaves out (tier, ranks, name, context window) comes from the same
 * model in the current list or Berth's defaults, else the middle of each axis.
 * INVALID_INPUT (with the field path) for a list that cannot be kept.
 */
export function toAnthropicModels(
  models: readonly ProviderModel[],
  current: readonly ConfiguredModel[],
): ConfiguredModel[] {
  if (models.length === 0)
    throw HostError.coded('INVALID_INPUT', settingsError('settings-errors.no-anthropic-models', {}), 'changes.models');
  const known = new Map([...DEFAULT_MODELS, ...current].map((model) => [model.id, model]));
  const converted = models.map((model): ConfiguredModel => {
    const before = known.get(model.id);
    const contextWindow = model.contextWindow ?? before?.contextWindow;
    const reasoning = model.reasoning ?? before?.reasoning;
    const contextManagement = model.contextManagement ?? before?.contextManagement;
    return {
      id: model.id,
      label: model.label ?? before?.label ?? model.id,
      tier: model.tier ?? before?.tier ?? 'balanced',
      costRank: model.costRank ?? before?.costRank ?? UNRANKED,
      speedRank: model.speedRank ?? before?.speedRank ?? UNRANKED,
      intelligenceRank: model.intelligenceRank ?? before?.intelligenceRank ?? UNRANKED,
      // The models endpoint's max_input_tokens is always in the thousands; a smaller number is no context window.
      ...(contextWindow !== undefined && contextWindow >= 1_000 ? { contextWindow } : {}),
      ...(model.supportsTools === false ? { supportsTools: false } : {}),
      ...(model.takesImages !== undefined ? { takesImages: model.takesImages } : {}),
      // What the listing said; a typed id keeps what an earlier listing said of it.
      ...(reasoning !== undefined ? { reasoning } : {}),
      ...(contextManagement !== undefined ? { contextManagement } : {}),
    };
  });
  const parsed = AnthropicModelsSchema.safeParse(converted);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['changes', 'models', ...(issue?.path ?? [])].map(String).join('.');
    throw new HostError(
      'INVALID_INPUT',
      issue?.message ?? 'Those models are not valid',
      path,
      settingsIssueWords(parsed.error.issues)?.hostMessage,
    );
  }
  return parsed.data;
}
