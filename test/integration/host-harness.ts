import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createHost } from '../../app/host';
import type { Host, HostOptions } from '../../app/host/host-types';
import type { TopicName, TopicPayload } from '../../shared/contract';
import type { Result } from '../../shared/result';

/** A real host in a temp config dir, with every event it emitted kept for assertions. */
export interface HostHarness {
  host: Host;
  events: Array<{ topic: TopicName; payload: unknown }>;
  /** The first event on `topic` (already seen or future) that matches. */
  waitForEvent<T extends TopicName>(
    topic: T,
    match?: (payload: TopicPayload<T>) => boolean,
    timeoutMs?: number,
  ): Promise<TopicPayload<T>>;
  /** dispatch, expecting success. */
  call<T>(method: string, input: unknown): Promise<T>;
}

export async function startHost(
  configDir: string,
  options: Partial<Omit<HostOptions, 'configDir'>> = {},
): Promise<HostHarness> {
  const host = await createHost({ shell: 'browser', ...options, configDir });
  const events: HostHarness['events'] = [];
  const waiters: Array<() => void> = [];
  host.subscribe((topic, payload) => {
    events.push({ topic, payload });
    for (const wake of waiters.splice(0)) wake();
  });

  async function waitForEvent<T extends TopicName>(
    topic: T,
    match: (payload: TopicPayload<T>) => boolean = () => true,
    timeoutMs = 30_000,
  ): Promise<TopicPayload<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.find((event) => event.topic === topic && match(event.payload as TopicPayload<T>));
      if (found) return found.payload as TopicPayload<T>;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no matching ${topic} event within ${timeoutMs} ms; saw ${JSON.stringify(events.map((e) => e.topic))}`,
        );
      await new Promise<void>((resolveWait) => {
        const timer = setTimeout(resolveWait, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolveWait();
        });
      });
    }
  }

  return {
    host,
    events,
    waitForEvent,
    call: async <T>(method: string, input: unknown) => unwrap<T>(await host.dispatch(method, input)),
  };
}

export function unwrap<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value as T;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `condition` holds; generous by default, never a timing assertion. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
}

/** Per test, a host's world: the temp dir it keeps its files in and the hosts started there. */
export interface HostPerTest {
  /** This test's temp dir (made before it, removed after it): the config dir unless `start` is given another. */
  readonly dir: string;
  /** The host this test started last (for helpers that serve every test of a file). */
  readonly harness: HostHarness;
  /** Starts a host; it is shut down after the test unless the test did so itself. */
  start(options?: Partial<Omit<HostOptions, 'configDir'>>, configDir?: string): Promise<HostHarness>;
}

/**
 * Registers the beforeEach/afterEach of a host test in the current suite: a
 * fresh temp dir (`prefix`…) before each test; after it, every host started
 * through `start` shut down, then the dir removed. `realPath`: the dir by its
 * real path, for tests that compare paths the host stored resolved (macOS
 * keeps /var behind a link).
 */
export function hostPerTest(prefix: string, { realPath = false }: { realPath?: boolean } = {}): HostPerTest {
  let dir: string | undefined;
  const started: HostHarness[] = [];
  beforeEach(async () => {
    const made = await mkdtemp(join(tmpdir(), prefix));
    dir = realPath ? await realpath(made) : made;
  });
  afterEach(async () => {
    for (const harness of started.splice(0)) await harness.host.shutdown();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const world: HostPerTest = {
    get dir(): string {
      if (dir === undefined) throw new Error('hostPerTest: the dir exists only while a test runs');
      return dir;
    },
    get harness(): HostHarness {
      const last = started.at(-1);
      if (last === undefined) throw new Error('hostPerTest: this test has started no host');
      return last;
    },
    start: async (options = {}, configDir = world.dir) => {
      const harness = await startHost(configDir, options);
      started.push(harness);
      return harness;
    },
  };
  return world;
}

/**
 * Everything the renderer saw (events) and every log line, in memory and in
 * the log files after the host shut down (so they are flushed): where a
 * leaked secret would show up. `more`: other texts the test can see (answers,
 * files), read before the shutdown. Shuts the host down.
 */
export async function hostOutput(h: HostHarness, configDir: string, more: string[] = []): Promise<string> {
  const logs = unwrap<{ entries: unknown[] }>(await h.host.dispatch('logs.query', { limit: 250_000 })).entries;
  const visible = [JSON.stringify(h.events), JSON.stringify(logs), ...more];
  await h.host.shutdown();
  const logsDir = join(configDir, 'logs');
  for (const file of await readdir(logsDir)) visible.push(await readFile(join(logsDir, file), 'utf8'));
  return visible.join('\n');
}
