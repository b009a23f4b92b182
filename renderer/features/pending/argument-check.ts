import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { errorMessage } from '../../../shared/error-message';
import type { MessageId } from '../../i18n/message-ids';
import { translate } from '../../i18n/use-t';

// Edited tool arguments checked against the tool's input schema, in the consent
// dialog. The MCP SDK's cf-worker validator is used because it interprets the
// schema without eval or `new Function` (the renderer's CSP has no
// 'unsafe-eval', which rules Ajv out), and it ships inside the SDK the host
// already depends on. It reports every failure as "<JSON pointer>: <words>"
// joined by "; "; `argumentIssues` turns that into one line per real problem.

/** What the check found: the problems (empty: the arguments match), or why the schema could not be used. */
export type ArgumentCheck = { issues: string[] } | { unchecked: string };

/** Lines that only say a child failed; the child's own line says how. */
const SUMMARY =
  /^(?:Property ".*" does not match schema|Items did not match schema|Property ".*" does not match additional properties schema|Instance does not match (?:every|all) subschemas?.*)\.$/;
// The validator's own words, matched, never shown.
// eslint-disable-next-line lingui/no-unlocalized-strings -- compared with the validator's output
const FALSE_SCHEMA = 'False boolean schema.';

/** `#/items/0/name` → `items[0].name`; `#` → `(the arguments)`. */
export function pointerLabel(pointer: string): string {
  const parts = pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => {
      let decoded = part;
      try {
        decoded = decodeURIComponent(part);
      } catch {
        // A malformed escape stays as written.
      }
      return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    });
  if (parts.length === 0) return translate('pending.args.whole');
  return parts.map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

const TYPE_WORDS: Record<string, MessageId> = {
  array: 'pending.args.typeArray',
  object: 'pending.args.typeObject',
  integer: 'pending.args.typeInteger',
  null: 'pending.args.typeNull',
  string: 'pending.args.typeString',
  number: 'pending.args.typeNumber',
  boolean: 'pending.args.typeBoolean',
};

function typeWords(type: string): string {
  const id = TYPE_WORDS[type];
  return id === undefined ? translate('pending.args.typeOther', { type }) : translate(id);
}

/** The validator's words for one failure, as a person reads them. */
function plainWords(words: string): { words: string; property?: string } {
  const type = /^Instance type "(\w+)" is invalid\. Expected "(\w+)"\.$/.exec(words);
  if (type)
    return {
      words: translate('pending.args.expected', { expected: typeWords(type[2]!), actual: typeWords(type[1]!) }),
    };
  const required = /^Instance does not have required property "(.*)"\.$/.exec(words);
  if (required) return { words: translate('pending.args.missing'), property: required[1]! };
  const oneOf = /^Instance does not match any of (\[.*\])\.$/.exec(words);
  if (oneOf) return { words: translate('pending.args.oneOf', { values: oneOf[1]! }) };
  if (words === FALSE_SCHEMA) return { words: translate('pending.args.notTaken') };
  return { words: words.replace(/\.$/, '') };
}

/** One line per problem from the validator's message, summaries and follow-on noise left out. */
export function argumentIssues(message: string): string[] {
  const failures = message
    .split(/; (?=#)/)
    .map((entry) => {
      const colon = entry.indexOf(': ');
      return colon === -1
        ? { pointer: '#', words: entry.trim() }
        : { pointer: entry.slice(0, colon), words: entry.slice(colon + 2).trim() };
    })
    .filter((failure) => !SUMMARY.test(failure.words));
  const issues: string[] = [];
  for (const failure of failures) {
    // additionalProperties: false also rejects a declared property whose value failed: that one has its own line below it.
    if (
      failure.words === FALSE_SCHEMA &&
      failures.some(
        (other) =>
          other !== failure &&
          other.words !== FALSE_SCHEMA &&
          (other.pointer === failure.pointer || other.pointer.startsWith(`${failure.pointer}/`)),
      )
    )
      continue;
    const plain = plainWords(failure.words);
    const pointer = plain.property === undefined ? failure.pointer : `${failure.pointer}/${plain.property}`;
    const line = `${pointerLabel(pointer)}: ${plain.words}`;
    if (!issues.includes(line)) issues.push(line);
  }
  return issues.length > 0 ? issues : [message];
}

/**
 * A checker for one tool's input schema (built once per dialog, then run on every edit).
 * A schema the validator cannot use is reported, never thrown.
 */
export function argumentChecker(schema: Record<string, unknown>): (value: Record<string, unknown>) => ArgumentCheck {
  let validate: ReturnType<CfWorkerJsonSchemaValidator['getValidator']>;
  try {
    validate = new CfWorkerJsonSchemaValidator({ shortcircuit: false }).getValidator(schema);
  } catch (error) {
    const unchecked = errorMessage(error);
    return () => ({ unchecked });
  }
  return (value) => {
    try {
      const result = validate(value);
      return result.valid
        ? { issues: [] }
        : { issues: argumentIssues(result.errorMessage ?? translate('pending.args.noMatch')) };
    } catch (error) {
      return { unchecked: errorMessage(error) };
    }
  };
}
