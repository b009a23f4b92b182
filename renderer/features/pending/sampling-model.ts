import type { ModelChoice, SamplingBlock, SamplingMessageView } from '../../../shared/domain/pending';
import { canonicalJson } from './pending-model';
import { translate } from '../../i18n/use-t';

/** A message's content as a list, whichever form the server used. */
export function blocksOf(content: SamplingBlock | SamplingBlock[]): SamplingBlock[] {
  return Array.isArray(content) ? content : [content];
}

/** Messages with list content, so the dialog can edit block `i` of message `m` in place. */
export function editableMessages(messages: readonly SamplingMessageView[]): SamplingMessageView[] {
  return messages.map((message) => ({ ...message, content: blocksOf(message.content) }));
}

/** A copy of `messages` with the text of one block replaced. */
export function withBlockText(
  messages: readonly SamplingMessageView[],
  messageIndex: number,
  blockIndex: number,
  text: string,
): SamplingMessageView[] {
  return messages.map((message, m) => {
    if (m !== messageIndex) return message;
    const blocks = blocksOf(message.content).map((block, b) =>
      b === blockIndex && block.type === 'text' ? { ...block, text } : block,
    );
    return { ...message, content: blocks };
  });
}

/** A copy of `content` with the text of one block replaced (the answer stage). */
export function withAnswerText(content: readonly SamplingBlock[], blockIndex: number, text: string): SamplingBlock[] {
  return content.map((block, b) => (b === blockIndex && block.type === 'text' ? { ...block, text } : block));
}

/** Whether the person changed anything, ignoring list-vs-single content form. */
export function messagesEdited(
  original: readonly SamplingMessageView[],
  edited: readonly SamplingMessageView[],
): boolean {
  return canonicalJson(editableMessages(original)) !== canonicalJson(editableMessages(edited));
}

export function contentEdited(original: SamplingBlock | SamplingBlock[], edited: readonly SamplingBlock[]): boolean {
  return canonicalJson(blocksOf(original)) !== canonicalJson(edited);
}

/** `0.8` → `80%`: model-preference priorities are 0…1. */
export function formatPriority(value: number | undefined): string | undefined {
  return value === undefined ? undefined : `${Math.round(value * 100)}%`;
}

/** Models in provider groups, in the order each provider first appears; one unnamed group when no model names its provider. */
export function groupByProvider(
  models: readonly ModelChoice[],
): Array<{ provider: string | undefined; models: ModelChoice[] }> {
  const groups: Array<{ provider: string | undefined; models: ModelChoice[] }> = [];
  for (const model of models) {
    const group = groups.find((g) => g.provider === model.provider);
    if (group === undefined) groups.push({ provider: model.provider, models: [model] });
    else group.models.push(model);
  }
  return groups;
}

/** "Claude Haiku 4.5 (Anthropic)": a model with its provider, for sentences. */
export function modelWithProvider(model: ModelChoice): string {
  return model.provider === undefined ? model.label : `${model.label} (${model.provider})`;
}

/**
 * Why the selected model answers, in words: Berth's reason while the person
 * keeps its pick; once they switch, that it is their choice and what Berth had picked.
 */
export function modelWhy(proposed: ModelChoice, explanation: string, selected: ModelChoice | undefined): string {
  if (selected === undefined || selected.id === proposed.id) return explanation;
  // The explanation is the host's English sentence, carried on after the catalog's words.
  return translate('pending.sampling.yourChoice', {
    model: modelWithProvider(proposed),
    explanation: `${explanation.charAt(0).toLowerCase()}${explanation.slice(1)}`,
  });
}
