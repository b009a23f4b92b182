import { ANTHROPIC_PROVIDER_ID, modelKey } from '../../shared/domain/model-key';
import type { ModelOption, ProviderConfig } from '../../shared/domain/providers';
import { takesImages } from '../../shared/domain/model-images';
import { reasoningSupport, type ReasoningSupport } from '../../shared/domain/reasoning';
import { UNRANKED } from './anthropic-models';
import type { ConfiguredModel, ModelTier } from './model-table';

/** The built-in provider's name in pickers and Settings. */
export const ANTHROPIC_LABEL = 'Anthropic';

/**
 * Every model Berth may use, across providers: what the pickers offer and
 * what sampling chooses among. `key` is the model key a conversation keeps;
 * `model` is the provider's own id.
 */
export interface CatalogModel extends Omit<ConfiguredModel, 'id'> {
  key: string;
  provider: string;
  providerLabel: string;
  model: string;
  supportsTools: boolean;
  /** Images are sent to it; when not, each becomes a note and the chat says so. */
  takesImages: boolean;
  contextWindow?: number;
  /** The provider has its key (or needs none). */
  ready: boolean;
}

export function buildCatalog(
  anthropic: { models: readonly ConfiguredModel[]; ready: boolean },
  providers: ReadonlyArray<{ config: ProviderConfig; ready: boolean }>,
): CatalogModel[] {
  const builtIn = anthropic.models.map((model): CatalogModel => ({
    ...model,
    key: model.id,
    provider: ANTHROPIC_PROVIDER_ID,
    providerLabel: ANTHROPIC_LABEL,
    model: model.id,
    supportsTools: model.supportsTools ?? true,
    takesImages: takesImages(model),
    ready: anthropic.ready,
  }));
  const configured = providers.flatMap(({ config, ready }) =>
    config.models.map((model): CatalogModel => ({
      key: modelKey(config.id, model.id),
      provider: config.id,
      providerLabel: config.label,
      model: model.id,
      label: model.label ?? model.id,
      supportsTools: model.supportsTools,
      takesImages: takesImages(model),
      ...(model.contextWindow !== undefined ? { contextWindow: model.contextWindow } : {}),
      ...(model.reasoning !== undefined ? { reasoning: model.reasoning } : {}),
      tier: model.tier ?? ('balanced' satisfies ModelTier),
      costRank: model.costRank ?? UNRANKED,
      speedRank: model.speedRank ?? UNRANKED,
      intelligenceRank: model.intelligenceRank ?? UNRANKED,
      ready,
    })),
  );
  return [...builtIn, ...configured];
}

/** How a catalog model reasons: its provider's listing first, else Berth's table. */
export function catalogReasoning(model: CatalogModel): ReasoningSupport {
  return reasoningSupport(model.model, model.provider === ANTHROPIC_PROVIDER_ID, model.reasoning);
}

/** Whether requests to a catalog model use Anthropic's own context management (its listing said it compacts). */
export function apiContextManagement(model: CatalogModel): boolean {
  return model.provider === ANTHROPIC_PROVIDER_ID && model.contextManagement === true;
}

export function toModelOption(model: CatalogModel): ModelOption {
  return {
    id: model.key,
    label: model.label,
    provider: model.provider,
    providerLabel: model.providerLabel,
    supportsTools: model.supportsTools,
    ready: model.ready,
    reasoning: catalogReasoning(model),
  };
}
