import { typeWords, type JsonType } from './config-problems';
import { codedFamily } from './host-wording';
import type { NestedReason } from './server-state-reasons';

/**
 * Why a server of another app's config cannot be imported as chosen, or how it matches a server Berth has, as
 * codes with their facts; the renderer words them from renderer/i18n/locales/<locale>/config-import-errors.json.
 * `field` is the entry's field (`args.2`, `env.TOKEN`), `input` a VS Code input's id and `description` its text
 * from the file; `detail` is a parser's or a schema's own words.
 */
export type ConfigImportErrorMessages = {
  'config-import-errors.undeclared-input': { field: string; input: string };
  'config-import-errors.enter-value': { description: string; input: string };
  'config-import-errors.not-a-choice': { answer: string; description: string; choices: string };
  'config-import-errors.env-not-set': { field: string; variable: string };
  'config-import-errors.env-not-set-no-default': { field: string; variable: string };
  'config-import-errors.needs-project-folder': { field: string };
  'config-import-errors.variable-unknown': { field: string; variable: string };
  'config-import-errors.no-command-or-url': { server: string };
  'config-import-errors.needs-value': { server: string; description: string; input: string };
  /** `list` is each missing input as the file names it, `"description" (input "id")`, joined. */
  'config-import-errors.needs-values': { server: string; list: string };
  'config-import-errors.invalid-after-fill': { server: string; field: string; detail: string };
  'config-import-errors.folder-not-absolute': { folder: string };
  /** The file's first problem nested (`reason`, with its code). */
  'config-import-errors.file-unreadable': NestedReason;
  'config-import-errors.file-unreadable-at': { line: number; column: number } & NestedReason;
  'config-import-errors.selected-twice': { server: string };
  'config-import-errors.no-longer-in-file': { server: string };
  'config-import-errors.name-taken': { name: string };
  'config-import-errors.name-twice': { name: string; other: string };
  'config-import-errors.duplicate-name': { name: string };
  'config-import-errors.duplicate-command': { name: string };
  // A malformed foreign file: `server` is the entry's name in the file, `key` a field's dotted path inside it,
  // `found` what the file holds there; `detail` is the schema's own words.
  'config-import-errors.file-empty': Record<string, never>;
  'config-import-errors.file-not-object': { found: JsonType };
  /** `key` is `servers` (VS Code) or `mcpServers`; `other` is the other one, which the file has. */
  'config-import-errors.no-section': { key: string };
  'config-import-errors.no-section-other': { key: string; other: string };
  'config-import-errors.section-not-object': { key: string; found: JsonType };
  'config-import-errors.server-name-twice': { server: string };
  'config-import-errors.entry-not-object': { server: string; found: JsonType };
  /** `found` is the file's value as JSON text. */
  'config-import-errors.type-unknown': { server: string; found: string };
  'config-import-errors.url-missing': { server: string; found: JsonType };
  'config-import-errors.headers-not-object': { found: JsonType };
  'config-import-errors.header-not-string': { key: string; found: JsonType };
  'config-import-errors.command-and-url': { server: string };
  'config-import-errors.command-missing': { server: string };
  'config-import-errors.wrong-type': { server: string; key: string; expected: string };
  'config-import-errors.invalid-key': { server: string; key: string; detail: string };
  'config-import-errors.invalid-field': { server: string; key: string; detail: string };
  'config-import-errors.invalid-entry': { server: string; detail: string };
  'config-import-errors.env-file': { server: string };
  'config-import-errors.input-not-declared': { server: string; input: string };
  'config-import-errors.input-not-valid': { server: string; input: string };
  'config-import-errors.password-in-args': { server: string };
  'config-import-errors.inputs-not-array': { found: JsonType };
  /** `position` counts from 1, as a person counts the inputs in the file. */
  'config-import-errors.input-not-object': { position: number; found: JsonType };
  'config-import-errors.input-id-missing': { position: number };
  'config-import-errors.input-id-twice': { input: string };
  /** `found` is the file's value as JSON text. */
  'config-import-errors.input-type': { input: string; found: string };
  'config-import-errors.input-type-missing': { input: string };
  'config-import-errors.input-description': { input: string };
  'config-import-errors.input-password': { input: string };
  'config-import-errors.input-default': { input: string };
  'config-import-errors.input-options': { input: string };
  // The JSON parser's errors said of a foreign file (the others are config-problems.syntax's).
  'config-import-errors.comment': Record<string, never>;
  'config-import-errors.comment-not-closed': Record<string, never>;
  /** `found` is the bracket after the comma, `}` or `]`. */
  'config-import-errors.trailing-comma': { found: string };
};
export type ConfigImportErrorCode = keyof ConfigImportErrorMessages;

