import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import type { Root } from '../../shared/domain/roots';
import { normalizeRootPath } from './file-uri';
import { errorMessage } from '../../shared/error-message';
import { rootError, type BroadScope, type FolderProblem } from '../../shared/domain/root-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import type { HostMessage } from '../../shared/domain/host-message';

/** A folder that cannot be shared: why, in English and as a code (the renderer words it), and as facts. */
export interface UnusableFolder {
  ok: false;
  code: 'NOT_FOUND' | 'INVALID_INPUT' | 'FORBIDDEN';
  problem: string;
  problemMessage: HostMessage;
  /** What is wrong with the folder itself, as a fact, and the OS's words for it. */
  found: { problem: FolderProblem; path: string; detail: string };
}

/** A root folder as found on disk: fine, or why not (and, for a link that now leads elsewhere, where). */
export type FolderCheck =
  | { ok: true }
  | UnusableFolder
  | {
      ok: false;
      code: 'INVALID_INPUT';
      problem: string;
      problemMessage: HostMessage;
      /** The folder the picked path leads to now, when it is not the one that was shared. */
      retarget: string;
    };

/** Is `path` an existing, readable folder? Says why not, for the person. */
export async function probeFolder(path: string): Promise<{ ok: true } | UnusableFolder> {
  const notUsable = (
    code: 'NOT_FOUND' | 'INVALID_INPUT' | 'FORBIDDEN',
    problem: FolderProblem,
    detail = '',
  ): UnusableFolder => {
    const found = { problem, path, detail };
    const words = rootError('root-errors.folder-unusable', found);
    return { ok: false, code, problem: words.text, problemMessage: words.hostMessage, found };
  };
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
    const words = rootError('root-errors.link-moved', { picked, real, shared: root.path });
    return { ok: false, code: 'INVALID_INPUT', problem: words.text, problemMessage: words.hostMessage, retarget: real };
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
): Promise<CodedText | undefined> {
  const realHome = (await realFolder(home, platform)) ?? home;
  const sep = platform === 'win32' ? '\\' : '/';
  const isDriveRoot =
    platform === 'win32' ? /^[A-Za-z]:\\?$/.test(real) || /^\\\\[^\\]+\\[^\\]+\\?$/.test(real) : real === '/';
  const same = (a: string, b: string) =>
    platform === 'win32' || platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b;
  let scope: BroadScope | undefined;
  if (isDriveRoot) scope = 'fileSystem';
  else if (same(real, realHome)) scope = 'home';
  else if (same(realHome.slice(0, real.length + 1), `${real}${sep}`)) scope = 'holdsHome';
  if (scope === undefined) return undefined;
  return rootError('root-errors.broad-folder', { path: real, scope, home: realHome });
}
