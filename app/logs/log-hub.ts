import type { LogQuery } from '../../shared/contract/logs';
import { LOG_SOURCES, type LogEntry, type LogSource } from '../../shared/domain/log';
import { LOG_LEVELS, type LogLevel } from '../../shared/domain/server';
import { LogFiles, type LogFilesOptions } from './log-files';
import type { LogSink, NewLogEntry } from './log-sink';
import { RingBuffer } from './ring-buffer';
import { mergeNewest } from './merge-newest';
import { traceSummary, type NewTraceRecord } from './trace-record';
import { TraceRing } from './trace-ring';
import { BUFFERED_SOURCES, enforceBodyBudget, type BufferedSource, type ServerLogs } from './server-logs';
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
  /**
   * `always` (default): every entry goes out in the batches. `when-followed`
   * (the host): trace entries go out only while someone follows the trace
   * ({@linkcode LogHub.followTrace}); they are kept for queries either way.
   * Every JSON-RPC message of every server, with its body, sent to a window
   * that does not show it was most of what a tool call cost in browser mode.
   */
  liveTrace?: 'always' | 'when-followed';
  /** Masks the secrets the host holds in every entry's text, logger and body before it is kept, delivered or written. */
  redact?: (text: string) => string;
  now?: () => number;
}

export const DEFAULT_LOG_CAPACITY: Readonly<Record<LogSource, number>> = {
  stderr: 10_000,
  notification: 10_000,
  trace: 20_000,
  host: 2_000,
  app: 2_000,
};
const DEFAULT_QUERY_LIMIT = 5_000;
/** Fails to compile when LogEntry gains a field that `stamp` does not copy yet. */
const STAMPED_FIELDS = {
  server: true,
  time: true,
  source: true,
  text: true,
  level: true,
  logger: true,
  direction: true,
  method: true,
  id: true,
  size: true,
  body: true,
} as const satisfies Record<keyof NewLogEntry, true>;
void STAMPED_FIELDS;
const LEVEL_RANK = new Map<LogLevel, number>(LOG_LEVELS.map((level, index) => [level, index]));

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
  /** Most entries a server's `bodied` queue may hold before evicted ones are filtered out: twice what its buffers hold. */
  private readonly bodiedLimit: number;
  private readonly maxTraceBodyBytes: number;
  private readonly maxTextChars: number;
  private readonly now: () => number;
  private readonly files: LogFiles | undefined;
  private readonly redact: ((text: string) => string) | undefined;
  /** Trace entries go out in batches until this time (ms); Infinity when `liveTrace` is `always`. */
  private traceLiveUntil: number;
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
    this.bodiedLimit = 2 * LOG_SOURCES.reduce((sum, source) => sum + this.capacity[source], 0);
    this.maxTraceBodyBytes = Math.max(0, options.maxTraceBodyBytes ?? 32 * 1024 * 1024);
    this.maxTextChars = Math.max(1, options.maxTextChars ?? 16_384);
    this.now = options.now ?? Date.now;
    this.pending = new RingBuffer(options.maxBatchEntries ?? 2_000);
    this.files =
      options.files === undefined ? undefined : new LogFiles(options.files, (message) => this.reportFileError(message));
    this.redact = options.redact;
    this.traceLiveUntil = (options.liveTrace ?? 'always') === 'always' ? Infinity : 0;
  }

  /**
   * Someone shows the trace live: trace entries go out in batches for the
   * next `forMs` (at least). Entries from before are in the buffers for
   * `query`; a window that starts following asks for them there.
   */
  followTrace(forMs: number): void {
    this.traceLiveUntil = Math.max(this.traceLiveUntil, this.now() + forMs);
  }

  /** Where a server's log file lives, when file logs are on. */
  logFilePath(server: string): string | undefined {
    return this.files?.pathFor(server);
  }

  append(input: NewLogEntry): void {
    if (this.disposed) return;
    this.seq += 1;
    const entry = this.stamp(input, this.seq);
    const logs = this.logsOf(entry.server);
    if (entry.source === 'trace') {
      const bytes = entry.body === undefined ? 0 : Buffer.byteLength(entry.body);
      logs.bodyBytes += bytes - logs.trace.pushEntry(entry, bytes);
      if (bytes > 0) enforceBodyBudget(logs, this.maxTraceBodyBytes, this.bodiedLimit);
      if (this.traceLiveUntil <= this.now()) return;
      this.pending.push(entry);
      this.schedule();
      return;
    }
    const evicted = logs.buffers[entry.source].push(entry);
    // An entry whose body went over budget was replaced by one without: its bytes are counted out already.
    if (evicted?.body !== undefined) logs.bodyBytes -= Buffer.byteLength(evicted.body);
    if (entry.body !== undefined) {
      logs.bodied.push(entry);
      logs.bodyBytes += Buffer.byteLength(entry.body);
      enforceBodyBudget(logs, this.maxTraceBodyBytes, this.bodiedLimit);
    }
    this.pending.push(entry);
    if (this.files !== undefined) this.files.enqueue(entry);
    this.schedule();
  }

  /**
   * One traced JSON-RPC message, kept as a compact record: its entry (the
   * summary line and all) is built only when a query asks for it or a window
   * follows the trace. Masking is done now, as for any entry, so a secret
   * forgotten later stays masked: the summary is masked here and kept only
   * when masking or the length cut changed it.
   */
  appendTrace(record: NewTraceRecord): void {
    if (this.disposed) return;
    this.seq += 1;
    const summary = traceSummary(
      record.direction,
      record.outcome,
      record.method,
      record.id,
      record.errorDetail,
      record.size,
    );
    const text = this.finishText(record.redactText === undefined ? summary : record.redactText(summary));
    const body = this.redact === undefined ? record.body : this.redact(record.body);
    const bodyBytes = Buffer.byteLength(body);
    const logs = this.logsOf(record.server);
    const trace = logs.trace;
    const released = trace.push({
      seq: this.seq,
      time: record.time,
      direction: record.direction,
      size: record.size,
      body,
      bodyBytes,
      method: record.method,
      id: record.id,
      outcome: record.outcome,
      errorDetail: record.errorDetail,
      text: text === summary ? undefined : text,
    });
    logs.bodyBytes += bodyBytes - released;
    enforceBodyBudget(logs, this.maxTraceBodyBytes, this.bodiedLimit);
    // Nobody follows the trace: it is kept for queries, and no entry is made for it.
    if (this.traceLiveUntil <= this.now()) return;
    this.pending.push(trace.entryAt(trace.length - 1));
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
        if (source === 'trace') {
          dropped += logs.trace.evicted;
          const matches = queryTrace(logs.trace, limit, afterSeq, minRank, pattern);
          if (matches.length > 0) lists.push(matches);
          continue;
        }
        const buffer = logs.buffers[source];
        dropped += buffer.evicted;
        const matches: LogEntry[] = [];
        // Walk newest first and stop at `limit` or `afterSeq`: a live tail touches only the new entries.
        for (let i = buffer.length - 1; i >= 0 && matches.length < limit; i -= 1) {
          const entry = buffer.at(i) as LogEntry;
          if (entry.seq <= afterSeq) break;
          if (minRank !== undefined && entry.level !== undefined && (LEVEL_RANK.get(entry.level) ?? 0) < minRank)
            continue;
          if (
            pattern !== undefined &&
            !pattern.test(entry.text) &&
            (entry.body === undefined || !pattern.test(entry.body))
          )
            continue;
          matches.push(entry);
        }
        if (matches.length > 0) lists.push(matches);
      }
    }
    return { entries: mergeNewest(lists, limit), dropped };
  }

  /** Forget buffered entries of one server (or all); returns how many were removed. */
  clear(server?: string): number {
    const names = server !== undefined ? [server] : [...this.servers.keys()];
    let removed = 0;
    for (const name of names) {
      const logs = this.servers.get(name);
      if (logs === undefined) continue;
      for (const source of BUFFERED_SOURCES) removed += logs.buffers[source].length;
      removed += logs.trace.length;
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

  /** Bytes of bodies currently held for a server. */
  bodyBytes(server: string): number {
    return this.servers.get(server)?.bodyBytes ?? 0;
  }

  /**
   * Copy field by field in a fixed order: entries made with object rest/spread
   * were ~20x slower to build and to scan in queries (V8 shapes).
   */
  private stamp(input: NewLogEntry, seq: number): LogEntry {
    const redact = this.redact;
    const entry: LogEntry = {
      seq,
      server: input.server,
      time: input.time,
      source: input.source,
      text: this.finishText(input.text),
    };
    if (input.level !== undefined) entry.level = input.level;
    if (input.logger !== undefined) entry.logger = redact === undefined ? input.logger : redact(input.logger);
    if (input.direction !== undefined) entry.direction = input.direction;
    if (input.method !== undefined) entry.method = input.method;
    if (input.id !== undefined) entry.id = input.id;
    if (input.size !== undefined) entry.size = input.size;
    if (input.body !== undefined) entry.body = redact === undefined ? input.body : redact(input.body);
    return entry;
  }

  /** A text as it is kept: masked, then cut (masked before it is cut, so a cut cannot leave half a secret behind). */
  private finishText(text: string): string {
    const full = this.redact === undefined ? text : this.redact(text);
    return full.length > this.maxTextChars
      ? `${full.slice(0, this.maxTextChars)}… (${full.length - this.maxTextChars} more characters)`
      : full;
  }

  private logsOf(server: string): ServerLogs {
    let logs = this.servers.get(server);
    if (logs === undefined) {
      const buffers = Object.fromEntries(
        BUFFERED_SOURCES.map((source) => [source, new RingBuffer<LogEntry>(this.capacity[source])]),
      ) as Record<BufferedSource, RingBuffer<LogEntry>>;
      logs = { buffers, trace: new TraceRing(this.capacity.trace, server), bodied: [], bodiedHead: 0, bodyBytes: 0 };
      this.servers.set(server, logs);
    }
    return logs;
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
    const entries = this.pending.toArray();
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

/** The trace's entries after `afterSeq` that match `pattern`, newest first, at most `limit`; only those are built. */
function queryTrace(
  trace: TraceRing,
  limit: number,
  afterSeq: number,
  minRank: number | undefined,
  pattern: RegExp | undefined,
): LogEntry[] {
  const matches: LogEntry[] = [];
  for (let i = trace.length - 1; i >= 0 && matches.length < limit; i -= 1) {
    if (trace.seqAt(i) <= afterSeq) break;
    if (minRank !== undefined) {
      const level = trace.levelAt(i);
      if (level !== undefined && (LEVEL_RANK.get(level) ?? 0) < minRank) continue;
    }
    if (pattern !== undefined) {
      const body = trace.bodyAt(i);
      if (!pattern.test(trace.textAt(i)) && (body === undefined || !pattern.test(body))) continue;
    }
    matches.push(trace.entryAt(i));
  }
  return matches;
}
