import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import type { Root } from '../../shared/domain/roots';
import { normalizeRootPath } from './file-uri';
import { errorMessage } from '../../shared/error-message';
import { folderProblemText, type FolderProblem } from '../../shared/domain/root-errors';

/** A root folder as found on disk: fine, or why not in words (and, for a link that now leads elsewhere, where). */
export type FolderCheck =
  | { ok: true }
  | {
      ok: false;
      code: 'NOT_FOUND' | 'INVALID_INPUT' | 'FORBIDDEN';
      problem: string;
      /** What is wrong with the folder itself, as a fact (probeFolder), and the OS's words for it; absent for a moved link. */
      found?: { problem: FolderProblem; path: string; detail: string };
      /** The folder the picked path leads to now, when it is not the one that was shared. */
      retarget?: string;
    };

/** Is `path` an existing, readable folder? Says why not in words for the person. */
export async function probeFolder(path: string): Promise<FolderCheck> {
  const notUsable = (code: 'NOT_FOUND' | 'INVALID_INPUT' | 'FORBIDDEN', problem: FolderProblem, detail = '') => ({
    ok: false as const,
    code,
    problem: folderProblemText(problem, path, detail),
    found: { problem, path, detail },
  });
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return notUsable('NOT_FOUND', 'missing');
    if (code === 'EACCES' || code === 'EPERM') return notUsable('FORBIDDEN', 'unreachable');
    return notUsable('NOT_FOUND', 'unchecked', errorMessage(error));
  }
  if (!isDirectory) return notUsable('INVALID_INPUT', 'notFolder');
  try {
    // Listing a folder needs read and search (x) permission.
    await access(path, constants.R_OK | constants.X_OK);
  } catch {
    return notUsable('FORBIDDEN', 'unreadable');
  }
  return { ok: true };
}

/** The folder `path` really is, every symbolic link on the way resolved; undefined if it cannot be resolved (probeFolder says why). */
export async function realFolder(path: string, platform: NodeJS.Platform): Promise<string | undefined> {
  try {
    return normalizeRootPath(await realpath(path), platform);
  } catch {
    return undefined;
  }
}

/**
 * Look at one root: the path the person picked must still lead to the very
 * folder that was shared (`root.path`, a real path). A symbolic link that
 * now points elsewhere is held back, with where it leads, until the person
 * confirms the new folder: a server must never be handed a folder nobody
 * chose. Checked at start-up and each time a server asks for its roots.
 */
export async function checkRootFolder(root: Root, platform: NodeJS.Platform): Promise<FolderCheck> {
  const picked = root.linkPath ?? root.path;
  const real = await realFolder(picked, platform);
  if (real === undefined) return probeFolder(picked);
  if (real !== root.path) {
    return {
      ok: false,
      code: 'INVALID_INPUT',
      problem: `${picked} now leads to ${real}, not to ${root.path} that you shared`,
      retarget: real,
    };
  }
  return probeFolder(root.path);
}

/**
 * Why sharing `real` needs an explicit yes, or undefined: the file-system
 * root (or a drive), the home folder, or a folder holding it, give a server
 * every file of the person's (keys, mail, browser profiles), not a project.
 */
export async function broadFolderWarning(
  real: string,
  platform: NodeJS.Platform,
  home = homedir(),
): Promise<string | undefined> {
  const realHome = (await realFolder(home, platform)) ?? home;
  const sep = platform === 'win32' ? '\\' : '/';
  const isDriveRoot =
    platform === 'win32' ? /^[A-Za-z]:\\?$/.test(real) || /^\\\\[^\\]+\\[^\\]+\\?$/.test(real) : real === '/';
  const same = (a: string, b: string) =>
    platform === 'win32' || platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b;
  let what: string | undefined;
  if (isDriveRoot) what = 'the whole file system';
  else if (same(real, realHome)) what = 'your home folder';
  else if (same(realHome.slice(0, real.length + 1), `${real}${sep}`))
    what = `a folder that holds your home folder (${realHome})`;
  if (what === undefined) return undefined;
  return `${real} is ${what}: every server you allow would see and could change all of your files in it, not just one project's. Share it only if you mean to.`;
}
