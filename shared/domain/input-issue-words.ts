import type { z } from 'zod';
import { bridgeError } from './bridge-errors';
import type { CodedText } from './host-wording';

// zod's own messages start so; a schema's own sentence for the person ("Write a message first") does not.
const ZOD_DEFAULT = /^(Too big|Too small|Invalid|Unrecognized key)/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * What is wrong with one field of a call's input, as the person reads it (a code with the field's key and its
 * limit): the router's message stays written for developers, the renderer words this one.
 */
export function inputIssueWords(issues: readonly z.core.$ZodIssue[]): CodedText | undefined {
  const first = issues[0];
  if (first === undefined) return undefined;
  const words = issueWords(first);
  if (words.hostMessage.code !== 'bridge-errors.schema-words') return words;
  // The schema's own sentences are the person's already (an attachment that is not an image and not base64):
  // all of them read as one, as the router's message lists them.
  const own = issues.slice(0, MAX_OWN_SENTENCES).map(issueWords);
  const sentences = [
    ...new Set(
      own.flatMap(({ hostMessage }) =>
        hostMessage.code === 'bridge-errors.schema-words' ? [String(hostMessage.params?.detail)] : [],
      ),
    ),
  ];
  return bridgeError('bridge-errors.schema-words', { field: fieldKey(first.path), detail: sentences.join(' ') });
}

/** As many problems as the router's message lists. */
const MAX_OWN_SENTENCES = 3;

function issueWords(issue: z.core.$ZodIssue): CodedText {
  const field = fieldKey(issue.path);
  if (issue.code === 'unrecognized_keys') return bridgeError('bridge-errors.unknown-field', { field });
  if (issue.code === 'invalid_key') {
    // A record's key refused by the schema's own words ("Environment variable names …"): those are the person's.
    const own = issue.issues.map((inner) => inner.message).filter((message) => !ZOD_DEFAULT.test(message));
    return own.length > 0
      ? bridgeError('bridge-errors.schema-words', { field, detail: sentence(own.join('; ')) })
      : bridgeError('bridge-errors.not-valid', { field });
  }
  if (!ZOD_DEFAULT.test(issue.message))
    return bridgeError('bridge-errors.schema-words', { field, detail: sentence(issue.message) });
  switch (issue.code) {
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return bridgeError('bridge-errors.too-long', { field, max });
      if (isNumeric(issue.origin)) return bridgeError('bridge-errors.at-most', { field, max });
      return bridgeError('bridge-errors.too-many', { field, max });
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (isNumeric(issue.origin)) return bridgeError('bridge-errors.at-least', { field, min });
      if (min <= 1) return bridgeError('bridge-errors.empty', { field });
      if (issue.origin === 'string') return bridgeError('bridge-errors.too-short', { field, min });
      return bridgeError('bridge-errors.too-few', { field, min });
    }
    case 'invalid_type':
      return /received undefined$/.test(issue.message)
        ? bridgeError('bridge-errors.missing', { field })
        : bridgeError('bridge-errors.not-valid', { field });
    case 'invalid_value':
      return bridgeError('bridge-errors.not-a-choice', { field });
    case 'invalid_format':
      return bridgeError('bridge-errors.bad-form', { field });
    default:
      return bridgeError('bridge-errors.not-valid', { field });
  }
}

/** Ends it as a sentence; the first letter stays as written (it may be a file name). */
function sentence(message: string): string {
  return /[.!?…]$/.test(message) ? message : `${message}.`;
}

function isNumeric(origin: string): boolean {
  return origin === 'number' || origin === 'int' || origin === 'bigint';
}

/** The field the person knows: the last named key of the path (`attachments[0].content.data` → `data`), '' for the whole input. */
function fieldKey(path: readonly PropertyKey[]): string {
  for (let index = path.length - 1; index >= 0; index--) {
    const segment = path[index];
    if (typeof segment === 'string' && IDENTIFIER.test(segment)) return segment;
  }
  return '';
}
