import { useLingui } from '@lingui/react';
import { i18n } from './i18n';
import type { MessageId } from './message-ids';

/** The values an ICU message's arguments take (`{count}`, `{name}`, `{when, date}`…). */
export type MessageValues = Record<string, string | number | Date>;

/** Words one message in the active locale. */
export type Translate = (id: MessageId, values?: MessageValues) => string;

/**
 * `t('servers.add.button', { count })` in the active locale; the component re-renders when the
 * language changes. The one way components get their words.
 */
export function useT(): Translate {
  return useLingui()._;
}

/**
 * The same outside a component (a store's toast, a document title): it words the message in the
 * locale active when called, and does not follow a later switch by itself.
 */
export const translate: Translate = (id, values) => i18n._(id, values);
