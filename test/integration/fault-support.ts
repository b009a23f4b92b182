import { readdirSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ServerConfigInput, ServerConfig } from '../../shared/domain/server';
import { fixtureConfig } from '../../app/servers/test-support';

/**
 * Shared by the fault-injection suite: the misbehaving fixture's config, and
 * probes for what a fault could leak — file descriptors, processes and heap —
 * read from the operating system (/proc) rather than Berth's own bookkeeping.
 */

/** BERTH_SOAK=1: many more cycles and messages, for a run by hand (minutes, not seconds). */
export const SOAK = process.env.BERTH_SOAK === '1';

export const FAST_RESTARTS = { enabled: true, maxRestarts: 2, initialDelayMs: 100, maxDelayMs: 1_000 };

export type MisbehaveMode =
  | 'none'
  | 'exit-at-spawn'
  | 'ignore-sigterm'
  | 'garbage'
  | 'early-requests'
  | 'flood-sampling'
  | 'bad-tool-list'
  | 'paged-tools'
  | 'close-stdout'
  | 'batch';

/** The configurable misbehaving server (e2e/fixtures/servers/misbehave.mjs) in one mode. */
export function misbehaveConfig(
  mode: MisbehaveMode,
  extra: Partial<ServerConfigInput> = {},
  env: Record<string, string> = {},
): ServerConfig {
  return fixtureConfig('misbehave.mjs', { ...extra, env: { BERTH_MISBEHAVE: mode, ...env } });
}

export const onLinux = process.platform === 'linux';

/** Open file descriptors of this process. */
export function fdCount(): number {
  return readdirSync('/proc/self/fd').length;
}

interface ProcEntry {
  pid: number;
  ppid: number;
  state: string;
}

/** Every process in /proc, from fields 3-4 of its stat line (the name may hold spaces and parens). */
function processTable(): ProcEntry[] {
  const entries: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // Exited between readdir and read.
    }
    const [state = '?', ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    entries.push({ pid: Number(name), ppid: Number(ppid), state });
  }
  return entries;
}

/** Live descendants of this process (zombies have exited and only wait to be reaped). */
export function liveDescendants(): number[] {
  const table = processTable().filter((entry) => entry.state !== 'Z');
  const found = new Set<number>([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of table) {
      if (!found.has(entry.pid) && found.has(entry.ppid)) {
        found.add(entry.pid);
        grew = true;
      }
    }
  }
  found.delete(process.pid);
  return [...found];
}

let collect: (() => void) | undefined;

/** Full GC when this V8 allows exposing it (it does in Node), so heap numbers mean live data. */
function gc(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

export interface ResourceSnapshot {
  fds: number;
  processes: number[];
  heapUsed: number;
  rss: number;
}

/** After two full collections, with time for closed handles to be released. */
export async function snapshot(): Promise<ResourceSnapshot> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const memory = process.memoryUsage();
  return { fds: fdCount(), processes: liveDescendants(), heapUsed: memory.heapUsed, rss: memory.rss };
}

export const MB = 1024 * 1024;

/** How long `work` took, in ms. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}
