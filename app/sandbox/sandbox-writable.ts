import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isWithin } from '../../shared/domain/sandbox';
import type { SandboxPolicy } from '../../shared/domain/sandbox';

/** What a folder holds, as the expansion needs it. */
export type WritableEntryKind = 'folder' | 'file' | 'link' | 'other';

/** The filesystem as {@linkcode writableFolders} reads it (injected: the expansion is tested without a disk). */
export interface WritableFs {
  /** The path with every symlink resolved, or undefined when it does not exist. */
  realPath(path: string): string | undefined;
  /** The entries of a folder; none when it cannot be read (nothing is opened there then). */
  list(folder: string): Array<{ name: string; kind: WritableEntryKind }>;
}

/** Everything {@linkcode writableFolders} needs. */
export interface WritableInputs {
  /** What the policy asks to be writable: roots, the server's own folders, the person's folders. */
  requested: readonly string[];
  /** The person's home folder. */
  home: string;
  /**
   * Paths that stay closed even inside a requested folder: startup files,
   * secrets, Berth's config folder. One requested exactly (a server's own
   * folders lie inside Berth's) is writable unless it is also in `never`.
   */
  closed: readonly string[];
  /** Paths never writable at all, even when requested exactly (startup files, secrets, Berth's files). */
  never: readonly string[];
}

/** Filled by bubblewrap itself (`--proc`, `--dev`) or the kernel's own: never a bind of ours. */
const VIRTUAL_AT_ROOT = new Set(['proc', 'sys', 'dev']);

/**
 * The folders (and files) to hand the sandbox runtime as writable, so that
 * no writable folder contains home or a closed path.
 *
 * Why: the runtime denies a path inside a writable folder by mounting over
 * it, so it can only deny what it is told, by name; a writable home (home
 * given as a root, or `/home`, or `/`) then leaves every startup file nobody
 * listed (`~/.bash_aliases`, `~/.config/git/config`, `~/.xsessionrc`…)
 * writable, and for each listed one that is absent it creates an empty
 * placeholder in the person's home. Instead a folder that contains home or
 * a closed path is replaced by its entries, minus the way towards it:
 *
 * - Home itself is never writable, and no entry of home whose name starts
 *   with a dot is: startup files are closed as a class, including ones that
 *   do not exist yet (nothing can be created directly in home). Its other
 *   entries are. The cost: a server with home as a root cannot create a new
 *   file or folder directly in home, nor replace a file there by renaming
 *   over it; an entry the person adds to home later is writable from the
 *   server's next start. The same holds directly in each folder above home
 *   (`/home`, `/`): another user's home or `/srv` stays writable, a new
 *   entry beside them cannot be made.
 * - A closed path is never writable unless requested exactly; nothing is
 *   denied inside a writable folder by a mount, so the runtime makes no
 *   placeholder for it.
 * - Symlinks (and sockets, fifos) among the entries are skipped: the link
 *   itself is not writable in the folder's place, and what it points to —
 *   perhaps a dot-folder, perhaps another disk — was not writable through
 *   the folder before either (a bind does not follow links out of itself).
 * - Paths are compared as real paths (home may be a link to another disk).
 *
 * Each entry is one bind for bubblewrap: measured here, a home of 100
 * entries added ~0.15 s to a start, one of 1,500 ~3.5 s (the runtime's
 * handling of each path), still correct.
 */
export function writableFolders(inputs: WritableInputs, fs: WritableFs): string[] {
  // Each as given and as its real path: a writable folder holding the link that IS home could replace the link.
  const spellings = (path: string): string[] => [...new Set([path, resolved(path, fs)])];
  const homes = spellings(inputs.home);
  const closed = inputs.closed.flatMap(spellings);
  const never = inputs.never.flatMap(spellings);
  const found: string[] = [];
  const open = (path: string): void => {
    if (never.some((denied) => isWithin(path, denied))) return;
    const holdsHome = homes.some((home) => isWithin(home, path));
    if (!holdsHome && !closed.some((inner) => inner !== path && isWithin(inner, path))) {
      found.push(path);
      return;
    }
    for (const entry of fs.list(path)) {
      const child = join(path, entry.name);
      if (homes.includes(path) && entry.name.startsWith('.')) continue;
      if (path === '/' && VIRTUAL_AT_ROOT.has(entry.name)) continue;
      if (entry.kind === 'link' || entry.kind === 'other' || closed.includes(child)) continue;
      open(child);
    }
  };
  for (const path of inputs.requested) open(resolved(path, fs));
  return [...new Set(found)];
}

/**
 * The policy as the runtime gets it: no writable folder holds home, a
 * dot-entry of home, a startup file, a secret or Berth's folder (nor the
 * other servers' folders in it); the deny lists stay as a second wall.
 */
export function runtimePolicy(
  policy: SandboxPolicy,
  home: string,
  berthConfigDir: string,
  fs: WritableFs = diskWritableFs,
): SandboxPolicy {
  const closed = [...policy.denyWrite, berthConfigDir, join(berthConfigDir, 'sandbox')];
  return {
    ...policy,
    allowWrite: writableFolders({ requested: policy.allowWrite, home, closed, never: policy.denyWrite }, fs),
  };
}

/** The real path of `path`, or of its deepest existing folder joined with the rest when it does not exist yet. */
function resolved(path: string, fs: WritableFs): string {
  const real = fs.realPath(path);
  if (real !== undefined) return real;
  const parent = dirname(path);
  return parent === path ? path : join(resolved(parent, fs), basename(path));
}

/** {@linkcode WritableFs} on the real disk. */
export const diskWritableFs: WritableFs = {
  realPath(path) {
    try {
      return realpathSync(path);
    } catch {
      return undefined;
    }
  },
  list(folder) {
    try {
      return readdirSync(folder, { withFileTypes: true }).map((entry) => ({
        name: entry.name,
        kind: entry.isSymbolicLink()
          ? 'link'
          : entry.isDirectory()
            ? 'folder'
            : entry.isFile()
              ? 'file'
              : kindOf(join(folder, entry.name)),
      }));
    } catch {
      return [];
    }
  },
};

/** What a directory entry of unknown type (some filesystems do not say) is. */
function kindOf(path: string): WritableEntryKind {
  try {
    const stat = lstatSync(path);
    return stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : 'other';
  } catch {
    return 'other';
  }
}
