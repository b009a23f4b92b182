import type { HostMessage } from '../../shared/domain/host-message';
import { splitModelKey } from '../../shared/domain/model-key';
import { samplingWords, type SamplingWordsCode } from '../../shared/domain/sampling-words';
import type { ModelTier } from '../../shared/domain/model-ranks';
import {
  SAMPLING_AXES,
  choiceEnglish,
  type SamplingAxis,
  type SamplingChoice,
  type SamplingPick,
  type SamplingReach,
  type SamplingWeighing,
} from '../../shared/domain/sampling-choice';
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
  /** The explanation as facts, when hints or priorities made the choice (the review words it from them). */
  choice?: SamplingChoice;
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

type Axis = SamplingAxis;
const AXES: readonly Axis[] = SAMPLING_AXES;
const RANK_OF: Record<Axis, (model: CandidateModel) => number> = {
  cost: (m) => m.costRank,
  speed: (m) => m.speedRank,
  intelligence: (m) => m.intelligenceRank,
};

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

/** The priorities as the review words them: the weightiest first, and whether they are all equal. */
function weighingOf(weights: Weights): SamplingWeighing {
  const axes = ranked(weights);
  const list = axes.map((axis) => ({ axis, weight: weights[axis] ?? 0 }));
  const first = weights[axes[0] as Axis];
  return { weights: list, equal: axes.length > 1 && axes.every((axis) => weights[axis] === first) };
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

/** What the pick is among `models`: the best on the top axis (maybe one of several tied), else the best balance. */
function pickOf(
  pick: CandidateModel,
  models: readonly CandidateModel[],
  weights: Weights,
  defaultKey: string,
): SamplingPick {
  const axes = ranked(weights);
  const top = axes[0] as Axis;
  const bestRank = Math.min(...models.map(RANK_OF[top]));
  if (RANK_OF[top](pick) !== bestRank) return { kind: 'balance', axes };
  const tied = models.filter((m) => RANK_OF[top](m) === bestRank).length;
  if (tied === 1) return { kind: 'best', axis: top };
  return { kind: 'tied', axis: top, count: tied, yours: pick.key === defaultKey };
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
    const reach: SamplingReach =
      via.kind === 'name'
        ? { via: 'name', hint }
        : via.kind === 'family'
          ? { via: 'family', hint, family: via.family }
          : { via: 'tier', hint, family: via.family, tier: via.tier };
    const count = match.models.length;
    if (count === 1) return chosen((match.models[0] as CandidateModel).key, { kind: 'hint-only', reach }, hint);
    if (weighted) {
      const pick = best(match.models, weights, defaultKey);
      const choice: SamplingChoice = {
        kind: 'hint-weighted',
        reach,
        count,
        weighing: weighingOf(weights),
        pick: pickOf(pick, match.models, weights, defaultKey),
      };
      return chosen(pick.key, choice, hint);
    }
    const fallback = match.models.find((m) => m.key === defaultKey);
    if (fallback !== undefined) return chosen(fallback.key, { kind: 'hint-default', reach, count }, hint);
    const first = match.models[0] as CandidateModel;
    return chosen(first.key, { kind: 'hint-first', reach, count, model: describe(first) }, hint);
  }

  if (weighted) {
    const pick = best(models, weights, defaultKey);
    const choice: SamplingChoice = {
      kind: 'weighted',
      unmatched: hints,
      weighing: weighingOf(weights),
      pick: pickOf(pick, models, weights, defaultKey),
    };
    return chosen(pick.key, choice);
  }
  if (preferences === undefined) return { model: defaultKey, ...explained('sampling-words.no-preferences') };
  if (hints.length > 0) return chosen(defaultKey, { kind: 'unmatched', unmatched: hints });
  return { model: defaultKey, ...explained('sampling-words.no-hints-or-priorities') };
}

/** A choice the server's hints or priorities made, with its English. */
function chosen(model: string, choice: SamplingChoice, matchedHint?: string): ModelSelection {
  return {
    model,
    explanation: choiceEnglish(choice),
    choice,
    ...(matchedHint !== undefined ? { matchedHint } : {}),
  };
}

/** A reason without facts, as English and its code. */
function explained(code: SamplingWordsCode): { explanation: string; explanationMessage: HostMessage } {
  const words = samplingWords(code, {});
  return { explanation: words.text, explanationMessage: words.hostMessage };
}
