import { statSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { CONVERSATION_ID_PATTERN, ConversationSummarySchema, type ConversationSummary } from '../../shared/domain/chat';
import { atomicWriteFile } from '../config/atomic-write';
import { checkIndexEntry } from './index-entry-check';
import { errorMessage } from '../../shared/error-message';

/**
 * The conversations index: each conversation's summary beside the identity of
 * the file it came from (size, mtime, inode). It only saves reading and
 * parsing every file at start; the files stay the truth. At open every file
 * name is listed and stat'ed, an entry is used only when its file is exactly
 * the one it describes, and every other file is read — so an index that is
 * missing, corrupt, stale or lost in a crash can cost time, never a conversation.
 */
const INDEX_VERSION = 1;
/**
 * The '.' in the name keeps it from ever being read as a conversation: no id
 * contains one, so an older Berth skips it instead of setting it aside as corrupt.
 */
export const INDEX_FILE_NAME = `index.v${INDEX_VERSION}.json`;
/** How long the index waits after a change before it is written (see IndexWriter). */
export const INDEX_WRITE_DELAY_MS = 1_000;

const FileIdentitySchema = z.object({ size: z.number(), mtimeMs: z.number(), ino: z.number() });
export type FileIdentity = z.infer<typeof FileIdentitySchema>;

/** What an entry is; read with index-entry-check.ts, which is held to this schema by its test. */
export const IndexEntrySchema = z.object({ file: FileIdentitySchema, summary: ConversationSummarySchema });
export type IndexEntry = z.infer<typeof IndexEntrySchema>;

export function fileIdentity(stats: { size: number; mtimeMs: number; ino: number }): FileIdentity {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
}

function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/** What reading the index against the folder found. */
export interface IndexScan {
  /** Summaries whose files match the index exactly: no need to read them. */
  fresh: Map<string, IndexEntry>;
  /** Conversation files the index does not describe (new, edited behind Berth's back, or no index at all). */
  toRead: string[];
  /** Why the whole index was set aside, when it was (missing, corrupt, another version). */
  rebuildReason?: string;
  /** Index entries whose files are gone. */
  dropped: number;
  /** Every name in the folder, as listed. */
  names: string[];
}

/**
 * Lists `<id>.json` files, stats them, and compares with the index. `seen` holds
 * identities taken moments ago by name (the start-time privacy walk lstat'ed every
 * regular file here): those files are not stat'ed again.
 */
export async function scanIndex(
  conversationsDir: string,
  seen: ReadonlyMap<string, FileIdentity> = new Map(),
): Promise<IndexScan> {
  const ids: string[] = [];
  const names = await readdir(conversationsDir);
  for (const name of names) {
    // The schema's own pattern, tested directly: a zod parse per file name cost ~10 ms per 5,000 at start.
    const match = /^(.+)\.json$/.exec(name);
    if (match?.[1] === undefined || name === INDEX_FILE_NAME || !CONVERSATION_ID_PATTERN.test(match[1])) continue;
    ids.push(match[1]);
  }
  const { entries, reason } = await readIndex(join(conversationsDir, INDEX_FILE_NAME));
  const fresh = new Map<string, IndexEntry>();
  const toRead: string[] = [];
  // Ids are plain names (the pattern above): concatenation gives what path.join would, without its normalizing pass per file.
  const prefix = join(conversationsDir, '_').slice(0, -1);
  for (const id of ids) {
    // Synchronous on purpose: the store opens once, before Berth serves anything, and 5,000
    // awaited stats cost 30-80 ms of thread-pool round trips where the calls take ~13 ms.
    const found = seen.get(`${id}.json`) ?? statIfPresent(`${prefix}${id}.json`);
    const entry = entries.get(id);
    if (found !== undefined && entry !== undefined && entry.summary.id === id && sameFile(entry.file, found))
      fresh.set(id, entry);
    else toRead.push(id);
  }
  let dropped = 0;
  // Every entry is fresh on a start after a clean exit: the set of names is needed only when some are not.
  if (entries.size > fresh.size) {
    const present = new Set(ids);
    for (const id of entries.keys()) if (!present.has(id)) dropped += 1;
  }
  return { fresh, toRead, dropped, names, ...(reason !== undefined ? { rebuildReason: reason } : {}) };
}

function statIfPresent(path: string): FileIdentity | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    // Unreadable: read like a file the index does not describe, which reports why.
    return undefined;
  }
}

