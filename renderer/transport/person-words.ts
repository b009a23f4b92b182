import type { Failure, Result } from '../../shared/result';
import { i18n } from '../i18n/i18n';
import type { MessageId } from '../i18n/message-ids';
import { translate } from '../i18n/use-t';
import { withFieldWords } from '../i18n/field-words';

// The router answers a call whose input does not fit the contract with
// "Invalid input for chat.send: text: Too big: expected string to have
// <=100000 characters". That is for developers; beside it comes the first
// problem as a code (shared/domain/bridge-errors.ts) the person reads in
// words. failureText words the code again after a language switch; the
// message holds the words of the language active when the answer arrived,
// for a view that shows a failure's message as it is.
// (hostText's own steps, without its .tsx module: Node-side tests reach this through the store.)

/** A failure as the person should read it; other failures already speak to the person and pass unchanged. */
export function inPersonWords(failure: Failure): Failure {
  const coded = failure.hostMessage;
  if (failure.code !== 'INVALID_INPUT' || !coded?.code.startsWith('bridge-errors.')) return failure;
  if (!Object.prototype.hasOwnProperty.call(i18n.messages, coded.code)) return failure;
  const words = translate(coded.code as MessageId, withFieldWords(coded.code, coded.params));
  return { ...failure, message: words.replace(/<\/?[\w.-]+\s*\/?>/g, '') };
}

/** A call's answer with any failure in person words: both transports (and the tests' fake) hand answers out through this. */
export function withPersonWords<T>(result: Result<T>): Result<T> {
  return result.ok ? result : inPersonWords(result);
}
