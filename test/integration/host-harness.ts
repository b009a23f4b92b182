import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHost } from '../../app/host';
import type { Host, HostOptions } from '../../app/host-types';
import type { TopicName, TopicPayload } from '../../shared/contract';
import type { Result } from '../../shared/result';

/** A real host in a temp config dir, with every event it emitted kept for assertions. */
export interface HostHarness {
  host: Host;
  events: Array<{ topic: TopicName; payload: unknown }>;
  /** The first event on `topic` (already seen or future) that matches. */
  waitForEvent<T extends TopicName>(topic: T, match?: (payload: TopicPayload<T>) => boolean, timeoutMs?: number): Promise<TopicPayload<T>>;
  /** dispatch, expecting success. */
  call<T>(method: string, input: unknown): Promise<T>;
}

export async function startHost(configDir: string, options: Partial<Omit<HostOptions, 'configDir'>> = {}): Promise<HostHarness> {
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
      if (left <= 0) throw new Error(`no matching ${topic} event within ${timeoutMs} ms; saw ${JSON.stringify(events.map((e) => e.topic))}`);
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

/**
 * Everything the renderer saw (events) and every log line, in memory and in
 * the log files after the host shut down (so they are flushed): where a
 * leaked secret would show up. Shuts the host down.
 */
export async function hostOutput(h: HostHarness, configDir: string): Promise<string> {
  const logs = unwrap<{ entries: unknown[] }>(await h.host.dispatch('logs.query', { limit: 250_000 })).entries;
  const visible = [JSON.stringify(h.events), JSON.stringify(logs)];
  await h.host.shutdown();
  const logsDir = join(configDir, 'logs');
  for (const file of await readdir(logsDir)) visible.push(await readFile(join(logsDir, file), 'utf8'));
  return visible.join('\n');
}
