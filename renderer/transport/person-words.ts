import type { Failure, Result } from '../../shared/result';

// The router answers a call whose input does not fit the contract with
// "Invalid input for chat.send: text: Too big: expected string to have
// <=100000 characters". That is for developers; the person sees what is
// wrong in words, and never a method name or a schema path.

const PREFIX = /^Invalid input for [\w.]+: /;
const MORE = / \(and \d+ more\)$/;
const PATH = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[[^\]]*\])*): ([\s\S]*)$/;

/** Fields whose plain name would not say what they are. */
const FIELD_NAMES: Record<string, string> = {
  text: 'The message',
  title: 'The title',
  uri: 'The resource address',
  server: 'The server name',
  args: 'The arguments',
  env: 'The environment variables',
  url: 'The URL',
  label: "An attachment's name",
  attachments: 'The attachments',
  data: 'The data',
};

/** A failure as the person should read it; other codes already speak to the person and pass unchanged. */
export function inPersonWords(failure: Failure): Failure {
  if (failure.code !== 'INVALID_INPUT' || !PREFIX.test(failure.message)) return failure;
  const body = failure.message.replace(PREFIX, '').replace(MORE, '');
  const sentences = [...new Set(body.split('; ').map(describe))];
  return { ...failure, message: sentences.join(' ') };
}

/** A call's answer with any failure in person words: both transports (and the tests' fake) hand answers out through this. */
export function withPersonWords<T>(result: Result<T>): Result<T> {
  return result.ok ? result : inPersonWords(result);
}

function describe(part: string): string {
  const match = PATH.exec(part);
  const path = match?.[1];
  const message = (match?.[2] ?? part).trim();
  const field = fieldName(path);
  const zod = zodWords(message);
  if (zod !== undefined) return `${field} ${zod}.`;
  if (message.startsWith('unknown field'))
    return 'Berth sent something the host does not understand. This is a bug in Berth; please report it.';
  // Our schemas' own messages are already written for the person ("Write a message first").
  return sentence(message);
}

/** zod's default messages, as what is wrong with the field; undefined for a message someone wrote on purpose. */
function zodWords(message: string): string | undefined {
  let m = /^Too big: expected (string|array|number|set|map|object) to (?:have|be) <=?(\d+)/.exec(message);
  if (m !== null) {
    const [, kind, limit] = m;
    const n = Number(limit).toLocaleString('en-US');
    if (kind === 'string') return `is too long (at most ${n} characters)`;
    if (kind === 'number') return `must be at most ${n}`;
    return `has too many entries (at most ${n})`;
  }
  m = /^Too small: expected (string|array|number|set|map|object) to (?:have|be) >=?(\d+)/.exec(message);
  if (m !== null) {
    const [, kind, limit] = m;
    const n = Number(limit).toLocaleString('en-US');
    if (kind === 'string') return limit === '1' ? 'is empty' : `is too short (at least ${n} characters)`;
    if (kind === 'number') return `must be at least ${n}`;
    return limit === '1' ? 'is empty' : `needs at least ${n} entries`;
  }
  if (/^Invalid input: expected \w+, received undefined/.test(message)) return 'is missing';
  if (message.startsWith('Invalid option')) return 'is not one of the choices offered';
  if (message.startsWith('Invalid string') || message.startsWith('Invalid format'))
    return 'is not in the expected form';
  if (/^Invalid (input|type|value|element|union|key)/.test(message) || message === 'Invalid input')
    return 'is not valid';
  return undefined;
}

function fieldName(path: string | undefined): string {
  if (path === undefined || path === '') return 'What was entered';
  const segments = path
    .split(/[.[\]]+/)
    .filter((segment) => segment !== '' && !/^\d+$/.test(segment) && !segment.startsWith('"'));
  const last = segments.at(-1);
  if (last === undefined) return 'What was entered';
  const known = FIELD_NAMES[last];
  if (known !== undefined) return known;
  return `The ${last
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()}`;
}

/** Ends it as a sentence; the first letter stays as written (it may be a file name). */
function sentence(message: string): string {
  return /[.!?…]$/.test(message) ? message : `${message}.`;
}
