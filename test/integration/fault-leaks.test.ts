import { describe, expect, it } from 'vitest';
import { LogHub } from '../../app/logs/log-hub';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { tempDir, waitUntil } from '../../app/servers/test-support';
import { FAST_RESTARTS, MB, SOAK, liveDescendants, misbehaveConfig, onLinux, snapshot } from './fault-support';
import type { ResourceSnapshot } from './fault-support';

/**
 * Runs every fault of the suite, in one supervisor, over and over, and
 * compares file descriptors (/proc/self/fd), processes (/proc walk from this
 * process) and heap (after full GCs) before and after. One warm-up cycle
 * first, so module loading and V8's own caches do not count as a leak.
 * BERTH_SOAK=1 runs 40 cycles with bigger floods instead of 2.
 */

const CYCLES = SOAK ? 40 : 2;
const FLOOD = SOAK ? 50_000 : 5_000;

/** Settles every promise and returns how each ended, so one fault cannot hide another. */
async function outcomes(work: Promise<unknown>[]): Promise<string[]> {
  const settled = await Promise.allSettled(work);
  return settled.map((result) =>
    result.status === 'fulfilled' ? 'ok' : String((result.reason as { code?: string }).code),
  );
}

/** One cycle: every fault at once, then a full shutdown. */
async function faultCycle(): Promise<void> {
  const dir = await tempDir('berth-fault-leaks-');
  const logs = new LogHub({ onBatch: () => undefined });
  const supervisor = new ServerSupervisor({ logs, stateDir: dir.path, onState: () => undefined });
  try {
    await supervisor.sync({
      good: misbehaveConfig('none'),
      dead: misbehaveConfig('exit-at-spawn', { restart: { ...FAST_RESTARTS, enabled: false } }),
      garbage: misbehaveConfig('garbage'),
      stubborn: misbehaveConfig('ignore-sigterm'),
      invalid: misbehaveConfig('bad-tool-list'),
    });
    expect(supervisor.list().map((state) => [state.name, state.status])).toEqual([
      ['dead', 'crashed'],
      ['garbage', 'ready'],
      ['good', 'ready'],
      ['invalid', 'ready'],
      ['stubborn', 'ready'],
    ]);
    // The premise of the process check: the servers really run as our descendants.
    expect(liveDescendants().length).toBeGreaterThanOrEqual(3);
    const results = await outcomes([
      supervisor.callTool('good', 'hang', {}, { timeoutMs: 300 }),
      supervisor.callTool('good', 'big', { mb: 5 }, { timeoutMs: 20_000 }),
      supervisor.callTool('good', 'flood', { count: FLOOD }, { timeoutMs: 20_000 }),
      supervisor.callTool('good', 'unknown-ids', {}),
      supervisor.callTool('good', 'bad-content', {}),
      supervisor.callTool('garbage', 'echo', { text: 'through' }),
    ]);
    expect(results).toEqual(['TIMEOUT', 'ok', 'ok', 'ok', 'SERVER_ERROR', 'ok']);
    // Left pending on purpose: shutdown must end it (and SIGKILL the server that ignores SIGTERM).
    const stuck = supervisor.callTool('stubborn', 'hang', {}, { timeoutMs: 60_000 }).then(
      () => 'answered',
      (error: { code?: string }) => error.code,
    );
    await supervisor.shutdown();
    expect(await stuck).toBe('SERVER_ERROR');
  } finally {
    await supervisor.shutdown();
    await logs.dispose();
    await dir.cleanup();
  }
}

function describeGrowth(before: ResourceSnapshot, after: ResourceSnapshot): string {
  return `fds ${before.fds} → ${after.fds}, heap ${(before.heapUsed / MB).toFixed(1)} → ${(after.heapUsed / MB).toFixed(1)} MiB, rss ${(before.rss / MB).toFixed(0)} → ${(after.rss / MB).toFixed(0)} MiB`;
}

describe.skipIf(!onLinux)('fault injection leaks nothing (Linux only: reads /proc)', () => {
  it(
    `${CYCLES} cycles of every fault: no descriptor, process or heap growth`,
    async () => {
      await faultCycle();
      const before = await snapshot();
      for (let cycle = 0; cycle < CYCLES; cycle += 1) await faultCycle();
      // Processes are gone once shutdown resolves; the wait only covers /proc catching up.
      await waitUntil(
        () => liveDescendants().every((pid) => before.processes.includes(pid)),
        5_000,
        'no new descendant processes',
      );
      const after = await snapshot();
      const growth = describeGrowth(before, after);
      expect(
        after.processes.filter((pid) => !before.processes.includes(pid)),
        growth,
      ).toEqual([]);
      // A leaked pipe costs three descriptors per server per cycle; a little slack for libuv's own.
      expect(after.fds - before.fds, growth).toBeLessThanOrEqual(3);
      // Generous: each cycle moves ~5 MiB messages and thousands of log entries through the heap.
      expect(after.heapUsed - before.heapUsed, growth).toBeLessThan(32 * MB);
      expect(after.rss - before.rss, growth).toBeLessThan(256 * MB);
    },
    SOAK ? 900_000 : 60_000,
  );
});
