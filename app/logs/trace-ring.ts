import type { LogEntry } from '../../shared/domain/log';
import { traceSummary, type TraceOutcome } from './trace-record';

const OUT = 1;
const RESULT = 2;
const ERROR = 4;
/** `texts[slot]` is the entry's whole text (masking or a cut changed the summary), not an error's detail. */
const FULL_TEXT = 8;
/** Grown by doubling up to the capacity, so a quiet server's trace costs little. */
const FIRST_ALLOCATION = 256;

/** A trace record's fields as the ring stores them; `text` only when it is not the summary of the others. */
export interface CompactTrace {
  seq: number;
  time: number;
  direction: 'in' | 'out';
  size: number;
  body: string;
  bodyBytes: number;
  method: string | undefined;
  id: string | number | undefined;
  outcome: TraceOutcome;
  errorDetail: string | undefined;
  text: string | undefined;
}

/**
 * One server's trace, oldest evicted first, kept as columns rather than as
 * log entries. A tool call traces two messages, and the trace keeps 20,000 per
 * server: as objects (entry, summary text) they were most of the garbage
 * collector's work on the call path. Here a message costs a few slots of
 * typed arrays and its body string; its log entry is built when someone asks
 * (a query, or a window following the trace). Entries handed in whole (not
 * by ServerLog) are kept as they are.
 */
export class TraceRing {
  private allocated = 0;
  /** Messages ever pushed: the message at absolute position p sits in slot p % capacity. */
  private pushed = 0;
  private evictedCount = 0;
  private seqs = new Float64Array(0);
  private times = new Float64Array(0);
  private sizes = new Float64Array(0);
  private bodyLengths = new Float64Array(0);
  private flags = new Uint8Array(0);
  private methods: (string | undefined)[] = [];
  private ids: (string | number | undefined)[] = [];
  private bodies: (string | undefined)[] = [];
  private texts: (string | undefined)[] = [];
  private whole: (LogEntry | undefined)[] = [];
  /** The same method name is one string for every message of a server, not one per parsed message. */
  private readonly methodNames = new Map<string, string>();
  /** No message older than this absolute position holds a body any more. */
  private bodyCursor = 0;

