import { open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { LogEntry } from '../../shared/domain/log';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../config/private-files';
import { lineFileTail } from './line-file';
import { RingBuffer } from './ring-buffer';
import { errorMessage } from '../../shared/error-message';

/** Options of on-disk logs: one text file per server, rotated by size. */
export interface LogFilesOptions {
  dir: string;
  /** Rotate a file before it grows past this many bytes (default 5 MiB). */
  maxBytes?: number;
  /** Rotated files kept as `.1` (newest) … `.keep` (default 3). */
  keep?: number;
  /** Lines waiting per file while the disk is slow; beyond it the oldest are skipped (default 20,000). */
  maxPendingLines?: number;
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_KEEP = 3;
const DEFAULT_MAX_PENDING_LINES = 20_000;
const WINDOWS_DEVICE_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/**
 * The file name (without directory) for a server's log. Host-wide entries
 * (server '') go to `berth.log`. Every character outside `[A-Za-z0-9_.-]` is
 * percent-encoded, so distinct names never share a file.
 */
export function logFileName(server: string): string {
  if (server === '') return 'berth.log';
  let safe = server.replace(
    /[^A-Za-z0-9_.-]/g,
    (ch) => `%${ch.codePointAt(0)?.toString(16).toUpperCase().padStart(2, '0') ?? '00'}`,
  );
  // Keep clear of the host's own file, hidden files and Windows device names.
  if (safe.toLowerCase() === 'berth' || safe.startsWith('.') || WINDOWS_DEVICE_NAMES.test(safe)) {
    safe = `%${safe.charCodeAt(0).toString(16).toUpperCase()}${safe.slice(1)}`;
  }
  return `${safe}.log`;
}

/** C0 and C1 control characters (tab aside), DEL, and the Unicode line and paragraph separators. */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09) || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

/** `\r`, `\n` and the rest as visible escapes (`\u001b`): a server's text cannot end a line, move the cursor or colour a terminal. */
function escapeControls(text: string): string {
  let escaped = '';
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (!isControl(code)) continue;
    escaped +=
      text.slice(start, i) +
      (code === 0x0d ? '\\r' : code === 0x0a ? '\\n' : `\\u${code.toString(16).padStart(4, '0')}`);
    start = i + 1;
  }
  return start === 0 ? text : escaped + text.slice(start);
}

/**
 * `2026-11-22T06:00:00.000Z [stderr] text`. Only the text's own `\n` (or
 * `\r\n`) starts a new line, indented, so every line that starts with a time
 * is an entry Berth wrote: a server's text or logger name cannot forge one.
 */
export function formatLogLine(entry: LogEntry): string {
  const time = Number.isFinite(entry.time) ? new Date(entry.time).toISOString() : String(entry.time);
  const level = entry.level !== undefined ? `${entry.level.toUpperCase()} ` : '';
  const logger = entry.logger !== undefined ? `${escapeControls(entry.logger)}: ` : '';
  const text = entry.text.split(/\r?\n/).map(escapeControls).join('\n    ');
  return `${time} [${entry.source}] ${level}${logger}${text}\n`;
}

interface FileState {
  path: string;
  pending: RingBuffer<string>;
  /** Bytes in the file on disk; unknown until the first write stats it. */
  size: number | undefined;
  writing: Promise<void> | undefined;
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

/** Appends to a log file that only the person may read (0600 whatever the umask, also if an older Berth made it 0644). */
async function appendPrivate(path: string, text: string): Promise<void> {
  const handle = await open(path, 'a', PRIVATE_FILE_MODE);
  try {
    if (process.platform !== 'win32') await handle.chmod(PRIVATE_FILE_MODE);
    await handle.appendFile(text);
  } finally {
    await handle.close();
  }
}

/**
 * Appends log lines to per-server files asynchronously, one write in flight
 * per file, with bounded pending lines and size-based rotation. Failures go to
 * `onError` and never throw into the caller.
 */
export class LogFiles {
  private readonly dir: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly maxPendingLines: number;
  private readonly files = new Map<string, FileState>();
  private dirReady = false;

  constructor(
    options: LogFilesOptions,
    private readonly onError: (message: string) => void,
  ) {
    this.dir = options.dir;
    this.maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_MAX_BYTES);
    this.keep = Math.max(0, Math.floor(options.keep ?? DEFAULT_KEEP));
    this.maxPendingLines = Math.max(1, options.maxPendingLines ?? DEFAULT_MAX_PENDING_LINES);
  }

  /** Where a server's log lives. */
  pathFor(server: string): string {
    return join(this.dir, logFileName(server));
  }

  /** Queue an entry's line; nothing is written until `flush()`. */
  enqueue(entry: LogEntry): void {
    let file = this.files.get(entry.server);
    if (file === undefined) {
      file = {
        path: this.pathFor(entry.server),
        pending: new RingBuffer(this.maxPendingLines),
        size: undefined,
        writing: undefined,
      };
      this.files.set(entry.server, file);
    }
    file.pending.push(formatLogLine(entry));
  }

  /** Write everything queued so far; resolves when it is on disk (or has failed and been reported). */
  async flush(): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const file of this.files.values()) {
      if (file.writing === undefined && file.pending.length > 0) {
        file.writing = this.drain(file).finally(() => {
          file.writing = undefined;
        });
      }
      if (file.writing !== undefined) writes.push(file.writing);
    }
    await Promise.all(writes);
  }

  private async drain(file: FileState): Promise<void> {
    while (file.pending.length > 0) {
      const lines = file.pending.toArray();
      const skipped = file.pending.evicted;
      file.pending.clear();
      if (skipped > 0)
        lines.unshift(
          `${new Date().toISOString()} [host] WARNING ${skipped} log lines were not written: the disk could not keep up\n`,
        );
      try {
        await this.write(file, lines);
      } catch (error) {
        // The file's real size is unknown after a failure: stat it again next time.
        file.size = undefined;
        this.onError(`Could not write the log file ${file.path}: ${errorMessage(error)}`);
        // Retry on the next flush rather than spinning on a failing disk while lines keep arriving.
        return;
      }
    }
  }

  private async write(file: FileState, queued: string[]): Promise<void> {
    let lines = queued;
    if (!this.dirReady) {
      await makePrivateDir(this.dir);
      this.dirReady = true;
    }
    if (file.size === undefined) {
      const tail = await lineFileTail(file.path);
      file.size = tail.size;
      // A line torn by a killed process is closed off so the next one stands on its own.
      if (tail.needsNewline) lines = ['\n', ...lines];
    }
    let chunk = '';
    let chunkBytes = 0;
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      if (file.size + chunkBytes + bytes > this.maxBytes && file.size + chunkBytes > 0) {
        if (chunkBytes > 0) await appendPrivate(file.path, chunk);
        await this.rotate(file.path);
        file.size = 0;
        chunk = '';
        chunkBytes = 0;
      }
      chunk += line;
      chunkBytes += bytes;
    }
    if (chunkBytes > 0) {
      await appendPrivate(file.path, chunk);
      file.size += chunkBytes;
    }
  }

  /** `name.log` → `name.log.1` → … → `name.log.<keep>`; the oldest falls off. */
  private async rotate(path: string): Promise<void> {
    if (this.keep === 0) {
      await unlink(path).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
      return;
    }
    for (let i = this.keep - 1; i >= 1; i -= 1) {
      await rename(`${path}.${i}`, `${path}.${i + 1}`).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    }
    await rename(path, `${path}.1`);
  }
}
