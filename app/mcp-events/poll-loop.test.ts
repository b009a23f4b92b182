import { describe, expect, it } from 'vitest';
import { PollLoop, readPollResult, type PollBatch } from './poll-loop';
import type { SubscriptionRequest } from './events-draft';

/** A clock the test drives: each wait the loop asks for is recorded and ends at once (or on stop). */
function recordedSleep(waits: number[], stopAfter: number, stop: () => void) {
  return async (ms: number, signal: AbortSignal): Promise<boolean> => {
    waits.push(ms);
    if (waits.length >= stopAfter) stop();
    return !signal.aborted;
  };
}

const REQUEST: SubscriptionRequest = { name: 'build.finished', arguments: { project: 'berth' }, cursor: null };
const event = (n: number) => ({
  eventId: `evt-${n}`,
  name: 'build.finished',
  timestamp: '2026-12-07T00:00:00Z',
  data: { n },
});

async function run(answers: unknown[], options: { floorMs?: number; drainLimit?: number; stopAfter: number }) {
  const waits: number[] = [];
  const batches: PollBatch[] = [];
  const errors: number[] = [];
  let polls = 0;
  let loop: PollLoop | undefined;
  const done = new Promise<void>((resolve) => {
    loop = new PollLoop({
      send: async () => {
        const answer = answers[Math.min(polls, answers.length - 1)];
        polls += 1;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      request: () => REQUEST,
      onBatch: async (batch) => void batches.push(batch),
      onError: (_error, retryInMs) => void errors.push(retryInMs),
      ...(options.floorMs !== undefined ? { floorMs: options.floorMs } : {}),
      ...(options.drainLimit !== undefined ? { drainLimit: options.drainLimit } : {}),
      sleep: recordedSleep(waits, options.stopAfter, () => void loop?.stop().then(resolve)),
    });
  });
  loop?.start();
  await done;
  return { waits, batches, errors, polls };
}

describe('PollLoop', () => {
  it('waits what the server asks, but never less than the floor nor more than the ceiling', async () => {
    const { waits } = await run([{ events: [], cursor: 'c', nextPollMs: 0 }], { stopAfter: 3 });
    expect(waits).toEqual([1_000, 1_000, 1_000]);
    const slow = await run([{ events: [], cursor: 'c', nextPollMs: 10 * 60 * 60_000 }], { stopAfter: 1 });
    expect(slow.waits).toEqual([60 * 60_000]);
    const asked = await run([{ events: [], cursor: 'c', nextPollMs: 4_500 }], { stopAfter: 1 });
    expect(asked.waits).toEqual([4_500]);
  });

  it('drains hasMore at once, but a server that always has more gets the floor after the limit', async () => {
    const { waits, polls, batches } = await run([{ events: [event(1)], cursor: 'c', hasMore: true, nextPollMs: 0 }], {
      drainLimit: 5,
      stopAfter: 2,
    });
    // Five immediate polls after the first, then a wait at the floor; again five, then the second wait.
    expect(waits).toEqual([1_000, 1_000]);
    expect(polls).toBe(12);
    expect(batches).toHaveLength(12);
  });

  it('backs off after failures, doubling from the floor, and goes on', async () => {
    const { errors, batches } = await run(
      [new Error('down'), new Error('down'), new Error('down'), { events: [], cursor: 'c', nextPollMs: 2_000 }],
      { stopAfter: 4 },
    );
    expect(errors).toEqual([1_000, 2_000, 4_000]);
    expect(batches).toHaveLength(1);
  });

  it('keeps the well-formed occurrences of a batch and says which entries were not events', () => {
    const { batch, hasMore, nextPollMs } = readPollResult({
      events: [event(1), { eventId: 7 }, event(2)],
      cursor: 'seq:9',
      truncated: true,
      hasMore: false,
    });
    expect(batch.events.map((occurrence) => occurrence.eventId)).toEqual(['evt-1', 'evt-2']);
    expect(batch.malformed).toEqual([{ index: 1, problem: expect.stringContaining('eventId') }]);
    expect(batch).toMatchObject({ cursor: 'seq:9', truncated: true });
    expect(hasMore).toBe(false);
    expect(nextPollMs).toBeUndefined();
    expect(() => readPollResult({ events: 'none' })).toThrow(/malformed result \(events:/);
  });
});
