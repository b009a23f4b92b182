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
 * A message's params for its catalog words: a reason inside it (its `cause`, shared/domain/host-message.ts)
 * worded in the person's language as its `reason` param, however deep it nests; a cause the catalog lacks
 * keeps the host's English, which `reason` already holds. A bridge refusal's field is worded too.
 */
export function messageValues(message: HostMessage): HostMessage['params'] {
  const { cause, params } = message;
  const reason = params?.reason;
  const withCause =
    cause === undefined || params === undefined
      ? params
      : { ...params, reason: hostText(cause, typeof reason === 'string' ? reason : '') };
  return withFieldWords(message.code, withCause);
}

/** A host message in the person's language as plain text (a title, a tooltip); `fallback` is the host's English. */
export function hostText(message: HostMessage | undefined, fallback: string): string {
  if (!known(message)) return fallback;
  // translate(), not i18n._: a param holding a backslash (a Windows path, an escaped name) stays as written.
  return withoutMarkup(translate(message.code, messageValues(message)));
}

/** A failed call's message in the person's language: its code's words, else the host's English. */
export function failureText(failure: { message: string; hostMessage?: HostMessage | undefined }): string {
  return hostText(failure.hostMessage, failure.message);
}
