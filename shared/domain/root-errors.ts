import { codedFamily } from './host-wording';

/** Why a folder cannot be shared as a root (a fact the catalog selects its words by). */
export type FolderProblem = 'missing' | 'unreachable' | 'unchecked' | 'notFolder' | 'unreadable';

/**
 * The failures of adding, browsing and naming roots, as codes with their facts; the renderer words them
 * from renderer/i18n/locales/<locale>/root-errors.json. `detail` is the OS's own words ('' when none).
 */
export type RootErrorMessages = {
  'root-errors.cannot-add': { path: string; problem: FolderProblem; detail: string };
  'root-errors.cannot-share-new': { path: string; problem: FolderProblem; detail: string };
  'root-errors.already-root': { path: string; name: string };
  'root-errors.not-found': { id: string };
  'root-errors.browse-not-folder': { path: string };
  'root-errors.browse-missing': { path: string };
  'root-errors.browse-missing-file-in-path': { path: string };
  'root-errors.browse-forbidden': { path: string };
  'root-errors.browse-failed': { path: string; detail: string };
  'root-errors.name-missing': Record<string, never>;
  'root-errors.name-too-long': { max: number };
  'root-errors.name-control': Record<string, never>;
};
export type RootErrorCode = keyof RootErrorMessages;

/** "the folder /a does not exist": why a folder cannot be a root, in English. */
export function folderProblemText(problem: FolderProblem, path: string, detail: string): string {
  switch (problem) {
    case 'missing':
      return `the folder ${path} does not exist`;
    case 'unreachable':
      return `the folder ${path} cannot be reached (permission denied)`;
    case 'unchecked':
      return `the folder ${path} cannot be checked: ${detail}`;
    case 'notFolder':
      return `${path} is a file, not a folder`;
    case 'unreadable':
      return `the folder ${path} cannot be read (permission denied)`;
  }
}

/** A roots failure in English with its code (the English is what Berth always said). */
export const rootError = codedFamily<RootErrorMessages>({
  'root-errors.cannot-add': ({ path, problem, detail }) =>
    `Cannot add this root: ${folderProblemText(problem, path, detail)}`,
  'root-errors.cannot-share-new': ({ path, problem, detail }) =>
    `Cannot share the new folder: ${folderProblemText(problem, path, detail)}`,
  'root-errors.already-root': ({ path, name }) => `${path} is already a root, named '${name}'`,
  'root-errors.not-found': ({ id }) => `no root '${id}': it may have been removed`,
  'root-errors.browse-not-folder': ({ path }) => `${path} is a file, not a folder`,
  'root-errors.browse-missing': ({ path }) => `There is no folder at ${path}`,
  'root-errors.browse-missing-file-in-path': ({ path }) => `There is no folder at ${path}: part of that path is a file`,
  'root-errors.browse-forbidden': ({ path }) => `Berth may not look inside ${path} (permission denied)`,
  'root-errors.browse-failed': ({ path, detail }) => `Could not list ${path}: ${detail}`,
  'root-errors.name-missing': () => 'a root needs a name',
  'root-errors.name-too-long': ({ max }) => `a root name can be at most ${max} characters`,
  'root-errors.name-control': () => 'a root name cannot contain control characters',
});
