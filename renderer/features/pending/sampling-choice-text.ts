import type {
  SamplingAxis,
  SamplingChoice,
  SamplingPick,
  SamplingReach,
  SamplingWeighing,
} from '../../../shared/domain/sampling-choice';
import { translate } from '../../i18n/use-t';

// The sampling review's reason for a model the server's hints or priorities chose, worded clause by clause from
// its facts (shared/domain/sampling-choice.ts). In English it reads as the host's own sentence, word for word.

const axis = (name: SamplingAxis): string => translate('sampling-choice.axis', { axis: name });

/** "a", "a and b", "a, b and c" in the person's language (at most three axes). */
function list(items: readonly string[]): string {
  const [first = '', second = '', third] = items;
  if (items.length === 1) return first;
  if (third === undefined) return translate('sampling-choice.list-two', { first, last: second });
  return translate('sampling-choice.list-three', { first, second, last: third });
}

function weighing({ weights, equal }: SamplingWeighing): string {
  const parts = weights.map((w) =>
    translate('sampling-choice.axis-weight', { axis: axis(w.axis), weight: String(w.weight) }),
  );
  const [first = '', ...rest] = parts;
  if (rest.length === 0) return translate('sampling-choice.weighing-one', { first });
  if (equal) return translate('sampling-choice.weighing-equal', { list: list(parts) });
  return translate('sampling-choice.weighing-over', { first, list: list(rest) });
}

function pick(chosen: SamplingPick): string {
  if (chosen.kind === 'balance')
    return translate('sampling-choice.pick-balance', { axes: list(chosen.axes.map(axis)) });
  if (chosen.kind === 'best') return translate('sampling-choice.pick-best', { axis: chosen.axis });
  return translate(chosen.yours ? 'sampling-choice.pick-tied-default' : 'sampling-choice.pick-tied-first', {
    axis: chosen.axis,
    count: chosen.count,
  });
}

function reach(how: SamplingReach): string {
  if (how.via === 'name') return translate('sampling-choice.reach-name', { hint: how.hint });
  if (how.via === 'family') return translate('sampling-choice.reach-family', { hint: how.hint, family: how.family });
  return translate('sampling-choice.reach-tier', { hint: how.hint, family: how.family, tier: how.tier });
}

/** The server's hints that matched nothing, each quoted the way the language quotes. */
function hints(names: readonly string[]): string {
  return names
    .map((hint) => translate('sampling-choice.quoted', { hint }))
    .join(translate('sampling-choice.hint-separator'));
}

function sentence(choice: SamplingChoice): string {
  switch (choice.kind) {
    case 'hint-only':
      return choice.reach.via === 'tier'
        ? translate('sampling-choice.hint-only-tier', { reach: reach(choice.reach), tier: choice.reach.tier })
        : translate('sampling-choice.hint-only', { reach: reach(choice.reach) });
    case 'hint-default':
      return translate('sampling-choice.hint-default', { reach: reach(choice.reach), count: choice.count });
    case 'hint-first':
      return translate('sampling-choice.hint-first', {
        reach: reach(choice.reach),
        count: choice.count,
        model: choice.model,
      });
    case 'hint-weighted':
      return translate('sampling-choice.hint-weighted', {
        reach: reach(choice.reach),
        count: choice.count,
        weighing: weighing(choice.weighing),
        pick: pick(choice.pick),
      });
    case 'weighted':
      return choice.unmatched.length === 0
        ? translate('sampling-choice.weighted', { weighing: weighing(choice.weighing), pick: pick(choice.pick) })
        : translate('sampling-choice.unmatched-weighted', {
            count: choice.unmatched.length,
            hints: hints(choice.unmatched),
            weighing: weighing(choice.weighing),
            pick: pick(choice.pick),
          });
    case 'unmatched':
      return translate('sampling-choice.unmatched', {
        count: choice.unmatched.length,
        hints: hints(choice.unmatched),
      });
  }
}

/** Why the server's hints or priorities chose this model, as a sentence in the person's language. */
export function samplingChoiceText(choice: SamplingChoice): string {
  const text = sentence(choice);
  // A sentence may open with a clause written to follow a colon ("the server asked for…").
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
