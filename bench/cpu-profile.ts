import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/**
 * A V8 CPU profile of part of a bench round, taken in this process (the host runs here) with the
 * inspector, so only the measured work is in it, not the set-up. Open the file in Chrome DevTools
 * (Performance → Load profile) or read `topSelfTime`'s list.
 */

/** The parts of a `.cpuprofile` that the summary reads (V8's Profiler.Profile). */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  /** Microseconds on the monotonic clock (process.hrtime's). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Spans of the monotonic clock in microseconds (process.hrtime.bigint() / 1000n): only the samples in them count. */
export type ProfileWindows = ReadonlyArray<readonly [number, number]>;

/** One function's share of the samples: its own time (self), not its callees'. */
export interface SelfTime {
  /** `name (file:line)`, the file relative to the repository where it is in it. */
  where: string;
  ms: number;
  share: number;
}

const IDLE = new Set(['(idle)', '(program)']);

type Frame = CpuProfile['nodes'][number]['callFrame'];

function label(frame: Frame, root: string): string {
  const file = frame.url.replace(/^file:\/\//, '').replace(root, '');
  const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
  return file === '' ? frame.functionName : `${name} (${file}:${frame.lineNumber + 1})`;
}

/**
 * Each sample's node and the milliseconds it stands for (its delta is the time since the one before), only those
 * taken within `windows` when given.
 */
function timedSamples(profile: CpuProfile, windows?: ProfileWindows): Array<[number, number]> {
  const timed: Array<[number, number]> = [];
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (windows === undefined || windows.some(([from, to]) => at > from && at <= to)) timed.push([id, delta / 1000]);
  });
  return timed;
}

function ranked(times: ReadonlyMap<string, number>, busy: number, count: number): SelfTime[] {
  return [...times.entries()]
    .sort(([, a], [, b]) => b - a)
    .slice(0, count)
    .map(([where, ms]) => ({ where, ms, share: busy === 0 ? 0 : ms / busy }));
}

/**
 * Self time per function over the profile's samples, most first; `(idle)` and `(program)` (waiting,
 * and V8's own bookkeeping) are left out of the list and of the shares, `(garbage collector)` is kept.
 */
export function topSelfTime(profile: CpuProfile, count: number, root = '', windows?: ProfileWindows): SelfTime[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const byWhere = new Map<string, number>();
  let busy = 0;
  for (const [id, ms] of timedSamples(profile, windows)) {
    const frame = byNode.get(id)?.callFrame;
    if (frame === undefined || IDLE.has(frame.functionName)) continue;
    const where = label(frame, root);
    byWhere.set(where, (byWhere.get(where) ?? 0) + ms);
    busy += ms;
  }
  return ranked(byWhere, busy, count);
}

/**
 * Total time per function (its own and its callees'), most first, for the functions whose file is
 * under `root` (Berth's own code; the SDKs' and Node's internals are in their callers' totals). A
 * function on the stack twice (recursion) counts once per sample. Shares are of the busy samples.
 */
export function topTotalTime(profile: CpuProfile, count: number, root: string, windows?: ProfileWindows): SelfTime[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byWhere = new Map<string, number>();
  let busy = 0;
  for (const [id, ms] of timedSamples(profile, windows)) {
    const leaf = byNode.get(id)?.callFrame;
    if (leaf === undefined || IDLE.has(leaf.functionName)) continue;
    busy += ms;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byNode.get(at)?.callFrame;
      if (frame === undefined || !frame.url.includes(root) || frame.url.includes('/node_modules/')) continue;
      const where = label(frame, root);
      if (seen.has(where)) continue;
      seen.add(where);
      byWhere.set(where, (byWhere.get(where) ?? 0) + ms);
    }
  }
  return ranked(byWhere, busy, count);
}

/** Milliseconds of samples within `windows` that ran code (busy) and that waited (idle: I/O, timers, or the CPU given to other processes). */
export function busyAndIdle(profile: CpuProfile, windows?: ProfileWindows): { busyMs: number; idleMs: number } {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  let busyMs = 0;
  let idleMs = 0;
  for (const [id, ms] of timedSamples(profile, windows)) {
    if ((byNode.get(id)?.callFrame.functionName ?? '(idle)') === '(idle)') idleMs += ms;
    else busyMs += ms;
  }
  return { busyMs, idleMs };
}

/** Runs `body` under the CPU profiler and writes the profile to `file`; its result and the profile come back. */
export async function profiled<T>(file: string, body: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    // 100 µs between samples (V8's default is 1 ms): a send takes a few milliseconds.
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const result = await body();
    const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    await writeFile(file, JSON.stringify(profile));
    return { result, profile };
  } finally {
    session.disconnect();
  }
}
