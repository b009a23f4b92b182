import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SandboxSupport } from '../../shared/domain/sandbox';
import { berthPaths } from '../config/paths';
import { plainLaunch } from '../servers/server-launch';
import { LogCollector, serverConfig, tempDir } from '../servers/test-support';
import type { SandboxRuntime } from './sandbox-runtime';
import { SandboxService } from './sandbox-service';
import { WRAPS_AT_ONCE } from './wrap-turns';
import { SandboxSettingsStore } from './sandbox-settings-store';

/**
 * How servers starting together share the sandbox's set-up: one machine
 * check, and wraps taken in turns so the first server spawns early. The
 * runtime is a fake whose wraps end when the test says; the real runtime's
 * wraps are covered by test/integration/sandbox-*.test.ts.
 */

interface Deferred {
  resolve(): void;
  reject(error: Error): void;
}

function fakeRuntime() {
  const started: string[] = [];
  const pending = new Map<string, Deferred>();
  let running = 0;
  let mostAtOnce = 0;
  const runtime: SandboxRuntime = {
    wrap(_line, policy) {
      // The wrapped line is the same for every server; its own folders (sandbox/<name>-<hash>) name it.
      const server =
        policy.allowWrite
          .map((folder) => /[\\/]sandbox[\\/]([^\\/]+)-[0-9a-f]{10}[\\/]/.exec(folder)?.[1])
          .find((name) => name !== undefined) ?? '?';
      started.push(server);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      return new Promise((resolve, reject) => {
        const end = () => {
          running -= 1;
          pending.delete(server);
        };
        pending.set(server, {
          resolve: () => {
            end();
            resolve({ command: '/bin/true', args: [], commandId: `id-${server}`, release: () => undefined });
          },
          reject: (error) => {
            end();
            reject(error);
          },
        });
      });
    },
    onViolation: () => () => undefined,
    release: async () => undefined,
  };
  return {
    runtime,
    started,
    mostAtOnce: () => mostAtOnce,
    /** The servers whose wraps are under way, in the order they began. */
    underWay: () => [...pending.keys()],
    finish: (server: string) => pending.get(server)?.resolve(),
    fail: (server: string) => pending.get(server)?.reject(new Error('bwrap exploded')),
  };
}

/** Waits for `condition` on the real clock (setImmediate and Date are not faked here), leaving the fake one alone. */
async function untilRealTime(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('SandboxService: servers starting together', () => {
  let cleanup: () => Promise<void>;
  let configDir: string;
  beforeEach(async () => {
    const temp = await tempDir('berth-sandbox-turns-');
    configDir = temp.path;
    cleanup = temp.cleanup;
  });
  afterEach(async () => {
    vi.useRealTimers();
    await cleanup();
  });

  async function service(options: { support: () => Promise<SandboxSupport>; runtime?: SandboxRuntime }) {
    const settings = await SandboxSettingsStore.open({ configDir, warn: () => undefined });
    const names = ['a', 'b', 'c', 'd', 'e'];
    for (const name of names)
      await settings.set(name, { enabled: true, allowedFolders: [], allowedDomains: [], offered: true });
    const runtime = options.runtime;
    const sandbox = new SandboxService({
      paths: berthPaths(configDir),
      settings,
      servers: { list: () => [], get: () => undefined, restart: async () => undefined },
      rootsOf: () => [],
      events: { emit: () => undefined },
      logs: new LogCollector(),
      reportError: (what, error) => {
        throw new Error(`${what}: ${String(error)}`);
      },
      home: configDir,
      support: options.support,
      ...(runtime === undefined ? {} : { runtime: async () => runtime }),
    });
    const prepare = sandbox.wrap(async (_name, config) => plainLaunch(config, {}));
    const start = (name: string) => prepare(name, serverConfig({ command: '/bin/echo', args: [name] }));
    return { sandbox, names, start };
  }

  it('checks the machine once for all of them, and once more when the sandbox was unavailable', async () => {
    let checks = 0;
    const available = { available: true, platform: 'linux', warnings: [] } satisfies SandboxSupport;
    const fake = fakeRuntime();
    const { names, start } = await service({ support: async () => (checks++, available), runtime: fake.runtime });
    const starts = Promise.all(names.map((name) => start(name)));
    for (let finished = 0; finished < names.length;) {
      await vi.waitFor(() => expect(fake.underWay().length).toBeGreaterThan(0));
      for (const name of fake.underWay()) {
        fake.finish(name);
        finished += 1;
      }
    }
    expect(await starts).toHaveLength(5);
    expect(checks).toBe(1);

    let unavailableChecks = 0;
    const missing = {
      available: false,
      platform: 'linux',
      reason: 'bwrap not installed',
      warnings: [],
    } satisfies SandboxSupport;
    const second = await service({ support: async () => (unavailableChecks++, missing) });
    const failures = await Promise.all(
      second.names.map((name) =>
        second.start(name).then(
          () => 'started',
          (error: unknown) => String(error),
        ),
      ),
    );
    for (const failure of failures)
      expect(failure).toContain('is set to run in the sandbox, which is unavailable here: bwrap not installed');
    // The first check, then one fresh check that every start joined (not one per server).
    expect(unavailableChecks).toBe(2);
  });

  it(`wraps at most ${WRAPS_AT_ONCE} at once, and hands each launch back as soon as its own wrap is done`, async () => {
    const fake = fakeRuntime();
    const { names, start } = await service({
      support: async () => ({ available: true, platform: 'linux', warnings: [] }),
      runtime: fake.runtime,
    });
    const launched: string[] = [];
    const settled = Promise.allSettled(
      names.map((name) => start(name).then((launch) => launched.push(launch.shownCommand ?? ''))),
    );
    await vi.waitFor(() => expect(fake.started).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.started).toHaveLength(2);
    const [first, second] = fake.underWay() as [string, string];
    fake.finish(first);
    await vi.waitFor(() => expect(launched).toEqual([`/bin/echo ${first} (in the sandbox)`]));
    await vi.waitFor(() => expect(fake.started).toHaveLength(3));
    // A failed wrap gives its turn up too.
    fake.fail(second);
    await vi.waitFor(() => expect(fake.started).toHaveLength(4));
    for (let finished = 0; finished < 3;) {
      await vi.waitFor(() => expect(fake.underWay().length).toBeGreaterThan(0));
      for (const name of fake.underWay()) {
        fake.finish(name);
        finished += 1;
      }
    }
    const outcomes = await settled;
    expect(
      outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => String(outcome.reason)),
    ).toEqual([expect.stringContaining('could not be put in the sandbox: bwrap exploded')]);
    expect(launched).toHaveLength(4);
    expect(fake.mostAtOnce()).toBe(WRAPS_AT_ONCE);
  });

  it('does not let wraps that never end hold back the servers after them', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fake = fakeRuntime();
    const { names, start } = await service({
      support: async () => ({ available: true, platform: 'linux', warnings: [] }),
      runtime: fake.runtime,
    });
    for (const name of names) void start(name).catch(() => undefined);
    // Not vi.waitFor: under fake timers each of its checks moves the clock on by its interval, so on a loaded machine
    // (the second wrap a few checks after the first) the first turn's 3 s were up before the test advanced the clock.
    await untilRealTime(() => fake.started.length >= 2);
    await vi.advanceTimersByTimeAsync(2_900);
    expect(fake.started).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(200);
    await untilRealTime(() => fake.started.length >= 4);
    expect(fake.started).toHaveLength(4);
    expect(fake.underWay()).toHaveLength(4);
  });
});
