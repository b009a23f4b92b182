import type { Failure, Result } from '../../shared/result';
import { activeLocale } from '../i18n/i18n';
import type { MessageId } from '../i18n/message-ids';
import { translate } from '../i18n/use-t';

// The router answers a call whose input does not fit the contract with
// "Invalid input for chat.send: text: Too big: expected string to have
// <=100000 characters". That is for developers; the person sees what is
// wrong in words (the catalog's, in the language active when the answer
// arrives: a failure is read at once), never a method name or a schema path.

const PREFIX = /^Invalid input for [\w.]+: /;
const MORE = / \(and \d+ more\)$/;
const PATH = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[[^\]]*\])*): ([\s\S]*)$/;

/** Fields whose plain name would not say what they are. */
const FIELD_NAMES: Record<string, MessageId> = {
  text: 'transport.field.text',
  title: 'transport.field.title',
  uri: 'transport.field.uri',
  server: 'transport.field.server',
  args: 'transport.field.args',
  env: 'transport.field.env',
  url: 'transport.field.url',
  label: 'transport.field.label',
  attachments: 'transport.field.attachments',
  data: 'transport.field.data',
};

/** A failure as the person should read it; other codes already speak to the person and pass unchanged. */
export function inPersonWords(failure: Failure): Failure {
  if (failure.code !== 'INVALID_INPUT' || !PREFIX.test(failure.message)) return failure;
  const body = failure.message.replace(PREFIX, '').replace(MORE, '');
  const sentences = [...new Set(body.split('; ').map(describe))];
  // Chinese and Japanese put no space between sentences.
  return { ...failure, message: sentences.join(/^(zh|ja)\b/.test(activeLocale()) ? '' : ' ') };
}

/** A call's answer with any failure in person words: both transports (and the tests' fake) hand answers out through this. */
export function withPersonWords<T>(result: Result<T>): Result<T> {
  return result.ok ? result : inPersonWords(result);
}

function describe(part: string): string {
  const match = PATH.exec(part);
  const path = match?.[1];
  const message = (match?.[2] ?? part).trim();
  const zod = zodWords(message);
  if (zod !== undefined) return translate(zod.id, { field: fieldName(path), ...zod.values });
  if (message.startsWith('unknown field')) return translate('transport.invalid.unknownField');
  // Our schemas' own messages are already written for the person ("Write a message first").
  return sentence(message);
}

/** zod's default messages, as what is wrong with the field; undefined for a message someone wrote on purpose. */
function zodWords(message: string): { id: MessageId; values?: { max: number } | { min: number } } | undefined {
  let m = /^Too big: expected (string|array|number|set|map|object) to (?:have|be) <=?(\d+)/.exec(message);
  if (m !== null) {
    const [, kind, limit] = m;
    const values = { max: Number(limit) };
    if (kind === 'string') return { id: 'transport.invalid.tooLong', values };
    if (kind === 'number') return { id: 'transport.invalid.atMost', values };
    return { id: 'transport.invalid.tooMany', values };
  }
  m = /^Too small: expected (string|array|number|set|map|object) to (?:have|be) >=?(\d+)/.exec(message);
  if (m !== null) {
    const [, kind, limit] = m;
    const values = { min: Number(limit) };
    if (kind === 'string')
      return limit === '1' ? { id: 'transport.invalid.empty' } : { id: 'transport.invalid.tooShort', values };
    if (kind === 'number') return { id: 'transport.invalid.atLeast', values };
    return limit === '1' ? { id: 'transport.invalid.empty' } : { id: 'transport.invalid.tooFew', values };
  }
  if (/^Invalid input: expected \w+, received undefined/.test(message)) return { id: 'transport.invalid.missing' };
  if (message.startsWith('Invalid option')) return { id: 'transport.invalid.notAChoice' };
  if (message.startsWith('Invalid string') || message.startsWith('Invalid format'))
    return { id: 'transport.invalid.badForm' };
  if (/^Invalid (input|type|value|element|union|key)/.test(message) || message === 'Invalid input')
    return { id: 'transport.invalid.notValid' };
  return undefined;
}

function fieldName(path: string | undefined): string {
  if (path === undefined || path === '') return translate('transport.field.entered');
  const segments = path
    .split(/[.[\]]+/)
    .filter((segment) => segment !== '' && !/^\d+$/.test(segment) && !segment.startsWith('"'));
  const last = segments.at(-1);
  if (last === undefined) return translate('transport.field.entered');
  const known = FIELD_NAMES[last];
  if (known !== undefined) return translate(known);
  // A field without words of its own is named by its schema key, in words.
  const name = last
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return translate('transport.field.named', { name });
}

/** Ends it as a sentence; the first letter stays as written (it may be a file name). */
function sentence(message: string): string {
  return /[.!?…]$/.test(message) ? message : `${message}.`;
}
