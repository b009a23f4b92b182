import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AuditEntrySchema } from '../../shared/domain/consent';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../config/private-files';
import { lineFileTail } from '../logs/line-file';
import type { AuditEntry, AuditPage } from '../../shared/domain/consent';

export const AUDIT_FILE = 'audit.jsonl';

/** Options for {@linkcode AuditLog}. */
export interface AuditLogOptions {
  stateDir: string;
  /** Rotate when the current file would grow past this many bytes (default 5 MiB). */
  maxBytes?: number;
  /** Rotated files kept besides the current one: audit.1.jsonl … (default 3). */
  keepFiles?: number;
}

/**
 * Append-only JSON lines in `<stateDir>/audit.jsonl`, rotated at a size cap
 * into `audit.1.jsonl` (newest) … `audit.<keep>.jsonl` (oldest). Appends are
 * serialized so lines never interleave and rotation never races a write.
 * The current file stays open (append mode) between writes, and a batch is
 * one synchronous write(2): every allowed tool call waits for its line, and a
 * round trip through the thread pool per call (let alone open + write +
 * close) was most of what Berth added to a tool call. A few hundred bytes
 * into the page cache cost microseconds; the event loop never waits on a
 * disk flush (there is no fsync, as before). {@linkcode close} releases the
 * file; a later append opens it again.
 */
export class AuditLog {
  private readonly maxBytes: number;
  private readonly keepFiles: number;
  private size: number | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  /** The batch waiting for the write before it to finish; new entries join it. */
  private queued: { lines: string[]; done: Promise<void> } | undefined;
  private fd: number | undefined;

  constructor(private readonly options: AuditLogOptions) {
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.keepFiles = Math.max(0, options.keepFiles ?? 3);
  }

  /** The current file; rotated ones sit next to it. */
  get filePath(): string {
    return this.fileAt(0);
  }

  /**
   * Append one entry; rejects if the disk refused it (the caller reports that).
   * Throws at once, writing nothing, for an entry that does not match the schema.
   */
  append(entry: AuditEntry): Promise<void> {
    return this.appendLine(`${JSON.stringify(AuditEntrySchema.parse(entry))}\n`);
  }

  /**
   * {@linkcode append} for an entry the consent broker built itself from typed
   * values, with its keys in the schema's order: written as it is, without a
   * zod parse per tool call. The line is the same text `append` writes
   * (consent-broker.test.ts pins it for every kind of decision the broker records).
   */
  appendBuilt(entry: AuditEntry): Promise<void> {
    return this.appendLine(`${JSON.stringify(entry)}\n`);
  }

  /**
   * Lines that arrive while a write is under way go out together in the next
   * write: with many tool calls in flight, one file append per call (each an
   * open, write and close on the thread pool) was the host's bottleneck.
   */
  private appendLine(line: string): Promise<void> {
    if (this.queued !== undefined) {
      this.queued.lines.push(line);
      return this.queued.done;
    }
    const batch: { lines: string[]; done: Promise<void> } = { lines: [line], done: Promise.resolve() };
    batch.done = this.chain.then(() => {
      // From here on, new entries start the next batch.
      this.queued = undefined;
      return this.write(batch.lines.join(''));
    });
    this.queued = batch;
    this.chain = batch.done.catch(() => undefined);
    return batch.done;
  }

  /** The newest entries first, across rotated files, up to `limit` (default 200). */
  async read(options: { limit?: number } = {}): Promise<AuditPage> {
    const limit = Math.max(0, options.limit ?? 200);
    // Let appends already queued land first, so a read sees its own writes.
    await this.chain;
    const entries: AuditEntry[] = [];
    let unreadableLines = 0;
    for (let index = 0; index <= this.keepFiles && entries.length < limit; index += 1) {
      let text: string;
      try {
        text = await readFile(this.fileAt(index), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const lines = text.split('\n').filter((line) => line.trim() !== '');
      for (let i = lines.length - 1; i >= 0 && entries.length < limit; i -= 1) {
        const parsed = parseLine(lines[i] ?? '');
        if (parsed === undefined) unreadableLines += 1;
        else entries.push(parsed);
      }
    }
    return { entries, unreadableLines };
  }

  private fileAt(index: number): string {
    return join(this.options.stateDir, index === 0 ? AUDIT_FILE : `audit.${index}.jsonl`);
  }

  /** Writes `text` (one or more whole lines); rotation happens between batches, never inside one. */
  private async write(batch: string): Promise<void> {
    let text = batch;
    if (this.size === undefined) {
      await makePrivateDir(this.options.stateDir);
      const tail = await lineFileTail(this.filePath);
      this.size = tail.size;
      // A torn line from a killed process stays unreadable; the new entries do not join it.
      if (tail.needsNewline) text = `\n${text}`;
    }
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.maxBytes) await this.rotate();
    try {
      if (this.fd === undefined) {
        this.fd = openSync(this.filePath, 'a', PRIVATE_FILE_MODE);
        // 0600 whatever the umask, also for a file an older Berth left readable by others.
        if (process.platform !== 'win32') fchmodSync(this.fd, PRIVATE_FILE_MODE);
      }
      writeSync(this.fd, text);
    } catch (error) {
      // The next write starts from a freshly opened file (the disk may come back).
      this.releaseFile();
      throw error;
    }
    this.size += bytes;
  }

  /** Waits for queued appends, then closes the file. Appends after this reopen it. */
  async close(): Promise<void> {
    await this.chain;
    this.releaseFile();
  }

  private releaseFile(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch {
      // Already unusable (the failure that brought us here is what gets reported).
    }
  }

  private async rotate(): Promise<void> {
    this.releaseFile();
    if (this.keepFiles === 0) {
      await rm(this.filePath, { force: true });
    } else {
      await rm(this.fileAt(this.keepFiles), { force: true });
      for (let index = this.keepFiles - 1; index >= 0; index -= 1) {
        await rename(this.fileAt(index), this.fileAt(index + 1)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
      }
    }
    this.size = 0;
  }
}

function parseLine(line: string): AuditEntry | undefined {
  try {
    const parsed = AuditEntrySchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
