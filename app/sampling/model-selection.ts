import type { HostMessage } from '../../shared/domain/host-message';
import { splitModelKey } from '../../shared/domain/model-key';
import { samplingWords, type SamplingWordsCode } from '../../shared/domain/sampling-words';
import type { ModelTier } from '../../shared/domain/model-ranks';
import type { CandidateModel } from './candidate-models';

/** The MCP `modelPreferences` (structurally; the SDK type is deprecated in 2026-07-28). */
export interface ModelPreferencesInput {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** The chosen model key, and why in one sentence a person can read (shown in the sampling review). */
export interface ModelSelection {
  model: string;
  explanation: string;
  /** The explanation as a code, when it has one (the review then words it in the person's language). */
  explanationMessage?: HostMessage;
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

/** Family names that select among that family's models without implying a tier (`claude-3-5-whatever` → any Claude). */
const MODEL_FAMILIES = ['claude', 'gpt', 'gemini', 'llama', 'mistral', 'qwen', 'deepseek', 'gemma', 'phi', 'grok'];

type Axis = 'cost' | 'speed' | 'intelligence';
const AXES: readonly Axis[] = ['cost', 'speed', 'intelligence'];
const RANK_OF: Record<Axis, (model: CandidateModel) => number> = {
  cost: (m) => m.costRank,
  speed: (m) => m.speedRank,
  intelligence: (m) => m.intelligenceRank,
};
/** What being the best on an axis is called. */
const BEST_ON: Record<Axis, string> = { cost: 'cheapest', speed: 'fastest', intelligence: 'most capable' };

function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/gu, '');
}

/**
 * The names a hint is matched against: the provider's own model id and the
 * label, not the key's provider prefix (hint "llama" must not match every
 * `ollama:` model). An id like `openai/gpt-4o` also answers to `gpt-4o`.
 */
function namesOf(model: CandidateModel): string[] {
  const id = splitModelKey(model.key).model;
  return [id, id.split('/').at(-1) ?? id, model.label].map(squash);
}

/** Models whose id or label is the hint (the key counts too: `openai:gpt-4o`); else those containing it, as MCP says hints are substrings. */
function byName(hint: string, models: readonly CandidateModel[]): CandidateModel[] {
  const needle = squash(hint);
  if (needle === '') return [];
  const exact = models.filter((m) => squash(m.key) === needle || namesOf(m).includes(needle));
  if (exact.length > 0) return exact;
  return models.filter((m) => namesOf(m).some((name) => name.includes(needle)));
}

function describe(model: CandidateModel): string {
  return model.label === model.key ? model.key : `${model.label} (${model.key})`;
}

interface HintMatch {
  models: CandidateModel[];
  /** How the hint reached these models, for the explanation. */
  via: { kind: 'name' } | { kind: 'family'; family: string } | { kind: 'tier'; family: string; tier: ModelTier };
}

function matchHint(hint: string, models: readonly CandidateModel[]): HintMatch | undefined {
  const direct = byName(hint, models);
  if (direct.length > 0) return { models: direct, via: { kind: 'name' } };
  const tokens = hint.toLowerCase().split(/[^a-z0-9]+/u);
  for (const token of tokens) {
    const tier = FAMILY_TIERS[token];
    if (tier === undefined) continue;
    const named = byName(token, models);
    if (named.length > 0) return { models: named, via: { kind: 'family', family: token } };
    const tiered = models.filter((m) => m.tier === tier);
    if (tiered.length > 0) return { models: tiered, via: { kind: 'tier', family: token, tier } };
  }
  for (const token of tokens) {
    if (!MODEL_FAMILIES.includes(token)) continue;
    const named = byName(token, models);
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

/** The given axes, the weightiest first (ties keep cost, speed, intelligence order). */
function ranked(weights: Weights): Axis[] {
  return AXES.filter((axis) => weights[axis] !== undefined).sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0));
}

/** "the server asked for speed (0.8) over intelligence (0.2)". */
function phraseWeights(weights: Weights): string {
  const axes = ranked(weights);
  const part = (axis: Axis): string => `${axis} (${weights[axis]})`;
  const [first, ...rest] = axes as [Axis, ...Axis[]];
  if (rest.length === 0) return `the server asked for ${part(first)}`;
  const list = (items: Axis[]): string =>
    items.length === 1
      ? part(items[0] as Axis)
      : `${items.slice(0, -1).map(part).join(', ')} and ${part(items.at(-1) as Axis)}`;
  if (rest.every((axis) => weights[axis] === weights[first])) return `the server weighed ${list(axes)} equally`;
  return `the server asked for ${part(first)} over ${list(rest)}`;
}

