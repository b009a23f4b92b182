import { statSync, type Stats } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { CONVERSATION_ID_PATTERN, ConversationSummarySchema, type ConversationSummary } from '../../shared/domain/chat';
import { atomicWriteFile } from '../config/atomic-write';
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

const IndexEntrySchema = z.object({ file: FileIdentitySchema, summary: ConversationSummarySchema });
export type IndexEntry = z.infer<typeof IndexEntrySchema>;

const IndexFileSchema = z.object({ version: z.literal(INDEX_VERSION), entries: z.array(IndexEntrySchema) });

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
}

/** Lists `<id>.json` files, stats them, and compares with the index. */
export async function scanIndex(conversationsDir: string): Promise<IndexScan> {
  const ids: string[] = [];
  for (const name of await readdir(conversationsDir)) {
    // The schema's own pattern, tested directly: a zod parse per file name cost ~10 ms per 5,000 at start.
    const match = /^(.+)\.json$/.exec(name);
    if (match?.[1] === undefined || name === INDEX_FILE_NAME || !CONVERSATION_ID_PATTERN.test(match[1])) continue;
    ids.push(match[1]);
  }
  const { entries, reason } = await readIndex(join(conversationsDir, INDEX_FILE_NAME));
  const fresh = new Map<string, IndexEntry>();
  const toRead: string[] = [];
  // Synchronous on purpose: the store opens once, before Berth serves anything, and 5,000
  // awaited stats cost 30-80 ms of thread-pool round trips where the calls take ~13 ms.
  const stats = ids.map((id) => statIfPresent(join(conversationsDir, `${id}.json`)));
  ids.forEach((id, position) => {
    const found = stats[position];
    const entry = entries.get(id);
    if (found !== undefined && entry !== undefined && entry.summary.id === id && sameFile(entry.file, fileIdentity(found))) fresh.set(id, entry);
    else toRead.push(id);
  });
  const present = new Set(ids);
  const dropped = [...entries.keys()].filter((id) => !present.has(id)).length;
  return { fresh, toRead, dropped, ...(reason !== undefined ? { rebuildReason: reason } : {}) };
}

function statIfPresent(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    // Gone since readdir (or unreadable): read like a file the index does not describe, which reports why.
    return undefined;
  }
}

async function readIndex(path: string): Promise<{ entries: Map<string, IndexEntry>; reason?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return { entries: new Map(), reason: missing ? 'there is no index yet' : `the index could not be read (${errorMessage(error)})` };
  }
  let parsed: ReturnType<typeof IndexFileSchema.safeParse>;
  try {
    parsed = IndexFileSchema.safeParse(JSON.parse(text));
  } catch (error) {
    return { entries: new Map(), reason: `the index is not valid JSON (${errorMessage(error)})` };
  }
  if (!parsed.success) return { entries: new Map(), reason: 'the index does not have the expected shape' };
  return { entries: new Map(parsed.data.entries.map((entry) => [entry.summary.id, entry])) };
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
      this.onError(`The conversations index could not be written (${errorMessage(error)}); it will be rebuilt at the next start`);
    }
  }
}
