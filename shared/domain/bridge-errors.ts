import { codedFamily } from './host-wording';
import { isNamedField, keyInWords, type NamedField } from './bridge-fields';

export { isNamedField, keyInWords };

/** The named fields in English (the catalog's `bridge-errors.field.<key>` words them for the person). */
export const NAMED_FIELDS: Record<NamedField, string> = {
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

/**
 * The bridge's own refusals (app/bridge/router.ts, ws-server.ts, app/host.ts), as codes with their facts; the
 * renderer words them from renderer/i18n/locales/<locale>/bridge-errors.json. `detail` is a thrown error's own words.
 *
 * A call whose input does not fit the contract is coded by what is wrong with its first field (`field`, the
 * schema key, which the renderer words as the field's name): these codes' English is the person's sentence
 * ("The message is too long (at most 100,000 characters)."), while the failure's `message` keeps the router's
 * words for developers ("Invalid input for chat.send: text: Too big: …"), which tests and logs read.
 */
export type BridgeErrorMessages = {
  'bridge-errors.unknown-method': { method: string };
  /** `type` is what came instead of a name: `null`, `array` or a JavaScript typeof. */
  'bridge-errors.method-not-string': { type: string };
  'bridge-errors.input-unreadable': { method: string; detail: string };
  'bridge-errors.bug': { method: string; detail: string };
  'bridge-errors.bug-dispatching': { detail: string };
  'bridge-errors.reply-not-serializable': { detail: string };
  'bridge-errors.shutting-down': Record<string, never>;
  'bridge-errors.too-long': { field: string; max: number };
  'bridge-errors.at-most': { field: string; max: number };
  'bridge-errors.too-many': { field: string; max: number };
  'bridge-errors.empty': { field: string };
  'bridge-errors.too-short': { field: string; min: number };
  'bridge-errors.at-least': { field: string; min: number };
  'bridge-errors.too-few': { field: string; min: number };
  'bridge-errors.missing': { field: string };
  'bridge-errors.not-a-choice': { field: string };
  'bridge-errors.bad-form': { field: string };
  'bridge-errors.not-valid': { field: string };
  'bridge-errors.unknown-field': { field: string };
  /** A contract schema's own sentence for the person ("Write a message first"), shown as written. */
  'bridge-errors.schema-words': { field: string; detail: string };
};
export type BridgeErrorCode = keyof BridgeErrorMessages;

/** "The message": a field in English; '' is the input as a whole. */
function fieldWords(field: string): string {
  if (field === '') return 'What was entered';
  return isNamedField(field) ? NAMED_FIELDS[field] : `The ${keyInWords(field)}`;
}

const count = (value: number): string => value.toLocaleString('en-US');

/** A bridge refusal in English with its code. */
export const bridgeError = codedFamily<BridgeErrorMessages>({
  'bridge-errors.unknown-method': ({ method }) => `Unknown method ${method}`,
  'bridge-errors.method-not-string': ({ type }) =>
    `Unknown method (${type === 'null' ? 'null' : type === 'array' ? 'an array' : `a ${type}`}; the method name must be a string)`,
  'bridge-errors.input-unreadable': ({ method, detail }) => `Invalid input for ${method}: ${detail}`,
  'bridge-errors.bug': ({ method, detail }) => `Berth hit a bug while handling ${method}: ${detail}`,
  'bridge-errors.bug-dispatching': ({ detail }) => `Berth hit a bug while dispatching: ${detail}`,
  'bridge-errors.reply-not-serializable': ({ detail }) => `The reply could not be serialized: ${detail}`,
  'bridge-errors.shutting-down': () => 'Berth is shutting down',
  'bridge-errors.too-long': ({ field, max }) => `${fieldWords(field)} is too long (at most ${count(max)} characters).`,
  'bridge-errors.at-most': ({ field, max }) => `${fieldWords(field)} must be at most ${count(max)}.`,
  'bridge-errors.too-many': ({ field, max }) => `${fieldWords(field)} has too many entries (at most ${count(max)}).`,
  'bridge-errors.empty': ({ field }) => `${fieldWords(field)} is empty.`,
  'bridge-errors.too-short': ({ field, min }) =>
    `${fieldWords(field)} is too short (at least ${count(min)} characters).`,
  'bridge-errors.at-least': ({ field, min }) => `${fieldWords(field)} must be at least ${count(min)}.`,
  'bridge-errors.too-few': ({ field, min }) => `${fieldWords(field)} needs at least ${count(min)} entries.`,
  'bridge-errors.missing': ({ field }) => `${fieldWords(field)} is missing.`,
  'bridge-errors.not-a-choice': ({ field }) => `${fieldWords(field)} is not one of the choices offered.`,
  'bridge-errors.bad-form': ({ field }) => `${fieldWords(field)} is not in the expected form.`,
  'bridge-errors.not-valid': ({ field }) => `${fieldWords(field)} is not valid.`,
  'bridge-errors.unknown-field': () =>
    'Berth sent something the host does not understand. This is a bug in Berth; please report it.',
  'bridge-errors.schema-words': ({ detail }) => detail,
});
