import { codedFamily } from './host-wording';
import type { NestedReason } from './server-state-reasons';

/** A JSON value's type as a fact: what the file holds where something else belongs. */
export type JsonType = 'nothing' | 'null' | 'array' | 'object' | 'string' | 'number' | 'true' | 'false';

/** Which rule a server name breaks (ServerNameSchema's checks, and spaces around it in the file). */
export type NameRule = 'empty' | 'tooLong' | 'characters' | 'spaces';

/**
 * The problems Berth finds in its config file and in a server entry, as codes with their facts; the renderer
 * words them from renderer/i18n/locales/<locale>/config-problems.json. `key` is the field's dotted path inside
 * the entry, `expected` a JSON type's name as the schema gives it (`string`, `array`), `detail` the schema
 * library's own words where Berth has none.
 */
export type ConfigProblemMessages = {
  'config-problems.too-deep': { max: number };
  'config-problems.not-object': { found: JsonType };
  'config-problems.servers-twice': Record<string, never>;
  'config-problems.servers-not-object': { found: JsonType };
  'config-problems.name-twice': { name: string };
  'config-problems.key-twice': { key: string };
  'config-problems.name-not-allowed': { name: string; rule: NameRule };
  'config-problems.name-rule': { rule: NameRule };
  'config-problems.entry-not-object': { name: string; found: JsonType };
  'config-problems.command-missing': { name: string };
  'config-problems.field-missing': { name: string; key: string };
  'config-problems.wrong-type': { name: string; key: string; expected: string; found: JsonType };
  'config-problems.unknown-keys': { name: string; key: string; keys: string; count: number };
  'config-problems.entry-unknown-keys': { name: string; keys: string; count: number };
  /** `error` is the JSON parser's (jsonc-parser's) name for the error, `CommaExpected`: the catalog words each. */
  'config-problems.syntax': { error: string };
  'config-problems.bom': Record<string, never>;
  /** `found` is the bracket after the comma, `}` or `]`. */
  'config-problems.trailing-comma': { found: string };
  /** A syntax problem where the text ends: the problem's own words are the nested reason. */
  'config-problems.ends-early': NestedReason;
};
export type ConfigProblemCode = keyof ConfigProblemMessages;

/** "a string", "an array": a type the schema expects, with its article. */
const withArticle = (type: string): string => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** "a number", "nothing", "true": what the file holds, in the words the messages always used. */
export function typeWords(type: JsonType): string {
  if (type === 'nothing' || type === 'null' || type === 'true' || type === 'false') return type;
  return withArticle(type);
}

const NAME_RULES: Record<NameRule, string> = {
  empty: 'Give the server a name',
  tooLong: 'Keep the name under 64 characters',
  characters: 'Use letters, digits, spaces, dot, dash or underscore, starting with a letter or digit',
  spaces: 'remove the spaces around it',
};

/** The words of a name rule (ServerNameSchema's message for it): the schema and the code say the same. */
export function nameRuleText(rule: NameRule): string {
  return NAME_RULES[rule];
}

/** The JSON parser's errors in words; an error not listed reads as its name. */
export const SYNTAX_WORDS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'Unexpected character',
  InvalidNumberFormat: 'Invalid number',
  PropertyNameExpected: 'Expected a property name in double quotes',
  ValueExpected: 'Expected a value',
  ColonExpected: "Expected ':' after the property name",
  CommaExpected: "Expected ',' between items",
  CloseBraceExpected: "Expected '}' to close the object",
  CloseBracketExpected: "Expected ']' to close the array",
  EndOfFileExpected: 'Unexpected text after the end of the JSON value',
  InvalidCommentToken: "Comments are not allowed: the file is strict JSON (Claude Desktop's format)",
  UnexpectedEndOfComment: "Comments are not allowed: the file is strict JSON (Claude Desktop's format)",
  UnexpectedEndOfString: 'Unterminated string: a closing double quote is missing',
  UnexpectedEndOfNumber: 'Unexpected end of number',
  InvalidUnicode: 'Invalid \\u escape in string',
  InvalidEscapeCharacter: 'Invalid escape sequence in string',
  InvalidCharacter: 'Control characters (like tabs or line breaks) must be escaped inside strings',
};

const unknownKeys = (keys: string, count: number): string => `Unrecognized key${count > 1 ? 's' : ''}: ${keys}`;

/** A config problem in English with its code (the English is what Berth always said). */
export const configProblem = codedFamily<ConfigProblemMessages>({
  'config-problems.too-deep': ({ max }) =>
    `The file nests [ and { more than ${max} levels deep: a config is only a few levels deep, so Berth does not read it`,
  'config-problems.not-object': ({ found }) =>
    `The file must hold a JSON object like { "mcpServers": { … } } (found ${typeWords(found)})`,
  'config-problems.servers-twice': () => '"mcpServers" appears twice: keep only one',
  'config-problems.servers-not-object': ({ found }) =>
    `"mcpServers" must be an object mapping server names to their settings (found ${typeWords(found)})`,
  'config-problems.name-twice': ({ name }) => `Two servers are named "${name}": rename or remove one`,
  'config-problems.key-twice': ({ key }) => `"${key}" appears twice: keep only one`,
  'config-problems.name-not-allowed': ({ name, rule }) =>
    `The server name "${name}" is not allowed: ${nameRuleText(rule)}`,
  'config-problems.name-rule': ({ rule }) => nameRuleText(rule),
  'config-problems.entry-not-object': ({ name, found }) =>
    `Server "${name}": The entry must be an object like { "command": "npx", "args": [] } (found ${typeWords(found)})`,
  'config-problems.command-missing': ({ name }) =>
    `Server "${name}": "command" is missing: enter the command that starts the server (e.g. npx), or a "url" for a remote server`,
  'config-problems.field-missing': ({ name, key }) => `Server "${name}": "${key}" is missing`,
  'config-problems.wrong-type': ({ name, key, expected, found }) =>
    `Server "${name}": "${key}" must be ${withArticle(expected)} (found ${typeWords(found)})`,
  'config-problems.unknown-keys': ({ name, key, keys, count }) =>
    `Server "${name}": "${key}": ${unknownKeys(keys, count)}`,
  'config-problems.entry-unknown-keys': ({ name, keys, count }) =>
    `Server "${name}": The entry: ${unknownKeys(keys, count)}`,
  'config-problems.syntax': ({ error }) =>
    Object.prototype.hasOwnProperty.call(SYNTAX_WORDS, error)
      ? (SYNTAX_WORDS[error] as string)
      : `JSON syntax error (${error})`,
  'config-problems.bom': () => 'The file starts with a byte-order mark (BOM): save it as UTF-8 without BOM',
  'config-problems.trailing-comma': ({ found }) =>
    `Trailing comma before '${found}': JSON does not allow it, remove the ','`,
  'config-problems.ends-early': ({ reason }) => `${reason} (the file ends too early)`,
});
