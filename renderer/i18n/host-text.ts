import type { HostMessage } from '../../shared/domain/host-message';
import { i18n } from './i18n';
import type { MessageId } from './message-ids';
import { translate } from './use-t';
import { withFieldWords } from './field-words';

// A host message as plain text (no JSX here: the stores word their toasts with it, and a Node-side test
// typechecks the stores). HostMessageText (host-message.tsx) is the same with the catalog's markup.

/** Whether the active catalog words this code (an older renderer may not know a newer host's). */
export function known(message: HostMessage | undefined): message is HostMessage & { code: MessageId } {
  return message !== undefined && Object.prototype.hasOwnProperty.call(i18n.messages, message.code);
}

/** Markup the catalog adds (<code>) has no place in plain text: its words are kept. */
const withoutMarkup = (text: string): string => text.replace(/<\/?[\w.-]+\s*\/?>/g, '');

/**
 * A message's params with a reason inside it (shared/domain/server-state-reasons.ts, NestedReason) worded
 * in the person's language too: `reason` is the inner reason's English, `reasonCode` and `reason.<fact>` its code.
 */
export function withInnerReason(params: HostMessage['params']): HostMessage['params'] {
  const code = params?.reasonCode;
  if (params === undefined || typeof code !== 'string' || !known({ code })) return params;
  const facts = Object.entries(params)
    .filter(([name]) => name.startsWith('reason.'))
    .map(([name, value]) => [name.slice('reason.'.length), value] as const);
  return { ...params, reason: withoutMarkup(translate(code as MessageId, Object.fromEntries(facts))) };
}

/** A host message in the person's language as plain text (a title, a tooltip); `fallback` is the host's English. */
export function hostText(message: HostMessage | undefined, fallback: string): string {
  if (!known(message)) return fallback;
  // translate(), not i18n._: a param holding a backslash (a Windows path, an escaped name) stays as written.
  return withoutMarkup(translate(message.code, withFieldWords(message.code, withInnerReason(message.params))));
}

/** A failed call's message in the person's language: its code's words, else the host's English. */
export function failureText(failure: { message: string; hostMessage?: HostMessage | undefined }): string {
  return hostText(failure.hostMessage, failure.message);
}
