import { useLingui } from '@lingui/react';
import { useMemo } from 'react';
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
  const { _ } = useLingui();
  return useMemo(() => (id, values) => keepingEscapes(values, (safe) => _(id, safe)), [_]);
}

// Lingui decodes `\uXXXX` and `\xXX` in a formatted message, the values put in included: a name shown
// escaped (showableName's `\u202E`) would come back as the very control character it exposes. A string
// value with a backslash goes in as a placeholder and is put back after formatting.
const HELD = /\uE000(\d+)\uE001/g;
function keepingEscapes(values: MessageValues | undefined, format: (values?: MessageValues) => string): string {
  if (values === undefined) return format(values);
  const held: string[] = [];
  const safe: MessageValues = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' && value.includes('\\')) {
      safe[name] = `\uE000${held.length}\uE001`;
      held.push(value);
    } else safe[name] = value;
  }
  if (held.length === 0) return format(values);
  return format(safe).replace(HELD, (_, index: string) => held[Number(index)]!);
}

/**
 * The same outside a component (a store's toast, a document title): it words the message in the
 * locale active when called, and does not follow a later switch by itself. Before main.tsx has
 * activated the first catalog (a start-up call failing as the socket drops) it gives the id back:
 * Lingui would throw there, inside the transport's close handler, and no screen shows it yet.
 */
export const translate: Translate = (id, values) =>
  i18n.locale ? keepingEscapes(values, (safe) => i18n._(id, safe)) : id;