  constructor(
    readonly capacity: number,
    private readonly server: string,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`TraceRing capacity must be a positive integer, got ${capacity}`);
  }

  get length(): number {
    return Math.min(this.pushed, this.capacity);
  }

  /** Messages pushed out by newer ones. */
  get evicted(): number {
    return this.evictedCount;
  }

  /** Keep a compact record; returns the body bytes of the message it evicted (0 when none). */
  push(record: CompactTrace): number {
    const slot = this.claim();
    const released = this.release(slot);
    this.seqs[slot] = record.seq;
    this.times[slot] = record.time;
    this.sizes[slot] = record.size;
    this.bodyLengths[slot] = record.bodyBytes;
    this.bodies[slot] = record.body;
    this.ids[slot] = record.id;
    this.whole[slot] = undefined;
    let method = record.method;
    if (method !== undefined) {
      const known = this.methodNames.get(method);
      if (known !== undefined) method = known;
      else if (this.methodNames.size < 1_000) this.methodNames.set(method, method);
    }
    this.methods[slot] = method;
    let flags = record.direction === 'out' ? OUT : 0;
    if (record.outcome === 'result') flags |= RESULT;
    else if (record.outcome === 'error') flags |= ERROR;
    if (record.text !== undefined) flags |= FULL_TEXT;
    this.flags[slot] = flags;
    this.texts[slot] = record.text ?? (record.outcome === 'error' ? record.errorDetail : undefined);
    return released;
  }

  /** Keep an entry as it is (made by someone other than ServerLog); returns the body bytes of the one it evicted. */
  pushEntry(entry: LogEntry, bodyBytes: number): number {
    const slot = this.claim();
    const released = this.release(slot);
    this.seqs[slot] = entry.seq;
    this.bodyLengths[slot] = bodyBytes;
    this.bodies[slot] = entry.body;
    this.whole[slot] = entry;
    this.methods[slot] = undefined;
    this.ids[slot] = undefined;
    this.texts[slot] = undefined;
    return released;
  }

  seqAt(index: number): number {
    return this.seqs[this.slotOf(index)] as number;
  }

  /** The level of the entry at `index`: only entries handed in whole can have one. */
  levelAt(index: number): LogEntry['level'] {
    return this.whole[this.slotOf(index)]?.level;
  }

  bodyAt(index: number): string | undefined {
    return this.bodies[this.slotOf(index)];
  }

  textAt(index: number): string {
    const slot = this.slotOf(index);
    const whole = this.whole[slot];
    if (whole !== undefined) return whole.text;
    const flags = this.flags[slot] as number;
    const text = this.texts[slot];
    if ((flags & FULL_TEXT) !== 0) return text as string;
    return traceSummary(
      (flags & OUT) !== 0 ? 'out' : 'in',
      outcomeOf(flags),
      this.methods[slot],
      this.ids[slot],
      text,
      this.sizes[slot] as number,
    );
  }

  /** The log entry of the message at `index` (0 the oldest), built now; the same fields and order LogHub gives any entry. */
  entryAt(index: number): LogEntry {
    const slot = this.slotOf(index);
    const whole = this.whole[slot];
    const body = this.bodies[slot];
    if (whole !== undefined) return body === undefined && whole.body !== undefined ? withoutBody(whole) : whole;
    const flags = this.flags[slot] as number;
    const entry: LogEntry = {
      seq: this.seqs[slot] as number,
      server: this.server,
      time: this.times[slot] as number,
      source: 'trace',
      text: this.textAt(index),
    };
    entry.direction = (flags & OUT) !== 0 ? 'out' : 'in';
    const method = this.methods[slot];
    if (method !== undefined) entry.method = method;
    const id = this.ids[slot];
    if (id !== undefined) entry.id = id;
    entry.size = this.sizes[slot] as number;
    if (body !== undefined) entry.body = body;
    return entry;
  }

  /**
   * Drop the oldest body still kept (over the byte budget; the message stays).
   * Returns its seq and bytes, or undefined when no message holds a body.
   */
  oldestBody(): { seq: number; bytes: number } | undefined {
    this.bodyCursor = Math.max(this.bodyCursor, this.pushed - this.length);
    while (this.bodyCursor < this.pushed && this.bodies[this.bodyCursor % this.capacity] === undefined)
      this.bodyCursor += 1;
    if (this.bodyCursor >= this.pushed) return undefined;
    const slot = this.bodyCursor % this.capacity;
    return { seq: this.seqs[slot] as number, bytes: this.bodyLengths[slot] as number };
  }

  /** Drops the body {@linkcode oldestBody} named; returns its bytes. */
  dropOldestBody(): number {
    const oldest = this.oldestBody();
    if (oldest === undefined) return 0;
    const slot = this.bodyCursor % this.capacity;
    this.bodies[slot] = undefined;
    this.bodyCursor += 1;
    return oldest.bytes;
  }

  private slotOf(index: number): number {
    return (this.pushed - this.length + index) % this.capacity;
  }

  /** The slot the next message goes to, growing the columns while the ring is not full. */
  private claim(): number {
    const slot = this.pushed % this.capacity;
    if (this.pushed < this.capacity && slot >= this.allocated)
      this.grow(Math.min(this.capacity, Math.max(FIRST_ALLOCATION, this.allocated * 2)));
    if (this.pushed >= this.capacity) this.evictedCount += 1;
    this.pushed += 1;
    return slot;
  }

  /** The body bytes of the message leaving `slot`, if one is there. */
  private release(slot: number): number {
    if (this.pushed <= this.capacity) return 0;
    return this.bodies[slot] === undefined ? 0 : (this.bodyLengths[slot] as number);
  }

  private grow(size: number): void {
    this.seqs = grown(this.seqs, new Float64Array(size));
    this.times = grown(this.times, new Float64Array(size));
    this.sizes = grown(this.sizes, new Float64Array(size));
    this.bodyLengths = grown(this.bodyLengths, new Float64Array(size));
    this.flags = grown(this.flags, new Uint8Array(size));
    this.allocated = size;
  }
}

function grown<T extends Float64Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

function outcomeOf(flags: number): TraceOutcome {
  if ((flags & RESULT) !== 0) return 'result';
  if ((flags & ERROR) !== 0) return 'error';
  return 'call';
}

/** A copy of `entry` without its body, field by field (see LogHub's `stamp`). */
export function withoutBody(entry: LogEntry): LogEntry {
  const copy: LogEntry = {
    seq: entry.seq,
    server: entry.server,
    time: entry.time,
    source: entry.source,
    text: entry.text,
  };
  if (entry.level !== undefined) copy.level = entry.level;
  if (entry.logger !== undefined) copy.logger = entry.logger;
  if (entry.direction !== undefined) copy.direction = entry.direction;
  if (entry.method !== undefined) copy.method = entry.method;
  if (entry.id !== undefined) copy.id = entry.id;
  if (entry.size !== undefined) copy.size = entry.size;
  return copy;
}
