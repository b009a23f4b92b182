import { useCallback } from 'react';
import type { HostMessage } from '../../shared/domain/host-message';
import { hostText } from './host-text';
import type { MessageId } from './message-ids';
import { translate, useT, type MessageValues, type Translate } from './use-t';

/**
 * What to say, kept in state (a toast, a form's error) instead of the said string, so a language switch
 * re-words it where it is shown: a catalog id with its values, a host message with its English, or text
 * that is no one's to translate (a server's or the person's words, a browser's error).
 */
export type Words =
  | { id: MessageId; values?: WordsValues }
  | { hostMessage: HostMessage | undefined; fallback: string }
  | { verbatim: string };

/** A message's values; a value may be words of its own (a reason inside a sentence). */
export type WordsValues = Record<string, MessageValues[string] | Words>;

/** A catalog message to word when shown. */
export const words = (id: MessageId, values?: WordsValues): Words => (values === undefined ? { id } : { id, values });

/** Text shown as it is. */
export const verbatim = (text: string): Words => ({ verbatim: text });

/** A failed call's message: its code's words when shown, else the host's English. */
export const failureWords = (failure: { message: string; hostMessage?: HostMessage | undefined }): Words => ({
  hostMessage: failure.hostMessage,
  fallback: failure.message,
});

function isWords(value: WordsValues[string]): value is Words {
  return typeof value === 'object' && !(value instanceof Date);
}

/** A message's values with words inside them worded too. */
export function plainValues(values: WordsValues, t: Translate): MessageValues {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, isWords(value) ? wordsText(value, t) : value]),
  );
}

/**
 * The words as plain text in the active locale. Call it as a component renders (through useWords, so a
 * switch re-renders it), or where the text leaves the screen (a test, the clipboard).
 */
export function wordsText(said: Words, t: Translate = translate): string {
  if ('verbatim' in said) return said.verbatim;
  if ('hostMessage' in said) return hostText(said.hostMessage, said.fallback);
  return t(said.id, said.values === undefined ? undefined : plainValues(said.values, t));
}

/** wordsText for a component: it re-renders, and re-words, when the language changes. */
export function useWords(): (said: Words) => string {
  const t = useT();
  return useCallback((said: Words) => wordsText(said, t), [t]);
}

/** A record of words (a form's errors by field) as plain text in the active locale. */
export function wordsTexts(record: Record<string, Words>, t: Translate = translate): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, said]) => [key, wordsText(said, t)]));
}
