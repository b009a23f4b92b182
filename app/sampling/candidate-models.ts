import { ANTHROPIC_PROVIDER_ID, splitModelKey } from '../../shared/domain/model-key';
import type { ModelRanks, ModelTier } from '../../shared/domain/model-ranks';
import type { CatalogModel } from '../settings/model-catalog';
import type { ConfiguredModel } from '../settings/model-table';

/**
 * A model sampling may use, from any provider. Ranks compare it with every
 * other candidate on one axis each, 1 = the best (cheapest, fastest, most
 * capable); ties allowed.
 */
export interface CandidateModel {
  /** The model key (shared/domain/model-key): a plain id for Anthropic, `<provider>:<model>` otherwise. */
  key: string;
  label: string;
  /** The provider's name as the person sees it ("Anthropic", "Ollama"). */
  providerLabel: string;
  tier: ModelTier;
  costRank: number;
  speedRank: number;
  intelligenceRank: number;
  /** False when the model cannot take tools (sampling requests with tools then skip it); unknown counts as yes. */
  supportsTools?: boolean;
  /** False when the model takes no images (a request with images then prefers another); unknown counts as yes. */
  takesImages?: boolean;
}

/**
 * Where sampling reads its candidates, on every request (so settings changes
 * apply at once). Today's source is the model table; the provider registry
 * supplies the same interface with every provider's models.
 */
export interface SamplingModels {
  list(): CandidateModel[];
  /** The person's default model key (it need not be in `list()`). */
  defaultKey(): string;
}

/** Display names of providers the model table may name before the registry knows them. */
const PROVIDER_LABELS: Readonly<Record<string, string>> = {
  [ANTHROPIC_PROVIDER_ID]: 'Anthropic',
  openai: 'OpenAI',
  ollama: 'Ollama',
  openrouter: 'OpenRouter',
  lmstudio: 'LM Studio',
};

/** A provider's display name from its id, for keys no registry has labelled. */
export function providerLabelOf(key: string): string {
  const { provider } = splitModelKey(key);
  return PROVIDER_LABELS[provider] ?? provider;
}

/** The person's own tier and ranks (Settings) over a candidate's defaults, by model key. */
export function withRankOverrides(
  models: readonly CandidateModel[],
  overrides: Readonly<Record<string, ModelRanks>>,
): CandidateModel[] {
  return models.map((model) => {
    const own = overrides[model.key];
    return own === undefined ? { ...model } : { ...model, ...own };
  });
}

/** A model of the model table as a candidate (the table's ids are model keys). */
export function candidateOf({
  id,
  label,
  tier,
  costRank,
  speedRank,
  intelligenceRank,
}: ConfiguredModel): CandidateModel {
  return { key: id, label, providerLabel: providerLabelOf(id), tier, costRank, speedRank, intelligenceRank };
}

/** A fixed list (a provider registry's snapshot, tests). */
export function fixedSamplingModels(models: readonly CandidateModel[], defaultKey: string): SamplingModels {
  return { list: () => models.map((model) => ({ ...model })), defaultKey: () => defaultKey };
}

/** The candidates from today's model table (settings.json `models`, else Berth's defaults), with the person's rank overrides. */
export function modelTableCandidates(source: {
  models(): ConfiguredModel[];
  defaultModel(): string;
  modelRanks(): Record<string, ModelRanks>;
}): SamplingModels {
  return {
    list: () => withRankOverrides(source.models().map(candidateOf), source.modelRanks()),
    defaultKey: () => source.defaultModel(),
  };
}

/**
 * Every provider's models whose provider is ready (has its key, or needs
 * none), with the person's rank overrides: what sampling chooses among once
 * providers are configured.
 */
export function catalogCandidates(source: {
  catalog(): CatalogModel[];
  defaultModel(): string;
  modelRanks(): Record<string, ModelRanks>;
}): SamplingModels {
  return {
    list: () =>
      withRankOverrides(
        source
          .catalog()
          .filter((model) => model.ready)
          .map(
            ({
              key,
              label,
              providerLabel,
              tier,
              costRank,
              speedRank,
              intelligenceRank,
              supportsTools,
              takesImages,
            }) => ({
              key,
              label,
              providerLabel,
              tier,
              costRank,
              speedRank,
              intelligenceRank,
              supportsTools,
              takesImages,
            }),
          ),
        source.modelRanks(),
      ),
    defaultKey: () => source.defaultModel(),
  };
}