/** The best model for the weights; ties go to the default model, then to the list's order. */
function best(models: readonly CandidateModel[], weights: Weights, defaultKey: string): CandidateModel {
  const score = (model: CandidateModel): number =>
    AXES.reduce((sum, axis) => {
      const weight = weights[axis];
      if (weight === undefined) return sum;
      const ranks = models.map(RANK_OF[axis]);
      const [lo, hi] = [Math.min(...ranks), Math.max(...ranks)];
      // 1 for the best rank on this axis, 0 for the worst.
      const normalized = hi === lo ? 1 : (hi - RANK_OF[axis](model)) / (hi - lo);
      return sum + weight * normalized;
    }, 0);
  let winner = models[0] as CandidateModel;
  let winnerScore = score(winner);
  for (const model of models.slice(1)) {
    const value = score(model);
    const better = value > winnerScore + 1e-9 || (Math.abs(value - winnerScore) <= 1e-9 && model.key === defaultKey);
    if (better) [winner, winnerScore] = [model, value];
  }
  return winner;
}

/** What the pick is among `models` in words: "the fastest model", "one of the fastest models, your default"… */
function phrasePick(
  pick: CandidateModel,
  models: readonly CandidateModel[],
  weights: Weights,
  defaultKey: string,
): string {
  const top = ranked(weights)[0] as Axis;
  const bestRank = Math.min(...models.map(RANK_OF[top]));
  if (RANK_OF[top](pick) !== bestRank) {
    const axes = ranked(weights);
    return `the best balance of ${axes.length === 1 ? axes[0] : `${axes.slice(0, -1).join(', ')} and ${axes.at(-1)}`}`;
  }
  const tied = models.filter((m) => RANK_OF[top](m) === bestRank).length;
  if (tied === 1) return `the ${BEST_ON[top]} model`;
  return `one of the ${tied} ${BEST_ON[top]} models (${pick.key === defaultKey ? 'your default model' : 'the first in your list'})`;
}

function quoted(hints: readonly string[]): string {
  return hints.map((h) => `“${h}”`).join(', ');
}

/**
 * Map a server's model preferences onto the candidates of every provider:
 * hints first, in order (a model's name, a family or a tier word), then the
 * cost/speed/intelligence priorities through the ranks, then the default.
 * Pure; the explanation is shown in the sampling review.
 */
export function chooseModel(
  preferences: ModelPreferencesInput | undefined,
  models: readonly CandidateModel[],
  defaultKey: string,
): ModelSelection {
  if (models.length === 0) return { model: defaultKey, ...explained('sampling-words.no-models') };
  const weights = weightsOf(preferences);
  const weighted = Object.keys(weights).length > 0;
  const hints = (preferences?.hints ?? []).map((h) => h.name?.trim() ?? '').filter((name) => name !== '');

  for (const hint of hints) {
    const match = matchHint(hint, models);
    if (match === undefined) continue;
    const { via } = match;
    const reach =
      via.kind === 'name'
        ? `Matched the server’s hint “${hint}”`
        : via.kind === 'family'
          ? `The server’s hint “${hint}” names the ${via.family} family`
          : `The server’s hint “${hint}” asks for a ${via.tier} model (“${via.family}”)`;
    if (match.models.length === 1) {
      const only = match.models[0] as CandidateModel;
      const note = via.kind === 'tier' ? `: your only ${via.tier} model` : '';
      return { model: only.key, explanation: `${reach}${note}.`, matchedHint: hint };
    }
    const count = `${reach} (${match.models.length} models)`;
    if (weighted) {
      const pick = best(match.models, weights, defaultKey);
      return {
        model: pick.key,
        explanation: `${count}; ${phraseWeights(weights)}: ${phrasePick(pick, match.models, weights, defaultKey)} of them.`,
        matchedHint: hint,
      };
    }
    const fallback = match.models.find((m) => m.key === defaultKey);
    const pick = fallback ?? (match.models[0] as CandidateModel);
    const why =
      fallback !== undefined
        ? 'your default model is one of them'
        : `the first of them in your list, ${describe(pick)}`;
    return { model: pick.key, explanation: `${count}; ${why}.`, matchedHint: hint };
  }

  const unmatched =
    hints.length === 0
      ? undefined
      : `No model matched the server’s ${hints.length === 1 ? 'hint' : 'hints'} ${quoted(hints)}`;
  if (weighted) {
    const pick = best(models, weights, defaultKey);
    const reason = `${phraseWeights(weights)}: ${phrasePick(pick, models, weights, defaultKey)}`;
    return {
      model: pick.key,
      explanation:
        unmatched === undefined ? `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.` : `${unmatched}; ${reason}.`,
    };
  }
  if (preferences === undefined) return { model: defaultKey, ...explained('sampling-words.no-preferences') };
  if (unmatched !== undefined)
    return { model: defaultKey, explanation: `${unmatched} and it gave no priorities: your default model.` };
  return { model: defaultKey, ...explained('sampling-words.no-hints-or-priorities') };
}

/** A reason without facts, as English and its code. */
function explained(code: SamplingWordsCode): { explanation: string; explanationMessage: HostMessage } {
  const words = samplingWords(code, {});
  return { explanation: words.text, explanationMessage: words.hostMessage };
}
