import { z } from 'zod';
import { MODEL_TIERS } from './model-ranks';

/**
 * Why the sampling review proposes a model that a server's hints or priorities picked, as facts: which hint
 * reached which models and how, the priorities as axes with their weights, and what the pick is among them.
 * The sentence is made of clauses, so it travels as this structure rather than as one code: the host makes its
 * English from it (`choiceEnglish`, what Berth always said) and the review words it from
 * renderer/i18n/locales/<locale>/sampling-choice.json (features/pending/sampling-choice-text.ts). Hints and model
 * names are the server's and the person's own words and stay as written.
 */
export const SAMPLING_AXES = ['cost', 'speed', 'intelligence'] as const;
export type SamplingAxis = (typeof SAMPLING_AXES)[number];

const AxisSchema = z.enum(SAMPLING_AXES);
const TierSchema = z.enum(MODEL_TIERS);

/** The server's priorities, the weightiest first; `equal` when every given axis has the same weight. */
export const SamplingWeighingSchema = z.object({
  weights: z
    .array(z.object({ axis: AxisSchema, weight: z.number() }))
    .min(1)
    .max(3),
  equal: z.boolean(),
});
export type SamplingWeighing = z.infer<typeof SamplingWeighingSchema>;

/** How a hint reached its models: by a model's name, by a family word, or by a tier word (`flash` → fast). */
export const SamplingReachSchema = z.discriminatedUnion('via', [
  z.object({ via: z.literal('name'), hint: z.string() }),
  z.object({ via: z.literal('family'), hint: z.string(), family: z.string() }),
  z.object({ via: z.literal('tier'), hint: z.string(), family: z.string(), tier: TierSchema }),
]);
export type SamplingReach = z.infer<typeof SamplingReachSchema>;

/** What the pick is among the models the priorities ranked: the best on the top axis (one of `count` tied), or a balance. */
export const SamplingPickSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('balance'), axes: z.array(AxisSchema).min(1).max(3) }),
  z.object({ kind: z.literal('best'), axis: AxisSchema }),
  // `yours`: the tie went to the person's default model, else to the first in their list.
  z.object({ kind: z.literal('tied'), axis: AxisSchema, count: z.number().int(), yours: z.boolean() }),
]);
export type SamplingPick = z.infer<typeof SamplingPickSchema>;

export const SamplingChoiceSchema = z.discriminatedUnion('kind', [
  /** A hint reached one model. */
  z.object({ kind: z.literal('hint-only'), reach: SamplingReachSchema }),
  /** A hint reached `count` models, the default among them. */
  z.object({ kind: z.literal('hint-default'), reach: SamplingReachSchema, count: z.number().int() }),
  /** A hint reached `count` models; the first in the person's list answers (`model`: its label and key). */
  z.object({ kind: z.literal('hint-first'), reach: SamplingReachSchema, count: z.number().int(), model: z.string() }),
  /** A hint reached `count` models and the priorities chose among them. */
  z.object({
    kind: z.literal('hint-weighted'),
    reach: SamplingReachSchema,
    count: z.number().int(),
    weighing: SamplingWeighingSchema,
    pick: SamplingPickSchema,
  }),
  /** The priorities chose among every model; `unmatched` are the hints that matched none. */
  z.object({
    kind: z.literal('weighted'),
    unmatched: z.array(z.string()),
    weighing: SamplingWeighingSchema,
    pick: SamplingPickSchema,
  }),
  /** No hint matched and there were no priorities: the default model. */
  z.object({ kind: z.literal('unmatched'), unmatched: z.array(z.string()).min(1) }),
]);
export type SamplingChoice = z.infer<typeof SamplingChoiceSchema>;

const BEST_ON: Record<SamplingAxis, string> = { cost: 'cheapest', speed: 'fastest', intelligence: 'most capable' };

/** "a", "a and b", "a, b and c". */
function list(items: readonly string[]): string {
  return items.length === 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

function weighingEnglish({ weights, equal }: SamplingWeighing): string {
  const parts = weights.map(({ axis, weight }) => `${axis} (${weight})`);
  const [first, ...rest] = parts;
  if (rest.length === 0) return `the server asked for ${first}`;
  if (equal) return `the server weighed ${list(parts)} equally`;
  return `the server asked for ${first} over ${list(rest)}`;
}

function pickEnglish(pick: SamplingPick): string {
  if (pick.kind === 'balance') return `the best balance of ${list(pick.axes)}`;
  if (pick.kind === 'best') return `the ${BEST_ON[pick.axis]} model`;
  return `one of the ${pick.count} ${BEST_ON[pick.axis]} models (${pick.yours ? 'your default model' : 'the first in your list'})`;
}

function reachEnglish(reach: SamplingReach): string {
  if (reach.via === 'name') return `Matched the server’s hint “${reach.hint}”`;
  if (reach.via === 'family') return `The server’s hint “${reach.hint}” names the ${reach.family} family`;
  return `The server’s hint “${reach.hint}” asks for a ${reach.tier} model (“${reach.family}”)`;
}

function unmatchedEnglish(hints: readonly string[]): string {
  return `No model matched the server’s ${hints.length === 1 ? 'hint' : 'hints'} ${hints.map((h) => `“${h}”`).join(', ')}`;
}

/** The choice in the English Berth always wrote (a model is told nothing of it; logs and the fallback read it). */
export function choiceEnglish(choice: SamplingChoice): string {
  switch (choice.kind) {
    case 'hint-only':
      return `${reachEnglish(choice.reach)}${choice.reach.via === 'tier' ? `: your only ${choice.reach.tier} model` : ''}.`;
    case 'hint-default':
      return `${reachEnglish(choice.reach)} (${choice.count} models); your default model is one of them.`;
    case 'hint-first':
      return `${reachEnglish(choice.reach)} (${choice.count} models); the first of them in your list, ${choice.model}.`;
    case 'hint-weighted':
      return `${reachEnglish(choice.reach)} (${choice.count} models); ${weighingEnglish(choice.weighing)}: ${pickEnglish(choice.pick)} of them.`;
    case 'weighted': {
      const reason = `${weighingEnglish(choice.weighing)}: ${pickEnglish(choice.pick)}`;
      if (choice.unmatched.length > 0) return `${unmatchedEnglish(choice.unmatched)}; ${reason}.`;
      return `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;
    }
    case 'unmatched':
      return `${unmatchedEnglish(choice.unmatched)} and it gave no priorities: your default model.`;
  }
}
