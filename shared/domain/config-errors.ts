import { codedFamily } from './host-wording';
import type { NestedReason } from './server-state-reasons';

/** The first problem of a file: its words nested (`reason`, with its code), how many more follow. */
type First = { more: number } & NestedReason;
type FirstAt = { line: number; column: number } & First;

/**
 * The failures of editing Berth's config file and of importing another app's, as codes with their facts;
 * the renderer words them from renderer/i18n/locales/<locale>/config-errors.json. `file` and `path` are
 * files on disk, `detail` the OS's own words, `label` the other app's name.
 */
export type ConfigErrorMessages = {
  'config-errors.file-has-errors': { file: string } & First;
  'config-errors.file-has-errors-at': { file: string } & FirstAt;
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
  'config-errors.edit-invalid': First;
  'config-errors.edit-invalid-at': FirstAt;
  'config-errors.edit-invalid-unknown': Record<string, never>;
};
export type ConfigErrorCode = keyof ConfigErrorMessages;

const andMore = (more: number): string => (more > 0 ? ` (and ${more} more)` : '');

/** A config failure in English with its code (the English is what Berth always said). */
export const configError = codedFamily<ConfigErrorMessages>({
  'config-errors.file-has-errors': ({ file, reason, more }) =>
    `The config file ${file} has errors (${reason}${andMore(more)}). Berth will not overwrite it: fix it in the editor first.`,
  'config-errors.file-has-errors-at': ({ file, line, column, reason, more }) =>
    `The config file ${file} has errors (line ${line}, column ${column}: ${reason}${andMore(more)}). Berth will not overwrite it: fix it in the editor first.`,
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
  'config-errors.edit-invalid': ({ reason, more }) =>
    `Editing the config produced an invalid file: ${reason}${andMore(more)}`,
  'config-errors.edit-invalid-at': ({ line, column, reason, more }) =>
    `Editing the config produced an invalid file: line ${line}, column ${column}: ${reason}${andMore(more)}`,
  'config-errors.edit-invalid-unknown': () => 'Editing the config produced an invalid file: unknown problem',
});
