import { performance } from 'node:perf_hooks';
import type { BenchClient } from './clients';
import { summarize, type LatencySummary } from './stats';

/** One measured series: how many calls, how many in flight, and what came of it. */
export interface SeriesResult {
  label: string;
  concurrency: number;
  calls: number;
  warmup: number;
  elapsedMs: number;
  callsPerSecond: number;
  latency: LatencySummary;
  /** CPU time (user + system) of this process over the measured calls, per call: what the row costs the process, however busy the machine. */
  cpuMicrosPerCall: number;
}

export interface SeriesPlan {
  calls: number;
  warmup: number;
  concurrency: number;
}

/**
 * Runs `warmup` unmeasured calls, then `calls` measured ones with at most
 * `concurrency` in flight (a pool of workers each awaiting one call at a time).
 * Each reply is checked, so a bench that silently measures errors cannot pass.
 */
export async function runSeries(
  label: string,
  call: (text: string) => Promise<unknown>,
  plan: SeriesPlan,
): Promise<SeriesResult> {
  await pool(plan.warmup, plan.concurrency, call, () => undefined);
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  await pool(plan.calls, plan.concurrency, call, (ms) => latencies.push(ms));
  const elapsedMs = performance.now() - started;
  return seriesResult(label, plan, elapsedMs, latencies, process.cpuUsage(cpu));
}

/** A series' result from its measurements (`cpu`: this process's CPU time over the measured calls). */
export function seriesResult(
  label: string,
  plan: SeriesPlan,
  elapsedMs: number,
  latencies: readonly number[],
  cpu: NodeJS.CpuUsage,
): SeriesResult {
  return {
    label,
    concurrency: plan.concurrency,
    calls: plan.calls,
    warmup: plan.warmup,
    elapsedMs,
    callsPerSecond: (plan.calls / elapsedMs) * 1000,
    latency: summarize(latencies),
    cpuMicrosPerCall: (cpu.user + cpu.system) / plan.calls,
  };
}

async function pool(
  total: number,
  concurrency: number,
  call: (text: string) => Promise<unknown>,
  record: (ms: number) => void,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      const index = next++;
      const text = `ping ${index}`;
      const start = performance.now();
      const reply = await call(text);
      record(performance.now() - start);
      assertEchoed(reply, text);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}

/** Tool results and prompt results both carry the text back; anything else is a failed call. */
function assertEchoed(reply: unknown, text: string): void {
  const json = JSON.stringify(reply);
  if (json === undefined || !json.includes(JSON.stringify(text)))
    throw new Error(`the reply does not echo ${JSON.stringify(text)}: ${String(json).slice(0, 300)}`);
  if ((reply as { isError?: boolean }).isError === true) throw new Error(`the tool call failed: ${json.slice(0, 300)}`);
}

/**
 * Alternates the contenders round by round (A B A B…) so slow phases of a
 * shared machine hit every contender alike, and keeps the best round of each:
 * noise only ever makes a run slower.
 */
export async function compareRounds(
  contenders: readonly BenchClient[],
  call: (client: BenchClient) => (text: string) => Promise<unknown>,
  plan: SeriesPlan,
  rounds: number,
): Promise<SeriesResult[]> {
  const best = new Map<BenchClient, SeriesResult>();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    for (const client of order) {
      // A client that drives its calls from another process runs the series there.
      const result =
        client.series !== undefined ? await client.series(plan) : await runSeries(client.label, call(client), plan);
      const previous = best.get(client);
      if (previous === undefined || result.callsPerSecond > previous.callsPerSecond) best.set(client, result);
    }
  }
  return contenders.map((client) => best.get(client) as SeriesResult);
}
