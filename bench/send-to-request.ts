import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MODEL_ID } from '../app/settings/model-table';
import { busyAndIdle, profiled, topSelfTime, topTotalTime } from './cpu-profile';
import type { CpuProfile, SelfTime } from './cpu-profile';
import { turnDone, unwrap } from './host-app';
import { buildConversations, writeConversations } from './generators/conversations';
import { withCorpusHost } from './prompt-cache';
import type { Measure } from './scale-table';
import { median, percentile } from './stats';

// Berth's own time from Send to its request reaching the model API, at a heavy user's scale:
// 2,000 tools (tool search on) and 5,000 conversations. Berth runs in this process (createHost),
// so the moment its request is on the wire is seen here: Node's fetch (undici) reports on the
// `undici:request:bodySent` diagnostics channel when a request's body has been written to the
// socket. That is the row's figure; the fake API's handler having the request (its reading and
// checking of the body included) is reported beside it as an upper bound.

export const SEND_TOOLS = 2_000;
export const SEND_CONVERSATIONS = 5_000;
/** Timed sends after the first (cold) one, per round: enough that the median is a send like most, not one GC pause. */
export const WARM_SENDS = 20;
/** Between two sends, as between a person's messages: the turn over and its saves written. */
const PAUSE_MS = 200;
/** Set to a file path to write a CPU profile of the first round's warm sends there (and print its top costs). */
const PROFILE_ENV = 'BERTH_BENCH_CPU_PROFILE';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const SEND_MEASURES: Measure[] = [
  { key: 'coldMs', label: 'first send after start, Send → request on the wire (ms)', target: '', digits: 1 },
  {
    key: 'warmMs',
    label: `next ${WARM_SENDS} sends, median, Send → request on the wire (ms): Berth's part`,
    target: '< 30',
    pass: (v) => v < 30,
    digits: 1,
  },
  { key: 'warmP90Ms', label: `next ${WARM_SENDS} sends, p90, Send → request on the wire (ms)`, target: '', digits: 1 },
  {
    key: 'apiMs',
    label: `next ${WARM_SENDS} sends, median, Send → request at the fake API's handler (ms)`,
    target: '',
    digits: 1,
  },
];

/** The monotonic clock in microseconds, as CPU profiles time their samples. */
const micros = (): number => Number(process.hrtime.bigint() / 1000n);

/** Watches for Berth's next POST to the Messages API: when its body was on the wire (performance.now() and micros()), NaN until then. */
function watchRequestOnWire(): { readonly at: number; readonly atMicros: number; stop(): void } {
  let at = Number.NaN;
  let atMicros = Number.NaN;
  const listener = (message: unknown): void => {
    const request = (message as { request?: { method?: string; path?: string } }).request;
    if (Number.isNaN(at) && request?.method === 'POST' && request.path?.startsWith('/v1/messages') === true) {
      at = performance.now();
      atMicros = micros();
    }
  };
  subscribe('undici:request:bodySent', listener);
  return {
    get at() {
      return at;
    },
    get atMicros() {
      return atMicros;
    },
    stop: () => unsubscribe('undici:request:bodySent', listener),
  };
}

/** One timed send: Berth's part (to the wire), to the fake API's handler, and its span on the profile's clock. */
interface SendTime {
  wireMs: number;
  apiMs: number;
  span: readonly [number, number];
}

const profileLines = (list: readonly SelfTime[]): string[] =>
  list.map(
    ({ where, ms, share }) => `  ${ms.toFixed(1).padStart(7)} ms ${(share * 100).toFixed(1).padStart(5)}%  ${where}`,
  );

/** The top costs of the warm sends, counted only from each Send to its request on the wire. */
function printProfile(file: string, profile: CpuProfile, times: readonly SendTime[]): void {
  const spans = times.map((time) => time.span);
  const { busyMs, idleMs } = busyAndIdle(profile, spans);
  console.error(
    [
      `CPU profile of ${times.length} warm sends written to ${file}. From Send to the request on the wire, per send: ${(busyMs / times.length).toFixed(2)} ms running, ${(idleMs / times.length).toFixed(2)} ms waiting (I/O, or the CPU given to other processes).`,
      'Self time, top 25 (busy samples between Send and the wire):',
      ...profileLines(topSelfTime(profile, 25, ROOT, spans)),
      'Total time of Berth functions, top 40 (between Send and the wire):',
      ...profileLines(topTotalTime(profile, 40, ROOT, spans)),
    ].join('\n'),
  );
}

/**
 * One round: Berth started on the config dir, a cold send, then WARM_SENDS timed ones in the
 * newest conversation through the contract (chat.send), the fake API answering at once.
 */
export function sendToRequestRound(round = 0): Promise<Record<string, number>> {
  let open = '';
  return withCorpusHost(
    SEND_TOOLS,
    async (configDir) => {
      const conversations = buildConversations({ count: SEND_CONVERSATIONS, model: DEFAULT_MODEL_ID });
      await writeConversations(configDir, conversations);
      open = conversations[0]?.id ?? '';
    },
    async (host, fake) => {
      const send = async (index: number): Promise<SendTime> => {
        let arrived = Number.NaN;
        fake.script([
          () => {
            arrived = performance.now();
            return { text: 'ok' };
          },
        ]);
        const done = turnDone(host, open);
        const wire = watchRequestOnWire();
        const startedMicros = micros();
        const started = performance.now();
        try {
          unwrap(await host.dispatch('chat.send', { id: open, text: `Hello ${index}` }));
          // The reply comes after the request, so by the turn's end both moments are known.
          await done;
          if (Number.isNaN(wire.at)) throw new Error('the turn ended without a request to the Messages API');
          return { wireMs: wire.at - started, apiMs: arrived - started, span: [startedMicros, wire.atMicros] };
        } finally {
          wire.stop();
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        }
      };
      const cold = await send(0);
      const warm = async (): Promise<SendTime[]> => {
        const times: SendTime[] = [];
        for (let index = 1; index <= WARM_SENDS; index += 1) times.push(await send(index));
        return times;
      };
      const file = process.env[PROFILE_ENV];
      let times: SendTime[];
      if (file !== undefined && file !== '' && round === 0) {
        const { result, profile } = await profiled(file, warm);
        times = result;
        printProfile(file, profile, times);
      } else times = await warm();
      const wire = times.map((time) => time.wireMs);
      return {
        coldMs: cold.wireMs,
        warmMs: median(wire),
        warmP90Ms: percentile(wire, 90),
        apiMs: median(times.map((time) => time.apiMs)),
      };
    },
  );
}
