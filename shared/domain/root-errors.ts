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
  'root-errors.not-removed': { id: string };
  'root-errors.root-again': { path: string; name: string };
  'root-errors.server-name-missing': Record<string, never>;
  'root-errors.broad-folder': { path: string; scope: BroadScope; home: string };
  'root-errors.save-blocked': { file: string; detail: string };
  'root-errors.save-failed': { file: string; detail: string };
  'root-errors.no-folder-dialog': { shell: 'browser' | 'window' };
  'root-errors.removed-already': { id: string };
  'root-errors.folder-unusable': { path: string; problem: FolderProblem; detail: string };
  'root-errors.link-moved': { picked: string; real: string; shared: string };
  'root-errors.path-empty': Record<string, never>;
  'root-errors.path-nul': { path: string };
  'root-errors.path-dot-segment': { path: string; segment: string };
  'root-errors.path-windows-name': { path: string; name: string };
  'root-errors.path-windows-on-posix': { path: string };
  'root-errors.path-relative-posix': { path: string };
  'root-errors.path-device': { path: string };
  'root-errors.path-unc-incomplete': { path: string };
  'root-errors.path-bad-host': { path: string; host: string };
  'root-errors.path-drive-relative': { path: string; drive: string };
  'root-errors.path-no-drive': { path: string };
  'root-errors.path-relative-windows': { path: string };
  'root-errors.path-not-unicode': { path: string };
};
export type RootErrorCode = keyof RootErrorMessages;

/** How much of the person's files a folder holds: the whole file system, the home folder, or a folder holding it. */
export type BroadScope = 'fileSystem' | 'home' | 'holdsHome';

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
  'root-errors.not-removed': ({ id }) => `root '${id}' cannot be restored: it was not removed since Berth started`,
  'root-errors.root-again': ({ path, name }) => `${path} is a root again already, named '${name}'`,
  'root-errors.server-name-missing': () => 'a server name is required',
  'root-errors.broad-folder': ({ path, scope, home }) => {
    const what =
      scope === 'fileSystem'
        ? 'the whole file system'
        : scope === 'home'
          ? 'your home folder'
          : `a folder that holds your home folder (${home})`;
    return `${path} is ${what}: every server you allow would see and could change all of your files in it, not just one project's. Share it only if you mean to.`;
  },
  'root-errors.save-blocked': ({ file, detail }) => `Not saving roots to ${file}: ${detail}`,
  'root-errors.save-failed': ({ file, detail }) => `Could not save ${file}: ${detail}`,
  'root-errors.no-folder-dialog': ({ shell }) =>
    `${shell === 'browser' ? 'Berth runs in a browser tab here, which cannot open a system folder dialog' : 'this Berth window has no folder dialog'}: use the folder browser (roots.browse) instead`,
  'root-errors.removed-already': ({ id }) => `no root '${id}': it may have been removed already`,
  'root-errors.folder-unusable': ({ path, problem, detail }) => folderProblemText(problem, path, detail),
  'root-errors.link-moved': ({ picked, real, shared }) =>
    `${picked} now leads to ${real}, not to ${shared} that you shared`,
  'root-errors.path-empty': () => 'the folder path is empty',
  'root-errors.path-nul': ({ path }) => `'${path}' contains a NUL character`,
  'root-errors.path-dot-segment': ({ path, segment }) =>
    `'${path}' contains a '${segment}' segment; give the folder's full path without '.' or '..'`,
  'root-errors.path-windows-name': ({ path, name }) =>
    `'${path}': the name '${name}' contains a character Windows does not allow in file names (< > : " | ? * or a control character)`,
  'root-errors.path-windows-on-posix': ({ path }) =>
    `'${path}' is a Windows path, but Berth is running on a POSIX system here; give a path such as /home/me/project`,
  'root-errors.path-relative-posix': ({ path }) =>
    `'${path}' is a relative path; give the folder's absolute path, starting with /`,
  'root-errors.path-device': ({ path }) =>
    `'${path}' is a Windows device path (\\\\?\\ or \\\\.\\); give a normal folder path such as C:\\Users\\me`,
  'root-errors.path-unc-incomplete': ({ path }) =>
    `'${path}' is an incomplete network path; write it as \\\\server\\share\\folder`,
  'root-errors.path-bad-host': ({ path, host }) => `'${path}': '${host}' is not a valid server name`,
  'root-errors.path-drive-relative': ({ path, drive }) =>
    `'${path}' is relative to the current folder of drive ${drive}; write ${drive}\\ and the full path`,
  'root-errors.path-no-drive': ({ path }) => `'${path}' has no drive letter; write the full path such as C:${path}`,
  'root-errors.path-relative-windows': ({ path }) =>
    `'${path}' is a relative path; give the folder's full path such as C:\\Users\\me\\project`,
  'root-errors.path-not-unicode': ({ path }) =>
    `'${path}' contains text that is not valid Unicode (a lone surrogate) and cannot be put in a URI`,
});