/** An import's refusal or note in English with its code (the English is what Berth always said). */
export const configImportError = codedFamily<ConfigImportErrorMessages>({
  'config-import-errors.undeclared-input': ({ field, input }) =>
    `"${field}" uses the input "${input}", which the file does not declare`,
  'config-import-errors.enter-value': ({ description, input }) =>
    `Enter a value for "${description}" (input "${input}")`,
  'config-import-errors.not-a-choice': ({ answer, description, choices }) =>
    `"${answer}" is not one of the choices for "${description}" (${choices})`,
  'config-import-errors.env-not-set': ({ field, variable }) =>
    `"${field}" uses the environment variable ${variable}, which is not set`,
  'config-import-errors.env-not-set-no-default': ({ field, variable }) =>
    `"${field}" uses the environment variable ${variable}, which is not set and has no default`,
  'config-import-errors.needs-project-folder': ({ field }) =>
    `"${field}" uses \${workspaceFolder}: choose the project folder this file belongs to`,
  'config-import-errors.variable-unknown': ({ field, variable }) =>
    `"${field}" uses \${${variable}}: Berth cannot fill it in, edit the value by hand`,
  'config-import-errors.no-command-or-url': ({ server }) =>
    `Server "${server}" cannot be imported: it has neither a command nor a url`,
  'config-import-errors.needs-value': ({ server, description, input }) =>
    `Server "${server}" needs a value for "${description}" (input "${input}")`,
  'config-import-errors.needs-values': ({ server, list }) => `Server "${server}" needs a value for ${list}`,
  'config-import-errors.invalid-after-fill': ({ server, field, detail }) =>
    `Server "${server}": after filling in the values, "${field}" is invalid: ${detail}`,
  'config-import-errors.folder-not-absolute': ({ folder }) =>
    `The project folder must be an absolute path (got "${folder}")`,
  'config-import-errors.file-unreadable': ({ reason }) => `The file cannot be read (${reason}): nothing was imported`,
  'config-import-errors.file-unreadable-at': ({ line, column, reason }) =>
    `The file cannot be read (line ${line}, column ${column}: ${reason}): nothing was imported`,
  'config-import-errors.selected-twice': ({ server }) => `Server "${server}" is selected twice: import it once`,
  'config-import-errors.no-longer-in-file': ({ server }) =>
    `Server "${server}" is no longer in the file: preview it again`,
  'config-import-errors.name-taken': ({ name }) => `Berth already has a server named "${name}": choose another name`,
  'config-import-errors.name-twice': ({ name, other }) =>
    `"${other}" is also being imported as "${name}": give each server its own name`,
  'config-import-errors.duplicate-name': ({ name }) => `Berth already has a server named "${name}"`,
  'config-import-errors.duplicate-command': ({ name }) => `Berth already runs the same command as "${name}"`,
  'config-import-errors.file-empty': () => 'The file is empty: there is nothing to import',
  'config-import-errors.file-not-object': ({ found }) => `The file must hold a JSON object (found ${typeWords(found)})`,
  'config-import-errors.no-section': ({ key }) => `The file has no "${key}" section: there are no servers to import.`,
  'config-import-errors.no-section-other': ({ key, other }) =>
    `The file has no "${key}" section: there are no servers to import. It has "${other}": is it a ${key === 'servers' ? 'Claude Desktop, Cursor or .mcp.json' : 'VS Code mcp.json'} file?`,
  'config-import-errors.section-not-object': ({ key, found }) =>
    `"${key}" must be an object mapping server names to their settings (found ${typeWords(found)})`,
  'config-import-errors.server-name-twice': ({ server }) =>
    `Two servers are named "${server}": the file is ambiguous, rename or remove one`,
  'config-import-errors.entry-not-object': ({ server, found }) =>
    `Server "${server}" must be an object like { "command": "npx", "args": [] } (found ${typeWords(found)})`,
  'config-import-errors.type-unknown': ({ server, found }) =>
    `Server "${server}": "type" must be "stdio", "http" or "sse" (found ${found})`,
  'config-import-errors.url-missing': ({ server, found }) =>
    `Server "${server}": "url" must be the server's address (found ${typeWords(found)})`,
  'config-import-errors.headers-not-object': ({ found }) =>
    `"headers" must be an object of header (found ${typeWords(found)})`,
  'config-import-errors.header-not-string': ({ key, found }) =>
    `header "${key}" must be a string (found ${typeWords(found)})`,
  'config-import-errors.command-and-url': ({ server }) =>
    `Server "${server}" has both "command" and "url": keep only one`,
  'config-import-errors.command-missing': ({ server }) => `Server "${server}": "command" is missing`,
  'config-import-errors.wrong-type': ({ server, key, expected }) =>
    `Server "${server}": "${key}" must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`,
  'config-import-errors.invalid-key': ({ server, key, detail }) =>
    `Server "${server}": "${key}" has an invalid name: ${detail}`,
  'config-import-errors.invalid-field': ({ server, key, detail }) => `Server "${server}": "${key}": ${detail}`,
  'config-import-errors.invalid-entry': ({ server, detail }) => `Server "${server}": ${detail}`,
  'config-import-errors.env-file': ({ server }) =>
    `Server "${server}": "envFile" is not imported; add its variables to the server's environment in Berth`,
  'config-import-errors.input-not-declared': ({ server, input }) =>
    `Server "${server}" uses "\${input:${input}}", but no input with id "${input}" is declared under "inputs"`,
  'config-import-errors.input-not-valid': ({ server, input }) =>
    `Server "${server}" uses the input "${input}", which is not valid (see its problem)`,
  'config-import-errors.password-in-args': ({ server }) =>
    `Server "${server}" passes a password input in its arguments: it will be stored in Berth's config file in plain text`,
  'config-import-errors.inputs-not-array': ({ found }) => `"inputs" must be an array (found ${typeWords(found)})`,
  'config-import-errors.input-not-object': ({ position, found }) =>
    `Input ${position} must be an object (found ${typeWords(found)})`,
  'config-import-errors.input-id-missing': ({ position }) => `Input ${position}: "id" must be a non-empty string`,
  'config-import-errors.input-id-twice': ({ input }) => `Two inputs have the id "${input}": keep only one`,
  'config-import-errors.input-type': ({ input, found }) =>
    `Input "${input}": "type" must be "promptString" or "pickString" (found ${found})`,
  'config-import-errors.input-type-missing': ({ input }) =>
    `Input "${input}": "type" must be "promptString" or "pickString" (found nothing)`,
  'config-import-errors.input-description': ({ input }) => `Input "${input}": "description" must be a string`,
  'config-import-errors.input-password': ({ input }) => `Input "${input}": "password" must be true or false`,
  'config-import-errors.input-default': ({ input }) => `Input "${input}": "default" must be a string`,
  'config-import-errors.input-options': ({ input }) =>
    `Input "${input}": a pickString needs "options", a non-empty array of strings`,
  'config-import-errors.comment': () => 'Comments are not allowed in this file: it is strict JSON',
  'config-import-errors.comment-not-closed': () => 'A comment is not closed',
  'config-import-errors.trailing-comma': ({ found }) =>
    `Trailing comma before '${found}': this file is strict JSON, remove the ','`,
});
