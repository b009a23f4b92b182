import { codedFamily } from './host-wording';

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
  'config-import-errors.file-unreadable': { detail: string };
  'config-import-errors.file-unreadable-at': { line: number; column: number; detail: string };
  'config-import-errors.selected-twice': { server: string };
  'config-import-errors.no-longer-in-file': { server: string };
  'config-import-errors.name-taken': { name: string };
  'config-import-errors.name-twice': { name: string; other: string };
  'config-import-errors.duplicate-name': { name: string };
  'config-import-errors.duplicate-command': { name: string };
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
  'config-import-errors.file-unreadable': ({ detail }) => `The file cannot be read (${detail}): nothing was imported`,
  'config-import-errors.file-unreadable-at': ({ line, column, detail }) =>
    `The file cannot be read (line ${line}, column ${column}: ${detail}): nothing was imported`,
  'config-import-errors.selected-twice': ({ server }) => `Server "${server}" is selected twice: import it once`,
  'config-import-errors.no-longer-in-file': ({ server }) =>
    `Server "${server}" is no longer in the file: preview it again`,
  'config-import-errors.name-taken': ({ name }) => `Berth already has a server named "${name}": choose another name`,
  'config-import-errors.name-twice': ({ name, other }) =>
    `"${other}" is also being imported as "${name}": give each server its own name`,
  'config-import-errors.duplicate-name': ({ name }) => `Berth already has a server named "${name}"`,
  'config-import-errors.duplicate-command': ({ name }) => `Berth already runs the same command as "${name}"`,
});
