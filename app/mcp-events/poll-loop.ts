import { abortableSleep } from './abortable-sleep';
import { EventOccurrenceSchema, PollResultSchema } from './events-draft';
import type { EventOccurrence, SubscriptionRequest } from './events-draft';

/** How the loop asks the server: one `events/poll` through the supervisor (reconnects and timeouts as for any request). */
export type PollSender = (request: SubscriptionRequest, signal: AbortSignal) => Promise<unknown>;

/** What one poll brought, after Berth's checks. */
export interface PollBatch {
  /** Occurrences of the right shape, in the server's order (not yet deduplicated: the intake does that). */
  events: EventOccurrence[];
  /** Entries that were not occurrences at all, with why: shown, never delivered. */
  malformed: Array<{ index: number; problem: string }>;
  /** The position to save; undefined when the server sent none (keep the old one), null: no replay. */
  cursor: string | null | undefined;
  /** The server skipped events (a stale cursor, maxAgeMs, its own ceiling). */
  truncated: boolean;
}

export interface PollLoopOptions {
  send: PollSender;
  /** The subscription as it stands, read before each poll (its cursor moves as batches are saved). */
  request: () => SubscriptionRequest;
  /** Saves the batch (the cursor first of all) and delivers its events; the next poll waits for it. */
  onBatch: (batch: PollBatch) => Promise<void>;
  /** A poll that failed; the loop backs off and goes on. */
  onError: (error: unknown, retryInMs: number) => void;
  /** The shortest wait between polls, whatever the server asks (the draft: a client floor, default 1 s). */
  floorMs?: number;
  /** The longest wait between polls, whatever the server asks. */
  ceilingMs?: number;
  /** The wait when the server gives no nextPollMs. */
  defaultMs?: number;
  /** Polls in a row for `hasMore` before the floor applies again: a server always saying "more" cannot spin Berth. */
  drainLimit?: number;
  /** Waits `ms`; resolves early (false) when `signal` aborts. Tests pass a clock they drive. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
}

export const POLL_FLOOR_MS = 1_000;
const CEILING_MS = 60 * 60_000;
const DEFAULT_MS = 30_000;
const DRAIN_LIMIT = 20;
const MAX_ERROR_WAIT_MS = 5 * 60_000;

/** Reads one `events/poll` answer: the batch and the wait the server asked for (undefined: none given). */
export function readPollResult(raw: unknown): { batch: PollBatch; nextPollMs?: number; hasMore: boolean } {
  const result = PollResultSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(
      `events/poll answered with a malformed result (${issue?.path.join('.') || 'result'}: ${issue?.message})`,
    );
  }
  const events: EventOccurrence[] = [];
  const malformed: PollBatch['malformed'] = [];
  result.data.events.forEach((entry, index) => {
    const occurrence = EventOccurrenceSchema.safeParse(entry);
    if (occurrence.success) events.push(occurrence.data);
    else {
      const issue = occurrence.error.issues[0];
      malformed.push({ index, problem: `${issue?.path.join('.') || 'event'}: ${issue?.message ?? 'not an event'}` });
    }
  });
  const { cursor, truncated, hasMore, nextPollMs } = result.data;
  return {
    batch: { events, malformed, cursor, truncated: truncated === true },
    ...(typeof nextPollMs === 'number' && Number.isFinite(nextPollMs) ? { nextPollMs } : {}),
    hasMore: hasMore === true,
  };
}

/**
 * One subscription's poll loop (the draft's poll delivery): poll, save and deliver the batch, then wait what the
 * server asks — bounded by a floor and a ceiling — or poll again at once while it has more, up to a limit. A failed
 * poll backs off (doubling from the floor to five minutes) and the loop goes on; only stop() ends it.
 */
export class PollLoop {
  private readonly controller = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly options: PollLoopOptions) {}

  start(): void {
    this.running ??= this.run();
  }

  /** Stops polling; resolves once a poll under way has been abandoned and no batch is being saved. */
  async stop(): Promise<void> {
    this.controller.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    const { signal } = this.controller;
    const floor = Math.max(this.options.floorMs ?? POLL_FLOOR_MS, 0);
    const ceiling = Math.max(this.options.ceilingMs ?? CEILING_MS, floor);
    const drainLimit = this.options.drainLimit ?? DRAIN_LIMIT;
    const sleep = this.options.sleep ?? abortableSleep;
    let drained = 0;
    let failures = 0;
    while (!signal.aborted) {
      let wait: number;
      try {
        const read = readPollResult(await this.options.send(this.options.request(), signal));
        if (signal.aborted) return;
        await this.options.onBatch(read.batch);
        failures = 0;
        if (read.hasMore && drained < drainLimit) {
          drained += 1;
          continue;
        }
        drained = 0;
        wait = Math.min(Math.max(read.nextPollMs ?? this.options.defaultMs ?? DEFAULT_MS, floor), ceiling);
      } catch (error) {
        if (signal.aborted) return;
        failures += 1;
        wait = Math.min(Math.max(floor, 1_000) * 2 ** Math.min(failures - 1, 10), MAX_ERROR_WAIT_MS);
        this.options.onError(error, wait);
      }
      if (!(await sleep(wait, signal))) return;
    }
  }
}
