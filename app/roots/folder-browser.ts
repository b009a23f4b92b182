import { constants } from 'node:fs';
import type { Dirent } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import type { FolderEntry, FolderListing } from '../../shared/contract/roots';
import { HostError } from '../../shared/result';
import { rootError } from '../../shared/domain/root-errors';
import { normalizeRootPath } from './file-uri';
import { errorMessage } from '../../shared/error-message';

/** Options for {@linkcode listFolders}. */
export interface FolderBrowserOptions {
  /** The folder listed when no path is given (default: the person's home folder). */
  home?: string;
  /** Path flavour (default `process.platform`). */
  platform?: NodeJS.Platform;
  /** At most this many sub-folders are returned (default {@linkcode MAX_FOLDER_ENTRIES}). */
  maxEntries?: number;
}

/** A folder with tens of thousands of sub-folders must not flood the picker (or the bridge). */
export const MAX_FOLDER_ENTRIES = 500;

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Folder names as a person expects them: case-insensitive, numbers by value, dot-folders after the rest. */
function compareNames(a: string, b: string): number {
  const hiddenA = a.startsWith('.');
  const hiddenB = b.startsWith('.');
  if (hiddenA !== hiddenB) return hiddenA ? 1 : -1;
  return a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Is this entry a folder? Symbolic links count when they point at one (a link to nowhere does not). */
async function isFolder(dirent: Dirent, fullPath: string): Promise<boolean> {
  if (dirent.isDirectory()) return true;
  if (!dirent.isSymbolicLink()) return false;
  try {
    return (await stat(fullPath)).isDirectory();
  } catch {
    // A dangling or unreachable link is not a folder anyone can pick.
    return false;
  }
}

async function canList(path: string): Promise<boolean> {
  try {
    await access(path, constants.R_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Read the folder, turning each failure into words for the person. */
async function readFolder(path: string): Promise<Dirent[]> {
  try {
    const info = await stat(path);
    if (!info.isDirectory())
      throw HostError.coded('INVALID_INPUT', rootError('root-errors.browse-not-folder', { path }), 'path');
    return await readdir(path, { withFileTypes: true });
  } catch (error) {
    if (error instanceof HostError) throw error;
    const code = errnoCode(error);
    if (code === 'ENOENT')
      throw HostError.coded('NOT_FOUND', rootError('root-errors.browse-missing', { path }), 'path');
    if (code === 'ENOTDIR')
      throw HostError.coded('NOT_FOUND', rootError('root-errors.browse-missing-file-in-path', { path }), 'path');
    if (code === 'EACCES' || code === 'EPERM')
      throw HostError.coded('FORBIDDEN', rootError('root-errors.browse-forbidden', { path }), 'path');
    throw HostError.coded(
      'IO_ERROR',
      rootError('root-errors.browse-failed', { path, detail: errorMessage(error) }),
      'path',
    );
  }
}

/**
 * The sub-folders of `path` (the home folder when absent), for the folder
 * browser that browser mode uses instead of a system dialog. Files are left
 * out; each folder says whether it can be listed (and so picked). The path
 * must be absolute, without `.` or `..` (INVALID_INPUT otherwise).
 */
export async function listFolders(
  path: string | undefined,
  options: FolderBrowserOptions = {},
): Promise<FolderListing> {
  const platform = options.platform ?? process.platform;
  const flavour = platform === 'win32' ? win32 : posix;
  const maxEntries = options.maxEntries ?? MAX_FOLDER_ENTRIES;
  const home = normalizeRootPath(options.home ?? homedir(), platform);
  let folder: string;
  try {
    folder = normalizeRootPath(path ?? home, platform);
  } catch (error) {
    // The same coded refusal, now naming the field it is about.
    if (error instanceof HostError) throw new HostError(error.code, error.message, 'path', error.hostMessage);
    throw error;
  }

  const dirents = await readFolder(folder);
  const flags = await Promise.all(dirents.map((dirent) => isFolder(dirent, flavour.join(folder, dirent.name))));
  const names = dirents
    .filter((_, index) => flags[index] === true)
    .map((dirent) => dirent.name)
    .sort(compareNames);
  const shown = names.slice(0, maxEntries);
  const entries: FolderEntry[] = await Promise.all(
    shown.map(async (name) => {
      const full = flavour.join(folder, name);
      return { name, path: full, readable: await canList(full) };
    }),
  );
  const parent = flavour.dirname(folder);
  return {
    path: folder,
    ...(parent !== folder ? { parent } : {}),
    home,
    entries,
    truncated: names.length > shown.length,
  };
}
