import { performance } from 'node:perf_hooks';
import { ECHO_SERVER } from './clients';
import { allReady, openWholeHost } from './host-app';
import { percentile } from './stats';

export interface LogFloodResult {
  requestedLinesPerSecond: number;
  seconds: number;
  /** Lines the server wrote (from its closing "flood done: N lines" line). */
  linesSent: number;
  /** stderr lines that reached logs.appended (a full batch keeps the newest and drops the rest from the event, not from the log). */
  linesDelivered: number;
  deliveredLinesPerSecond: number;
  batches: number;
  batchesPerSecond: number;
  /** Largest logs.appended batch, in entries. */
  maxBatchEntries: number;
  /** Busiest single second of logs.appended events. */
  peakBatchesInOneSecond: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  heapBeforeMb: number;
  heapPeakMb: number;
  heapAfterGcMb: number | undefined;
  /** Event-loop stalls seen by a 10 ms timer during the flood (p99 of its lateness). */
  timerLagP99Ms: number;
}

const MB = 1024 * 1024;

/**
 * One echo server configured to write `linesPerSecond` stderr lines for
 * `seconds` once started, through the whole host (createHost: LogHub with
 * files, ring buffers, logs.appended batches). Memory of this process (the
 * host runs in it) is sampled every 100 ms; the flood is over when the
 * server's closing "flood done" line has been delivered.
 */
export async function benchLogFlood(linesPerSecond: number, seconds: number): Promise<LogFloodResult> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  const whole = await openWholeHost({
    flood: {
      command: process.execPath,
      args: [ECHO_SERVER],
      env: { BENCH_FLOOD_LINES_PER_SEC: String(linesPerSecond), BENCH_FLOOD_SECONDS: String(seconds) },
    },
  });
  let linesDelivered = 0;
  let linesSent = 0;
  let batches = 0;
  let maxBatchEntries = 0;
  const batchSeconds = new Map<number, number>();
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const started = performance.now();
  const unsubscribe = whole.host.subscribe((topic, payload) => {
    if (topic !== 'logs.appended') return;
    const entries = (payload as { entries: Array<{ source: string; text: string }> }).entries;
    batches++;
    maxBatchEntries = Math.max(maxBatchEntries, entries.length);
    const second = Math.floor((performance.now() - started) / 1000);
    batchSeconds.set(second, (batchSeconds.get(second) ?? 0) + 1);
    for (const entry of entries) {
      if (entry.source !== 'stderr') continue;
      if (entry.text.startsWith('flood line')) linesDelivered++;
      else if (entry.text.startsWith('flood done')) {
        linesSent = Number(/flood done: (\d+) lines/.exec(entry.text)?.[1] ?? Number.NaN);
        finished();
      }
    }
  });
  let rssPeak = before.rss;
  let heapPeak = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    rssPeak = Math.max(rssPeak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 100);
  const lags: number[] = [];
  let expected = performance.now() + 10;
  const lagTimer = setInterval(() => {
    const now = performance.now();
    lags.push(Math.max(0, now - expected));
    expected = now + 10;
  }, 10);
  let timedOut = false;
  const deadline = setTimeout(
    () => {
      timedOut = true;
      finished();
    },
    (seconds + 60) * 1000,
  );
  try {
    await allReady(whole.host, ['flood']);
    await done;
  } finally {
    clearTimeout(deadline);
    clearInterval(sampler);
    clearInterval(lagTimer);
    unsubscribe();
  }
  if (timedOut) {
    await whole.dispose();
    throw new Error(
      `the flood's closing line did not arrive within ${seconds + 60} s (${linesDelivered} lines delivered)`,
    );
  }
  const elapsedSeconds = (performance.now() - started) / 1000;
  gc?.();
  const afterGc = gc === undefined ? undefined : process.memoryUsage().heapUsed / MB;
  await whole.dispose();
  return {
    requestedLinesPerSecond: linesPerSecond,
    seconds,
    linesSent,
    linesDelivered,
    deliveredLinesPerSecond: linesDelivered / elapsedSeconds,
    batches,
    batchesPerSecond: batches / elapsedSeconds,
    maxBatchEntries,
    peakBatchesInOneSecond: Math.max(0, ...batchSeconds.values()),
    rssBeforeMb: before.rss / MB,
    rssPeakMb: rssPeak / MB,
    heapBeforeMb: before.heapUsed / MB,
    heapPeakMb: heapPeak / MB,
    heapAfterGcMb: afterGc,
    timerLagP99Ms: lags.length === 0 ? 0 : percentile(lags, 99),
  };
}
