import { codedFamily } from './host-wording';

/**
 * The failures of editing Berth's config file and of importing another app's, as codes with their facts;
 * the renderer words them from renderer/i18n/locales/<locale>/config-errors.json. `file` and `path` are
 * files on disk, `detail` the OS's or the JSON parser's own words, `label` the other app's name.
 */
export type ConfigErrorMessages = {
  'config-errors.file-has-errors': { file: string; detail: string };
  'config-errors.entry-has-errors': { name: string };
  'config-errors.duplicate-keys': { name: string };
  'config-errors.read-failed': { file: string; detail: string };
  'config-errors.write-failed': { file: string; detail: string };
  'config-errors.no-oauth-entry': { name: string };
  'config-errors.issuer-set': { name: string; issuer: string };
  'config-errors.import-folder-relative': { folder: string };
  'config-errors.import-needs-project': { id: string };
  'config-errors.import-missing': { label: string; path: string };
  'config-errors.import-not-file': { path: string };
  'config-errors.import-too-large': { path: string; bytes: number };
  'config-errors.import-unreadable': { path: string; detail: string };
  'config-errors.import-no-sandbox': { reason: string };
  'config-errors.import-no-sandbox-install': { reason: string; install: string };
  'config-errors.edit-invalid': { detail: string };
};
export type ConfigErrorCode = keyof ConfigErrorMessages;

/** A config failure in English with its code (the English is what Berth always said). */
export const configError = codedFamily<ConfigErrorMessages>({
  'config-errors.file-has-errors': ({ file, detail }) =>
    `The config file ${file} has errors (${detail}). Berth will not overwrite it: fix it in the editor first.`,
  'config-errors.entry-has-errors': ({ name }) =>
    `The config entry "${name}" has errors, so Berth cannot store its log level; fix it in the editor first`,
  'config-errors.duplicate-keys': ({ name }) =>
    `The config entry "${name}" has duplicate keys, so an edit would be ambiguous; fix it in the editor first`,
  'config-errors.read-failed': ({ file, detail }) => `Could not read ${file}: ${detail}`,
  'config-errors.write-failed': ({ file, detail }) => `Could not write ${file}: ${detail}`,
  'config-errors.no-oauth-entry': ({ name }) => `No valid server named "${name}" with OAuth settings`,
  'config-errors.issuer-set': ({ name, issuer }) =>
    `Server "${name}" already names its authorization server (${issuer})`,
  'config-errors.import-folder-relative': ({ folder }) =>
    `The project folder must be an absolute path (got "${folder}")`,
  'config-errors.import-needs-project': ({ id }) => `"${id}" is a project file: choose the project folder first`,
  'config-errors.import-missing': ({ label, path }) => `There is no ${label} config at ${path}`,
  'config-errors.import-not-file': ({ path }) => `${path} is not a file`,
  'config-errors.import-too-large': ({ path, bytes }) => `${path} is too large for a config file (${bytes} bytes)`,
  'config-errors.import-unreadable': ({ path, detail }) => `Cannot read ${path}: ${detail}`,
  'config-errors.import-no-sandbox': ({ reason }) =>
    `The sandbox is unavailable here: ${reason}. Turn the sandbox off to import unprotected.`,
  'config-errors.import-no-sandbox-install': ({ reason, install }) =>
    `The sandbox is unavailable here: ${reason}. ${install} Turn the sandbox off to import unprotected.`,
  // A bug in an edit, caught before it reached the disk: `detail` is the first problem of the text it made.
  'config-errors.edit-invalid': ({ detail }) => `Editing the config produced an invalid file: ${detail}`,
});
