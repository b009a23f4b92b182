import { LOG_SOURCES, type LogEntry, type LogSource } from '../../shared/domain/log';
import type { RingBuffer } from './ring-buffer';
import { withoutBody, type TraceRing } from './trace-ring';

/** Every source but the trace, which a TraceRing keeps. */
export type BufferedSource = Exclude<LogSource, 'trace'>;
export const BUFFERED_SOURCES = LOG_SOURCES.filter((source): source is BufferedSource => source !== 'trace');

/**
 * One server's buffers. The trace is kept compactly (trace-ring.ts says why);
 * an entry of any other source that has a body keeps it on itself, so the
 * entry kept, delivered and queried is one object. Entries are never changed
 * once made: over the byte budget, the buffer's entry is replaced by a copy
 * without its body.
 */
export interface ServerLogs {
  buffers: Record<BufferedSource, RingBuffer<LogEntry>>;
  trace: TraceRing;
  /** Entries of buffered sources made with a body, oldest first, from `bodiedHead` on; some may have been evicted since (see `isEvicted`). */
  bodied: LogEntry[];
  bodiedHead: number;
  bodyBytes: number;
}

/** Past this many passed-over slots, the `bodied` queue is compacted. */
const BODIED_COMPACT_AT = 4_096;

/**
 * Over `maxBytes`: the oldest bodies go (in the trace ring; other entries are
 * replaced, in their buffers, by copies without it). `bodiedLimit`: most
 * entries the `bodied` queue may hold before evicted ones are filtered out.
 */
export function enforceBodyBudget(logs: ServerLogs, maxBytes: number, bodiedLimit: number): void {
  while (logs.bodyBytes > maxBytes) {
    const traced = logs.trace.oldestBody();
    const queued = logs.bodied[logs.bodiedHead];
    if (traced !== undefined && (queued === undefined || traced.seq < queued.seq)) {
      logs.bodyBytes -= logs.trace.dropOldestBody();
      continue;
    }
    if (queued === undefined) break;
    const oldest = queued;
    logs.bodiedHead += 1;
    const buffer = logs.buffers[oldest.source as BufferedSource];
    const index = indexOfSeq(buffer, oldest.seq);
    // Not found: evicted already, and its bytes counted out then.
    if (index === undefined || oldest.body === undefined) continue;
    buffer.replace(index, withoutBody(oldest));
    logs.bodyBytes -= Buffer.byteLength(oldest.body);
  }
  // Evicted entries at the head are let go, so the queue holds about what the buffers hold.
  while (logs.bodiedHead < logs.bodied.length && isEvicted(logs, logs.bodied[logs.bodiedHead] as LogEntry))
    logs.bodiedHead += 1;
  const waiting = logs.bodied.length - logs.bodiedHead;
  if (waiting > bodiedLimit) {
    // Only when bodies come from several sources (a head that stays while others behind it were evicted).
    logs.bodied = logs.bodied.slice(logs.bodiedHead).filter((entry) => !isEvicted(logs, entry));
    logs.bodiedHead = 0;
  } else if (logs.bodiedHead >= BODIED_COMPACT_AT && logs.bodiedHead >= waiting) {
    logs.bodied = logs.bodied.slice(logs.bodiedHead);
    logs.bodiedHead = 0;
  }
}

/** Buffers drop their oldest first and hold entries in seq order: one older than a buffer's first is gone. */
function isEvicted(logs: ServerLogs, entry: LogEntry): boolean {
  const first = logs.buffers[entry.source as BufferedSource].at(0);
  return first === undefined || entry.seq < first.seq;
}

/** Where the entry with `seq` sits in `buffer` (entries are in seq order), or undefined when it is no longer there. */
function indexOfSeq(buffer: RingBuffer<LogEntry>, seq: number): number | undefined {
  let low = 0;
  let high = buffer.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = (buffer.at(middle) as LogEntry).seq;
    if (found === seq) return middle;
    if (found < seq) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}
