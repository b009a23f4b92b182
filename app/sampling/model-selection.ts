import type { ConfiguredModel, ModelTier } from '../settings/model-table';

/** The MCP `modelPreferences` (structurally; the SDK type is deprecated in 2026-07-28). */
export interface ModelPreferencesInput {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** The chosen model id, and one sentence a person can read. */
export interface ModelSelection {
  model: string;
  explanation: string;
  /** The hint that decided, if one did. */
  matchedHint?: string;
}

/**
 * Family words in hints written for any provider, mapped onto tiers: the spec
 * lets a client map e.g. `gemini-1.5-flash` to its own fast model.
 */
const FAMILY_TIERS: Readonly<Record<string, ModelTier>> = {
  haiku: 'fast',
  flash: 'fast',
  mini: 'fast',
  nano: 'fast',
  lite: 'fast',
  instant: 'fast',
  small: 'fast',
  turbo: 'fast',
  sonnet: 'balanced',
  medium: 'balanced',
  opus: 'smart',
  pro: 'smart',
  ultra: 'smart',
  large: 'smart',
};

/** Provider family names that select among that provider's models without implying a tier. */
const PROVIDER_FAMILIES = ['claude'];

type Axis = 'cost' | 'speed' | 'intelligence';
const AXES: readonly Axis[] = ['cost', 'speed', 'intelligence'];
const RANK_OF: Record<Axis, (model: ConfiguredModel) => number> = {
  cost: (m) => m.costRank,
  speed: (m) => m.speedRank,
  intelligence: (m) => m.intelligenceRank,
};

function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/gu, '');
}

function contains(model: ConfiguredModel, needle: string): boolean {
  const squashed = squash(needle);
  return squashed !== '' && (squash(model.id).includes(squashed) || squash(model.label).includes(squashed));
}

function describe(model: ConfiguredModel): string {
  return model.label === model.id ? model.id : `${model.label} (${model.id})`;
}

interface HintMatch {
  models: ConfiguredModel[];
  /** How the hint reached these models, for the explanation. */
  via: { kind: 'name' } | { kind: 'family'; family: string } | { kind: 'tier'; family: string; tier: ModelTier };
}

function matchHint(hint: string, models: readonly ConfiguredModel[]): HintMatch | undefined {
  const direct = models.filter((m) => contains(m, hint));
  if (direct.length > 0) return { models: direct, via: { kind: 'name' } };
  const tokens = hint.toLowerCase().split(/[^a-z0-9]+/u);
  for (const token of tokens) {
    const tier = FAMILY_TIERS[token];
    if (tier === undefined) continue;
    const named = models.filter((m) => contains(m, token));
    if (named.length > 0) return { models: named, via: { kind: 'family', family: token } };
    const tiered = models.filter((m) => m.tier === tier);
    if (tiered.length > 0) return { models: tiered, via: { kind: 'tier', family: token, tier } };
  }
  for (const token of tokens) {
    if (!PROVIDER_FAMILIES.includes(token)) continue;
    const named = models.filter((m) => contains(m, token));
    if (named.length > 0) return { models: named, via: { kind: 'family', family: token } };
  }
  return undefined;
}

type Weights = Partial<Record<Axis, number>>;

function weightsOf(preferences: ModelPreferencesInput | undefined): Weights {
  const weights: Weights = {};
  const given: Record<Axis, number | undefined> = {
    cost: preferences?.costPriority,
    speed: preferences?.speedPriority,
    intelligence: preferences?.intelligencePriority,
  };
  for (const axis of AXES) {
    const value = given[axis];
    // Out-of-range values are clamped rather than refused: they are preferences, not commands.
    if (value !== undefined && Number.isFinite(value) && value > 0) weights[axis] = Math.min(1, value);
  }
  return weights;
}

