import { codedFamily, type CodedText } from './host-wording';

/**
 * The failures of answering a pending request (a consent, a sampling review, an elicitation form, a root
 * consent), and what is wrong with one field of an elicitation form, as codes with their facts; the renderer
 * words them from renderer/i18n/locales/<locale>/pending-errors.json. `field` is the form's label for a field
 * (the server's words), `detail` the contract's or the MCP schema's own words.
 */
export type PendingErrorMessages = {
  'pending-errors.payload-mismatch': { kind: string; path: string; detail: string };
  'pending-errors.answer-invalid': { kind: string; detail: string };
  'pending-errors.answer-invalid-at': { kind: string; path: string; detail: string };
  'pending-errors.fix-form': { field: string; reason: string; more: number };
  'pending-errors.roots-not-asked': { ids: string };
  'pending-errors.model-not-offered': { model: string };
  'pending-errors.max-tokens-over': { max: number };
  'pending-errors.message-invalid': { index: number; detail: string };
  'pending-errors.answer-content-invalid': { detail: string };
  'pending-errors.answer-one-block': { detail: string };
  'pending-errors.field-required': { field: string; verb: 'enter' | 'choose' };
  'pending-errors.field-text': Record<string, never>;
  'pending-errors.field-too-short': { min: number; now: number };
  'pending-errors.field-too-long': { max: number; now: number };
  'pending-errors.field-email': Record<string, never>;
  'pending-errors.field-uri': Record<string, never>;
  'pending-errors.field-date': Record<string, never>;
  'pending-errors.field-date-time': Record<string, never>;
  'pending-errors.field-whole-number': Record<string, never>;
  'pending-errors.field-number': Record<string, never>;
  'pending-errors.field-number-size': Record<string, never>;
  'pending-errors.field-fraction': { value: string };
  'pending-errors.field-between': { min: number; max: number };
  'pending-errors.field-at-least': { min: number };
  'pending-errors.field-at-most': { max: number };
  'pending-errors.field-one-of-listed': Record<string, never>;
  'pending-errors.field-from-listed': Record<string, never>;
  'pending-errors.field-only-listed': { values: string };
  'pending-errors.field-each-once': Record<string, never>;
  'pending-errors.field-min-options': { min: number };
  'pending-errors.field-max-options': { max: number };
  'pending-errors.field-yes-no': Record<string, never>;
  'pending-errors.not-a-field': { key: string };
};
export type PendingErrorCode = keyof PendingErrorMessages;

const counted = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A pending request's failure, or a form field's problem, in English with its code (the English is what Berth always said). */
export const pendingError = codedFamily<PendingErrorMessages>({
  'pending-errors.payload-mismatch': ({ kind, path, detail }) =>
    `pending ${kind} payload does not match the contract at ${path}: ${detail}`,
  'pending-errors.answer-invalid': ({ kind, detail }) => `answer to a ${kind} request: ${detail}`,
  'pending-errors.answer-invalid-at': ({ kind, path, detail }) => `answer to a ${kind} request at ${path}: ${detail}`,
  'pending-errors.fix-form': ({ field, reason }) => `Fix the form: ${field}: ${reason}`,
  'pending-errors.roots-not-asked': ({ ids }) => `the answer allows roots that were not asked about: ${ids}`,
  'pending-errors.model-not-offered': ({ model }) =>
    `model '${model}' is not one of the models offered for this request`,
  'pending-errors.max-tokens-over': ({ max }) =>
    `max tokens can be at most the ${max.toLocaleString('en-US')} the server asked for`,
  'pending-errors.message-invalid': ({ index, detail }) =>
    `message ${index} is not a valid MCP sampling message (${detail})`,
  'pending-errors.answer-content-invalid': ({ detail }) =>
    `the edited answer is not valid MCP sampling content (${detail})`,
  'pending-errors.answer-one-block': ({ detail }) =>
    `the edited answer must be one text, image or audio block (${detail})`,
  'pending-errors.field-required': ({ field, verb }) =>
    `${verb === 'choose' ? 'Choose' : 'Enter'} a value for ${field}: it is required`,
  'pending-errors.field-text': () => 'Enter text',
  'pending-errors.field-too-short': ({ min, now }) => `Use at least ${counted(min, 'character')} (now ${now})`,
  'pending-errors.field-too-long': ({ max, now }) => `Use at most ${counted(max, 'character')} (now ${now})`,
  'pending-errors.field-email': () => 'Enter an email address like name@example.com',
  'pending-errors.field-uri': () => 'Enter a full address with its scheme, like https://example.com',
  'pending-errors.field-date': () => 'Enter a real date as YYYY-MM-DD, like 2026-05-01',
  'pending-errors.field-date-time': () => 'Enter a date and time with a time zone, like 2026-05-01T14:30:00Z',
  'pending-errors.field-whole-number': () => 'Enter a whole number, like 42',
  'pending-errors.field-number': () => 'Enter a number, like 3.5',
  'pending-errors.field-number-size': () => 'Enter a number of a usual size',
  'pending-errors.field-fraction': ({ value }) => `Enter a whole number: ${value} has a fraction`,
  'pending-errors.field-between': ({ min, max }) => `Enter a number between ${min} and ${max}`,
  'pending-errors.field-at-least': ({ min }) => `Enter a number of at least ${min}`,
  'pending-errors.field-at-most': ({ max }) => `Enter a number of at most ${max}`,
  'pending-errors.field-one-of-listed': () => 'Choose one of the listed options',
  'pending-errors.field-from-listed': () => 'Choose from the listed options',
  'pending-errors.field-only-listed': ({ values }) => `Choose only listed options (${values} is not one)`,
  'pending-errors.field-each-once': () => 'Choose each option at most once',
  'pending-errors.field-min-options': ({ min }) => `Choose at least ${counted(min, 'option')}`,
  'pending-errors.field-max-options': ({ max }) => `Choose at most ${counted(max, 'option')}`,
  'pending-errors.field-yes-no': () => 'Choose yes or no',
  'pending-errors.not-a-field': ({ key }) => `'${key}' is not a field of this form`,
});

/** What is wrong with one field of an elicitation form: its English and its code. */
export type FieldProblem = CodedText;

/**
 * The host's refusal of a form answer its fields' rules refuse. The English names every field that needs
 * fixing, as Berth always said it; the code carries the first field and its problem (a nested code the
 * renderer words, host-message.tsx) and how many more there are, since the form shows each under its field.
 */
export function fixFormRefusal(problems: readonly { label: string; problem: FieldProblem }[]): CodedText {
  const [first] = problems;
  if (first === undefined) throw new Error('fixFormRefusal needs at least one problem');
  const words = pendingError(
    'pending-errors.fix-form',
    { field: first.label, reason: first.problem.text, more: problems.length - 1 },
    first.problem.hostMessage,
  );
  return {
    text: `Fix the form: ${problems.map(({ label, problem }) => `${label}: ${problem.text}`).join('; ')}`,
    hostMessage: words.hostMessage,
  };
}