async function readIndex(path: string): Promise<{ entries: Map<string, IndexEntry>; reason?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      entries: new Map(),
      reason: missing ? 'there is no index yet' : `the index could not be read (${errorMessage(error)})`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { entries: new Map(), reason: `the index is not valid JSON (${errorMessage(error)})` };
  }
  return checkIndexFile(parsed);
}

/** The index file's entries by conversation id, or why the whole file is set aside (one bad entry is enough: it was not written by this Berth). */
export function checkIndexFile(value: unknown): { entries: Map<string, IndexEntry>; reason?: string } {
  const shapeProblem = (why: string): { entries: Map<string, IndexEntry>; reason: string } => ({
    entries: new Map(),
    reason: `the index does not have the expected shape (${why})`,
  });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return shapeProblem('not an object');
  const { version, entries } = value as { version?: unknown; entries?: unknown };
  if (version !== INDEX_VERSION)
    return shapeProblem(`version ${JSON.stringify(version) ?? 'missing'}, expected ${INDEX_VERSION}`);
  if (!Array.isArray(entries)) return shapeProblem('no list of entries');
  const byId = new Map<string, IndexEntry>();
  // An index loop, not entries(): the iterator and its destructuring cost ~10 ms per 5,000 at start (code that runs once stays unoptimized).
  for (let position = 0; position < entries.length; position += 1) {
    const entry = checkIndexEntry(entries[position]);
    if (typeof entry === 'string') return shapeProblem(`entry ${position}: ${entry}`);
    byId.set(entry.summary.id, entry);
  }
  return { entries: byId };
}

/**
 * Writes the index after changes, one write at a time and at most one per `delayMs`:
 * a burst of saved messages (a turn saves the person's message, then each reply) costs
 * one write, made after the burst rather than in the middle of the turn. Until then
 * the index on disk is stale, which is safe: a start that finds a file whose identity
 * differs from its entry reads that file again. `settled()` (shutdown, tests) writes
 * at once.
 */
export class IndexWriter {
  private dirty = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  /**
   * Each entry's JSON, kept while its summary and file identity are the same objects (the
   * store replaces them, never edits them): a saved message re-serializes one entry, not all
   * of them. With 5,000 conversations, one JSON.stringify of the whole index held the host's
   * event loop ~20 ms at every saved message, in the middle of the turn.
   */
  private readonly serialized = new WeakMap<ConversationSummary, { file: FileIdentity; json: string }>();

  constructor(
    private readonly path: string,
    private readonly entries: () => IndexEntry[],
    private readonly onError: (message: string) => void,
    private readonly delayMs = INDEX_WRITE_DELAY_MS,
  ) {}

  schedule(): void {
    this.dirty = true;
    if (this.timer !== undefined || this.running !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, this.delayMs);
  }

  /** Resolves when every scheduled write has been done (or failed and been reported); a waiting write starts now. */
  async settled(): Promise<void> {
    for (;;) {
      if (this.timer !== undefined) {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.write();
      }
      if (this.running === undefined) return;
      await this.running;
    }
  }

  private write(): void {
    this.running ??= this.writeOnce().finally(() => {
      this.running = undefined;
      // Changes made during the write: the next one after the same wait.
      if (this.dirty) this.schedule();
    });
  }

  /** The same text as `JSON.stringify({ version, entries })`, from the cached entries. */
  private serialize(entries: readonly IndexEntry[]): string {
    const parts = entries.map((entry) => {
      const cached = this.serialized.get(entry.summary);
      if (cached !== undefined && cached.file === entry.file) return cached.json;
      const json = JSON.stringify(entry);
      this.serialized.set(entry.summary, { file: entry.file, json });
      return json;
    });
    return `{"version":${JSON.stringify(INDEX_VERSION)},"entries":[${parts.join(',')}]}`;
  }

  private async writeOnce(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      // Never recreate a conversations folder that was removed (atomicWriteFile would): there is nothing to index.
      await stat(dirname(this.path));
      await atomicWriteFile(this.path, this.serialize(this.entries()));
    } catch (error) {
      // A stale index is found and repaired at the next start; the conversation itself is saved.
      this.onError(
        `The conversations index could not be written (${errorMessage(error)}); it will be rebuilt at the next start`,
      );
    }
  }
}
