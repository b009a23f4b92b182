import {
  existsSync,
  lstatSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import type { Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isWithin } from '../../shared/domain/sandbox';
import type { SandboxPolicy } from '../../shared/domain/sandbox';
import { PRIVATE_FILE_MODE, makePrivateDirSync } from '../config/private-files';

/**
 * The placeholders of the sandbox runtime, and their removal.
 *
 * For a path it must keep read-only that does not exist inside a writable
 * folder, the runtime (bubblewrap on Linux) creates an empty read-only file
 * or folder on the real disk to mount over, and removes them only when the
 * last sandbox of the process ends, or at its exit. Left behind, an empty
 * `~/.bash_profile` stops login shells from reading `~/.profile`.
 * {@linkcode writableFolders} leaves almost nothing of Berth's lists inside a
 * writable folder; what remains (the runtime's own list, resolved against
 * Berth's working directory, and a server's exact folders) is recorded here
 * before the spawn and removed when its server stops, or at the next start
 * after a crash.
 */

/**
 * Names the runtime denies in Berth's working directory on its own
 * (`linuxGetCwdMandatoryDenyPaths` in @anthropic-ai/sandbox-runtime 0.0.83:
 * DANGEROUS_FILES, DANGEROUS_DIRECTORIES and a repository's hooks and config),
 * not exported by it. A name missing here only means a placeholder is swept by
 * the runtime at Berth's exit instead of at its server's stop.
 */
const RUNTIME_DENIED_IN_CWD = [
  '.gitconfig',
  '.gitmodules',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
  '.mcp.json',
  '.vscode',
  '.idea',
  '.claude/commands',
  '.claude/agents',
  '.git/hooks',
  '.git/config',
];

/** The deny paths the runtime adds for a process whose working directory is `cwd` (none when it was removed). */
export function runtimeDeniedPaths(cwd: string | undefined = workingDirectory()): string[] {
  return cwd === undefined ? [] : RUNTIME_DENIED_IN_CWD.map((name) => resolve(cwd, name));
}

function workingDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

/**
 * Where the runtime may create a placeholder for a run: for each deny path
 * that does not exist and lies inside a writable folder, its first missing
 * component (what bubblewrap creates).
 */
export function placeholderCandidates(
  policy: Pick<SandboxPolicy, 'allowWrite' | 'denyWrite' | 'denyRead'>,
  extraDenied: readonly string[],
  exists: (path: string) => boolean,
): string[] {
  const found = new Set<string>();
  for (const denied of [...policy.denyWrite, ...policy.denyRead, ...extraDenied]) {
    if (exists(denied) || !policy.allowWrite.some((folder) => isWithin(denied, folder))) continue;
    let first = denied;
    for (let parent = dirname(first); parent !== first && !exists(parent); parent = dirname(parent)) first = parent;
    found.add(first);
  }
  return [...found];
}

/** The path with the links of its existing part resolved. */
function realSpelling(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realSpelling(parent), basename(path));
  }
}

/** One recorded path; `ino` once it was seen created (an inode the person's own later file would not have). */
interface Recorded {
  path: string;
  ino?: number;
}

interface LedgerFile {
  runs: Record<string, Recorded[]>;
}

/** A live run as the ledger sees it: its key and the writable folders its sandbox got. */
export interface LiveRun {
  key: string;
  allowWrite: readonly string[];
}

/**
 * What the runtime created for each run, kept in Berth's state folder from
 * before the spawn until it is removed, so that a crash loses no record.
 * Disk errors are reported, never thrown into a server's start or stop.
 */
export class PlaceholderLedger {
  private runs: Record<string, Recorded[]> = {};

  constructor(
    private readonly file: string,
    private readonly reportError: (what: string, error: unknown) => void,
  ) {}

  /**
   * Removes what runs that never ended (Berth crashed or was killed) left:
   * only what is still the runtime's empty placeholder. Call before any
   * start. Returns what was removed.
   */
  sweep(): string[] {
    const removed: string[] = [];
    this.guard(() => {
      if (!existsSync(this.file)) return;
      for (const recorded of Object.values(readLedger(this.file).runs)) {
        for (const entry of deepestFirst(recorded)) if (removeIfPlaceholder(entry)) removed.push(entry.path);
      }
      this.runs = {};
      this.save();
    });
    return removed;
  }

