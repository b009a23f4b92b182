import type { LogQuery } from '../../shared/contract/logs';
import { LOG_SOURCES, type LogEntry, type LogSource } from '../../shared/domain/log';
import { LOG_LEVELS, type LogLevel } from '../../shared/domain/server';
import { LogFiles, type LogFilesOptions } from './log-files';
import type { LogSink, NewLogEntry } from './log-sink';
import { RingBuffer } from './ring-buffer';
import { mergeNewest } from './merge-newest';
import { errorMessage } from '../../shared/error-message';

/** Extra facts about one coalesced batch. */
export interface LogBatchInfo {
  /** Entries appended since the previous batch but left out because the batch was full (the newest are kept). */
  skipped: number;
}

/** Options of a `LogHub`. */
export interface LogHubOptions {
  /** Coalesced delivery: at most one call per `flushIntervalMs`. */
  onBatch: (entries: LogEntry[], info: LogBatchInfo) => void;
  /** Default 33 (~30 batches a second). */
  flushIntervalMs?: number;
  /** Default 2000: in a flood the newest are kept, the rest counted as skipped. */
  maxBatchEntries?: number;
  /** Entries kept PER SERVER per source. */
  capacity?: Partial<Record<LogSource, number>>;
  /** Per-server byte budget for trace bodies (default 32 MiB): beyond it the oldest bodies are dropped, entries kept. */
  maxTraceBodyBytes?: number;
  /** Longer texts are cut (default 16,384 characters) so one huge line cannot defeat the ring buffers' bound. */
  maxTextChars?: number;
  /** Also append stderr, notification and host entries to per-server text files. */
  files?: LogFilesOptions;
  /** Masks the secrets the host holds in every entry's text, logger and body before it is kept, delivered or written. */
  redact?: (text: string) => string;
  now?: () => number;
}

export const DEFAULT_LOG_CAPACITY: Readonly<Record<LogSource, number>> = { stderr: 10_000, notification: 10_000, trace: 20_000, host: 2_000 };
const DEFAULT_QUERY_LIMIT = 5_000;
/** Fails to compile when LogEntry gains a field that `stamp` does not copy yet. */
const STAMPED_FIELDS = { server: true, time: true, source: true, text: true, level: true, logger: true, direction: true, method: true, id: true, size: true, body: true } as const satisfies Record<keyof NewLogEntry, true>;
void STAMPED_FIELDS;
const LEVEL_RANK = new Map<LogLevel, number>(LOG_LEVELS.map((level, index) => [level, index]));

/** One server's buffers. Bodies live apart so they can be dropped without touching the entries handed out. */
interface ServerLogs {
  buffers: Record<LogSource, RingBuffer<LogEntry>>;
  /** seq → body, in insertion order, so the oldest is first to go. */
  bodies: Map<number, string>;
  bodyBytes: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every log line of every server: per-server, per-source ring buffers (memory
 * stays bounded whatever a server does), coalesced delivery to the renderer,
 * filtered queries, and optional rotated files on disk.
 */
export class LogHub implements LogSink {
  private readonly onBatch: LogHubOptions['onBatch'];
  private readonly flushIntervalMs: number;
  private readonly capacity: Record<LogSource, number>;
  private readonly maxTraceBodyBytes: number;
  private readonly maxTextChars: number;
  private readonly now: () => number;
  private readonly files: LogFiles | undefined;
  private readonly redact: ((text: string) => string) | undefined;
  private readonly servers = new Map<string, ServerLogs>();
  private pending: RingBuffer<LogEntry>;
  private skippedBeforeRebuild = 0;
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;
  private disposed = false;
  private reportedFileError = false;
  private reportedBatchError = false;

  constructor(options: LogHubOptions) {
    this.onBatch = options.onBatch;
    this.flushIntervalMs = Math.max(0, options.flushIntervalMs ?? 33);
    this.capacity = { ...DEFAULT_LOG_CAPACITY, ...options.capacity };
    this.maxTraceBodyBytes = Math.max(0, options.maxTraceBodyBytes ?? 32 * 1024 * 1024);
    this.maxTextChars = Math.max(1, options.maxTextChars ?? 16_384);
    this.now = options.now ?? Date.now;
    this.pending = new RingBuffer(options.maxBatchEntries ?? 2_000);
    this.files = options.files === undefined ? undefined : new LogFiles(options.files, (message) => this.reportFileError(message));
    this.redact = options.redact;
  }

  /** Where a server's log file lives, when file logs are on. */
  logFilePath(server: string): string | undefined {
    return this.files?.pathFor(server);
  }

  append(input: NewLogEntry): void {
    if (this.disposed) return;
    this.seq += 1;
    const entry = this.stamp(input, this.seq);
    const body = input.body === undefined || this.redact === undefined ? input.body : this.redact(input.body);
    const logs = this.logsOf(entry.server);
    const evicted = logs.buffers[entry.source].push(entry);
    if (evicted !== undefined) this.dropBody(logs, evicted.seq);
    if (body !== undefined) {
      logs.bodies.set(entry.seq, body);
      logs.bodyBytes += Buffer.byteLength(body);
      this.enforceBodyBudget(logs);
    }
    this.pending.push(entry);
    if (this.files !== undefined && entry.source !== 'trace') this.files.enqueue(entry);
    this.schedule();
  }

