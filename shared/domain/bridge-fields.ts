// The bridge's field names, apart from the family's English: the renderer words a refused field's name on its
// first screen, and this keeps the family's sentences (and the maker of host words) out of that screen's code.

/** The schema keys whose plain name would not say what they are: the catalog has words for each. */
export const NAMED_FIELD_KEYS = [
  'text',
  'title',
  'uri',
  'server',
  'args',
  'env',
  'url',
  'label',
  'attachments',
  'data',
] as const;

export type NamedField = (typeof NAMED_FIELD_KEYS)[number];

/** Whether a schema key has words of its own in the catalog (`bridge-errors.field.<key>`). */
export function isNamedField(key: string): key is NamedField {
  return (NAMED_FIELD_KEYS as readonly string[]).includes(key);
}

/** A schema key as words: `timeoutMs` → `timeout ms`. */
export function keyInWords(key: string): string {
  return key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
}