  /** Before the spawn (before the wrap: on WSL's 9p the runtime makes them itself): where the runtime may create one for `run`. */
  begin(run: string, policy: Pick<SandboxPolicy, 'allowWrite' | 'denyWrite' | 'denyRead'>): void {
    // As the runtime sees them: it resolves links on the way to a deny path, and so makes the placeholder there.
    const real = {
      allowWrite: policy.allowWrite.map(realSpelling),
      denyWrite: policy.denyWrite.map(realSpelling),
      denyRead: policy.denyRead.map(realSpelling),
    };
    const absent = placeholderCandidates(real, runtimeDeniedPaths().map(realSpelling), existsSync);
    if (absent.length === 0) return;
    this.runs[run] = absent.map((path) => ({ path }));
    this.guard(() => this.save());
  }

  /** The run started: what now exists at a recorded place is its placeholder; its identity is noted. */
  started(run: string): void {
    const recorded = this.runs[run];
    if (recorded === undefined) return;
    const seen: Recorded[] = [];
    for (const entry of recorded) {
      const stat = lstatOrUndefined(entry.path);
      if (stat !== undefined && isEmptyPlaceholder(entry.path)) seen.push({ path: entry.path, ino: stat.ino });
    }
    this.runs[run] = seen;
    this.guard(() => this.save());
  }

  /**
   * The run ended: its placeholders go, except one another live run's
   * writable folder holds (another bubblewrap may be mounted on it, and
   * removing a mount point lifts that sandbox's deny): it passes to that run.
   * Returns what was removed.
   */
  end(run: string, live: Iterable<LiveRun>): string[] {
    const recorded = this.runs[run];
    if (recorded === undefined) return [];
    delete this.runs[run];
    const others = [...live].filter((other) => other.key !== run);
    const removed: string[] = [];
    for (const entry of deepestFirst(recorded)) {
      const holder = others.find((other) => other.allowWrite.some((folder) => isWithin(entry.path, folder)));
      if (holder !== undefined) (this.runs[holder.key] ??= []).push(entry);
      else if (removeIfPlaceholder(entry)) removed.push(entry.path);
    }
    this.guard(() => this.save());
    return removed;
  }

  private guard(act: () => void): void {
    try {
      act();
    } catch (error) {
      this.reportError("keeping the record of the sandbox's placeholders failed", error);
    }
  }

  private save(): void {
    // Written whole and renamed: a crash mid-write keeps the previous record.
    makePrivateDirSync(dirname(this.file));
    const temp = `${this.file}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ runs: this.runs } satisfies LedgerFile)}\n`, { mode: PRIVATE_FILE_MODE });
    renameSync(temp, this.file);
  }
}

function readLedger(file: string): LedgerFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const runs = (parsed as Partial<LedgerFile> | null)?.runs;
    if (runs === null || typeof runs !== 'object') return { runs: {} };
    const clean: Record<string, Recorded[]> = {};
    for (const [run, list] of Object.entries(runs)) {
      if (!Array.isArray(list)) continue;
      clean[run] = list.filter(
        (entry): entry is Recorded =>
          typeof (entry as Recorded | null)?.path === 'string' && (entry as Recorded).path.startsWith('/'),
      );
    }
    return { runs: clean };
  } catch {
    // No record (or an unreadable one): nothing is removed on a guess.
    return { runs: {} };
  }
}

/** A folder placeholder may hold a file placeholder of the same run: the deeper goes first. */
function deepestFirst(entries: readonly Recorded[]): Recorded[] {
  return [...entries].sort((a, b) => b.path.length - a.path.length);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** What bubblewrap creates to mount on: an empty file with no write permission (0444), or an empty folder. */
function isEmptyPlaceholder(path: string): boolean {
  const stat = lstatOrUndefined(path);
  if (stat === undefined) return false;
  if (stat.isFile()) return stat.size === 0 && (stat.mode & 0o222) === 0;
  if (!stat.isDirectory()) return false;
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

/** Removes `entry` only while it is still the empty placeholder (the same one, when its identity was noted). */
function removeIfPlaceholder(entry: Recorded): boolean {
  const stat = lstatOrUndefined(entry.path);
  if (stat === undefined || !isEmptyPlaceholder(entry.path)) return false;
  if (entry.ino !== undefined && stat.ino !== entry.ino) return false;
  try {
    if (stat.isDirectory()) rmdirSync(entry.path);
    else unlinkSync(entry.path);
    return true;
  } catch {
    return false;
  }
}

/** Where the ledger lives in Berth's state folder. */
export function placeholderLedgerFile(stateDir: string): string {
  return join(stateDir, 'sandbox-placeholders.json');
}