  query(q: LogQuery): { entries: LogEntry[]; dropped: number } {
    const limit = q.limit ?? DEFAULT_QUERY_LIMIT;
    const sources = q.sources ?? LOG_SOURCES;
    const minRank = q.minLevel !== undefined ? (LEVEL_RANK.get(q.minLevel) ?? 0) : undefined;
    const pattern = q.text !== undefined && q.text !== '' ? new RegExp(escapeRegExp(q.text), 'i') : undefined;
    const afterSeq = q.afterSeq ?? -Infinity;
    const targets = q.server !== undefined ? [this.servers.get(q.server)] : [...this.servers.values()];
    const lists: LogEntry[][] = [];
    let dropped = 0;
    for (const logs of targets) {
      if (logs === undefined) continue;
      for (const source of new Set(sources)) {
        const buffer = logs.buffers[source];
        dropped += buffer.evicted;
        const matches: LogEntry[] = [];
        // Walk newest first and stop at `limit` or `afterSeq`: a live tail touches only the new entries.
        for (let i = buffer.length - 1; i >= 0 && matches.length < limit; i -= 1) {
          const entry = buffer.at(i) as LogEntry;
          if (entry.seq <= afterSeq) break;
          if (minRank !== undefined && entry.level !== undefined && (LEVEL_RANK.get(entry.level) ?? 0) < minRank) continue;
          if (pattern !== undefined && !pattern.test(entry.text)) {
            const body = logs.bodies.get(entry.seq);
            if (body === undefined || !pattern.test(body)) continue;
          }
          matches.push(entry);
        }
        if (matches.length > 0) lists.push(matches);
      }
    }
    const entries = mergeNewest(lists, limit).map((entry) => this.withBody(entry));
    return { entries, dropped };
  }

  /** Forget buffered entries of one server (or all); returns how many were removed. */
  clear(server?: string): number {
    const names = server !== undefined ? [server] : [...this.servers.keys()];
    let removed = 0;
    for (const name of names) {
      const logs = this.servers.get(name);
      if (logs === undefined) continue;
      for (const source of LOG_SOURCES) removed += logs.buffers[source].length;
      this.servers.delete(name);
    }
    // Entries not yet delivered would reappear after the renderer cleared its view.
    this.dropPending((entry) => server === undefined || entry.server === server);
    return removed;
  }

  removeServer(name: string): void {
    this.clear(name);
  }

  /** Deliver the pending batch and finish file writes now. */
  async flush(): Promise<void> {
    this.deliver();
    await this.files?.flush();
  }

  /** Flush, then stop: later appends are ignored. */
  async dispose(): Promise<void> {
    await this.flush();
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Bytes of trace bodies currently held for a server. */
  bodyBytes(server: string): number {
    return this.servers.get(server)?.bodyBytes ?? 0;
  }

  /**
   * Copy field by field in a fixed order: entries made with object rest/spread
   * were ~20x slower to build and to scan in queries (V8 shapes).
   */
  private stamp(input: NewLogEntry, seq: number): LogEntry {
    const redact = this.redact;
    // Redacted before it is cut, so a cut cannot leave half a secret behind.
    const full = redact === undefined ? input.text : redact(input.text);
    const text = full.length > this.maxTextChars ? `${full.slice(0, this.maxTextChars)}… (${full.length - this.maxTextChars} more characters)` : full;
    const entry: LogEntry = { seq, server: input.server, time: input.time, source: input.source, text };
    if (input.level !== undefined) entry.level = input.level;
    if (input.logger !== undefined) entry.logger = redact === undefined ? input.logger : redact(input.logger);
    if (input.direction !== undefined) entry.direction = input.direction;
    if (input.method !== undefined) entry.method = input.method;
    if (input.id !== undefined) entry.id = input.id;
    if (input.size !== undefined) entry.size = input.size;
    return entry;
  }

  private logsOf(server: string): ServerLogs {
    let logs = this.servers.get(server);
    if (logs === undefined) {
      const buffers = Object.fromEntries(LOG_SOURCES.map((source) => [source, new RingBuffer<LogEntry>(this.capacity[source])])) as Record<
        LogSource,
        RingBuffer<LogEntry>
      >;
      logs = { buffers, bodies: new Map(), bodyBytes: 0 };
      this.servers.set(server, logs);
    }
    return logs;
  }

  private dropBody(logs: ServerLogs, seq: number): void {
    const body = logs.bodies.get(seq);
    if (body === undefined) return;
    logs.bodies.delete(seq);
    logs.bodyBytes -= Buffer.byteLength(body);
  }

  private enforceBodyBudget(logs: ServerLogs): void {
    for (const seq of logs.bodies.keys()) {
      if (logs.bodyBytes <= this.maxTraceBodyBytes) return;
      this.dropBody(logs, seq);
    }
  }

  private withBody(entry: LogEntry): LogEntry {
    const body = this.servers.get(entry.server)?.bodies.get(entry.seq);
    return body === undefined ? entry : { ...entry, body };
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.deliver();
      void this.files?.flush();
    }, this.flushIntervalMs);
    this.timer.unref?.();
  }

  private deliver(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const entries = this.pending.toArray().map((entry) => this.withBody(entry));
    const skipped = this.pending.evicted + this.skippedBeforeRebuild;
    this.pending.clear();
    this.skippedBeforeRebuild = 0;
    try {
      this.onBatch(entries, { skipped });
    } catch (error) {
      if (this.reportedBatchError) return;
      this.reportedBatchError = true;
      this.appendHostError(`Delivering log updates failed: ${errorMessage(error)}`);
    }
  }

  private dropPending(remove: (entry: LogEntry) => boolean): void {
    const kept = this.pending.toArray().filter((entry) => !remove(entry));
    this.skippedBeforeRebuild += this.pending.evicted;
    this.pending.clear();
    for (const entry of kept) this.pending.push(entry);
  }

  private reportFileError(message: string): void {
    if (this.reportedFileError) return;
    this.reportedFileError = true;
    this.appendHostError(`${message}. Logs are still kept in memory; this is reported once.`);
  }

  private appendHostError(text: string): void {
    this.append({ server: '', time: this.now(), source: 'host', level: 'error', text });
  }
}
