import { performance } from 'node:perf_hooks';
import { connectBareV2, ECHO_SERVER, type BenchClient } from './clients';
import { allReady, openWholeHost } from './host-app';
import { median } from './stats';

export interface StartupResult {
  servers: number;
  rounds: number;
  bareMs: number[];
  hostMs: number[];
  bareMedianMs: number;
  hostMedianMs: number;
}

/**
 * `servers` stdio servers started together. Berth: from createHost on a fresh
 * config dir listing them (no remembered protocol era, so each one is probed
 * exactly like the bare client's `auto` negotiation) until every server has
 * reported ready. Bare: `servers` SDK v2 clients connecting in parallel.
 * Alternating rounds; the medians are compared.
 */
export async function benchStartup(servers: number, rounds: number): Promise<StartupResult> {
  const names = Array.from({ length: servers }, (_, index) => `echo-${index + 1}`);
  const bareMs: number[] = [];
  const hostMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const hostFirst = round % 2 === 1;
    if (hostFirst) hostMs.push(await hostRound(names));
    bareMs.push(await bareRound(servers));
    if (!hostFirst) hostMs.push(await hostRound(names));
  }
  return { servers, rounds, bareMs, hostMs, bareMedianMs: median(bareMs), hostMedianMs: median(hostMs) };
}

async function bareRound(servers: number): Promise<number> {
  const started = performance.now();
  const settled = await Promise.allSettled(Array.from({ length: servers }, () => connectBareV2()));
  const elapsed = performance.now() - started;
  const clients = settled.flatMap((entry) => (entry.status === 'fulfilled' ? [entry.value] : []));
  await Promise.all(clients.map((client: BenchClient) => client.close()));
  const failure = settled.find((entry) => entry.status === 'rejected');
  if (failure !== undefined) throw new Error(`a bare client failed to connect: ${String(failure.reason)}`);
  return elapsed;
}

async function hostRound(names: readonly string[]): Promise<number> {
  const started = performance.now();
  const whole = await openWholeHost(
    Object.fromEntries(names.map((name) => [name, { command: process.execPath, args: [ECHO_SERVER] }])),
  );
  try {
    await allReady(whole.host, names);
    return performance.now() - started;
  } finally {
    await whole.dispose();
  }
}
