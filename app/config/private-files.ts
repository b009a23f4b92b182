import { chmodSync, lstatSync, mkdirSync, readdirSync, type Stats } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * Berth's files hold server commands, conversations, logs of what servers
 * did, consent decisions and secrets: only the person may read them. Every
 * directory Berth creates is 0700 and every file it writes 0600, set with
 * chmod so the umask cannot loosen (or tighten) it; `tightenBerthFiles` takes
 * group and other access away from what an older Berth left behind.
 * POSIX only: Windows has no mode bits (its ACLs already make a profile private).
 */

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const HAS_MODES = process.platform !== 'win32';

/** `first` (the first directory mkdir created) and each of its descendants down to `dir`. */
function createdChain(dir: string, first: string): string[] {
  const chain: string[] = [];
  const top = resolve(first);
  for (let current = resolve(dir); ; current = dirname(current)) {
    chain.push(current);
    if (current === top || dirname(current) === current) return chain;
  }
}

/** `mkdir -p` whose new directories are 0700; directories that already exist are left as they are. */
export async function makePrivateDir(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined || !HAS_MODES) return;
  for (const created of createdChain(dir, first)) await chmod(created, PRIVATE_DIR_MODE);
}

/** The synchronous {@link makePrivateDir}. */
export function makePrivateDirSync(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined || !HAS_MODES) return;
  for (const created of createdChain(dir, first)) chmodSync(created, PRIVATE_DIR_MODE);
}

/** The directories inside the config dir that are Berth's alone, tightened all the way down. */
const BERTH_TREES = new Set(['state', 'logs', 'conversations']);

export interface TightenReport {
  /** Paths whose group/other access was removed. */
  tightened: string[];
  /** Paths that could not be changed, with the reason. */
  failures: string[];
  /** Size, mtime and inode of each regular file directly in `TightenOptions.keepIdentitiesIn`, by name, as the walk saw them. */
  identities: Map<string, FileIdentity>;
}

/** What identifies a file's content well enough to trust a summary of it (the conversations index). */
export type FileIdentity = Pick<Stats, 'size' | 'mtimeMs' | 'ino'>;

export interface TightenOptions {
  /**
   * A folder whose files the caller is about to stat anyway (the conversations: the index
   * checks each file's identity). The walk's own lstat of each serves both: with 5,000
   * conversations the second stat pass cost ~20 ms of every start.
   */
  keepIdentitiesIn?: string;
}

/**
 * Removes group and other access from the config dir, the files directly in
 * it, and everything in state/, logs/ and conversations/. The owner's bits
 * are kept (a 0400 file stays 0400). Symbolic links are not followed: what
 * they point to is not Berth's to change. Other directories (a browser
 * profile, Electron's caches) lose group/other access on the directory
 * itself, which is enough to keep their content private, and are not walked.
 */
export async function tightenBerthFiles(configDir: string, options: TightenOptions = {}): Promise<TightenReport> {
  const report: TightenReport = { tightened: [], failures: [], identities: new Map() };
  const keepIn = options.keepIdentitiesIn === undefined ? undefined : resolve(options.keepIdentitiesIn);
  if (!HAS_MODES) return report;
  // Synchronous on purpose: this runs once, before Berth serves anything, and an awaited
  // lstat per file pays a round trip through libuv's thread pool each; with 5,000
  // conversations that was a quarter of a second of every start, the calls themselves ~15 ms.
  const tighten = (
    path: string,
    recurse: 'all' | 'top' | 'none',
    identities?: Map<string, FileIdentity>,
    name?: string,
  ): void => {
    let stats;
    try {
      stats = lstatSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        report.failures.push(`${path}: ${(error as Error).message}`);
      return;
    }
    if (!stats.isFile() && !stats.isDirectory()) return;
    // Taken before a chmod, which changes none of the three.
    if (identities !== undefined && name !== undefined && stats.isFile())
      identities.set(name, { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino });
    const mode = stats.mode & 0o7777;
    if ((mode & 0o077) !== 0) {
      try {
        chmodSync(path, mode & ~0o077);
        report.tightened.push(path);
      } catch (error) {
        report.failures.push(`${path}: ${(error as Error).message}`);
      }
    }
    if (!stats.isDirectory() || recurse === 'none') return;
    let names: string[];
    try {
      names = readdirSync(path);
    } catch (error) {
      report.failures.push(`${path}: ${(error as Error).message}`);
      return;
    }
    // One path.join per folder, not per file (its normalizing pass showed in the profile of a start with 5,000 conversations).
    const prefix = join(path, '_').slice(0, -1);
    const kept = keepIn !== undefined && resolve(path) === keepIn ? report.identities : undefined;
    for (const child of names)
      tighten(`${prefix}${child}`, recurse === 'all' || BERTH_TREES.has(child) ? 'all' : 'none', kept, child);
  };
  tighten(configDir, 'top');
  return report;
}