function phraseWeights(weights: Weights): string {
  const given = AXES.filter((axis) => weights[axis] !== undefined);
  if (given.length === 1) return `${given[0]} priority ${weights[given[0] as Axis]}`;
  const parts = given.map((axis) => `${axis} ${weights[axis]}`);
  return `weighing priorities ${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** The best model for the weights; ties go to the default model, then to the configured order. */
function best(models: readonly ConfiguredModel[], weights: Weights, defaultModel: string): ConfiguredModel {
  const score = (model: ConfiguredModel): number =>
    AXES.reduce((sum, axis) => {
      const weight = weights[axis];
      if (weight === undefined) return sum;
      const ranks = models.map(RANK_OF[axis]);
      const [lo, hi] = [Math.min(...ranks), Math.max(...ranks)];
      // 1 for the best rank on this axis, 0 for the worst.
      const normalized = hi === lo ? 1 : (hi - RANK_OF[axis](model)) / (hi - lo);
      return sum + weight * normalized;
    }, 0);
  let winner = models[0] as ConfiguredModel;
  let winnerScore = score(winner);
  for (const model of models.slice(1)) {
    const value = score(model);
    const better = value > winnerScore + 1e-9 || (Math.abs(value - winnerScore) <= 1e-9 && model.id === defaultModel);
    if (better) [winner, winnerScore] = [model, value];
  }
  return winner;
}

function defaultAmong(models: readonly ConfiguredModel[], defaultModel: string): ConfiguredModel | undefined {
  return models.find((m) => m.id === defaultModel);
}

/**
 * Map a server's model preferences onto the configured models: hints first,
 * in order (a name or a family word), then cost/speed/intelligence priorities,
 * then the default. Pure; the explanation is shown in the sampling review.
 */
export function chooseModel(preferences: ModelPreferencesInput | undefined, models: readonly ConfiguredModel[], defaultModel: string): ModelSelection {
  if (models.length === 0) return { model: defaultModel, explanation: `Only the default model ${defaultModel} is configured.` };
  const weights = weightsOf(preferences);
  const weighted = Object.keys(weights).length > 0;
  const hints = (preferences?.hints ?? []).map((h) => h.name?.trim() ?? '').filter((name) => name !== '');

  for (const hint of hints) {
    const match = matchHint(hint, models);
    if (match === undefined) continue;
    const { via } = match;
    const reach =
      via.kind === 'name'
        ? `Hint '${hint}' matched`
        : via.kind === 'family'
          ? `Hint '${hint}' names the ${via.family} family, which matched`
          : `Hint '${hint}' suggests a ${via.tier} model like ${via.family}, which matched`;
    if (match.models.length === 1) {
      const only = match.models[0] as ConfiguredModel;
      return { model: only.id, explanation: `${reach} ${describe(only)}.`, matchedHint: hint };
    }
    const count = `${match.models.length} configured models`;
    if (weighted) {
      const pick = best(match.models, weights, defaultModel);
      return { model: pick.id, explanation: `${reach} ${count}; ${phraseWeights(weights)} favoured ${describe(pick)}.`, matchedHint: hint };
    }
    const fallback = defaultAmong(match.models, defaultModel);
    const pick = fallback ?? (match.models[0] as ConfiguredModel);
    const why = fallback !== undefined ? 'the default model' : 'the first of them in the settings';
    return { model: pick.id, explanation: `${reach} ${count}; chose ${describe(pick)}, ${why}.`, matchedHint: hint };
  }

  const hintNote = hints.length === 0 ? 'No model hints' : `No hint matched (${hints.map((h) => `'${h}'`).join(', ')})`;
  if (weighted) {
    const pick = best(models, weights, defaultModel);
    return { model: pick.id, explanation: `${hintNote}; ${phraseWeights(weights)} favoured ${describe(pick)}.` };
  }
  const fallback = defaultAmong(models, defaultModel);
  const named = fallback === undefined ? defaultModel : describe(fallback);
  if (preferences === undefined) return { model: defaultModel, explanation: `The server stated no model preferences; using the default model ${named}.` };
  return { model: defaultModel, explanation: `${hintNote} and no priorities; using the default model ${named}.` };
}
