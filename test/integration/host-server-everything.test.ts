import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import { type ServerState } from '../../shared/domain/server';
import { serverTools } from '../../shared/domain/server-state-read';
import { isAlive, hostPerTest, waitFor } from './host-harness';

const require = createRequire(import.meta.url);
const everythingEntry = join(
  require.resolve('@modelcontextprotocol/server-everything/package.json'),
  '..',
  'dist',
  'index.js',
);
const everythingConfig = { command: process.execPath, args: [everythingEntry, 'stdio'] };

const berth = hostPerTest('berth-host-');

const readConfig = async (): Promise<{ mcpServers: Record<string, { command?: string }> }> =>
  JSON.parse(await readFile(join(berth.dir, 'config.json'), 'utf8'));

describe('host with server-everything', () => {
  it('adds, runs, logs and removes a real stdio server', async () => {
    const harness = await berth.start();
    const { call, waitForEvent } = harness;
    const added = await call<ServerState>('servers.add', { name: 'everything', config: everythingConfig });
    expect(added.name).toBe('everything');
    expect(['starting', 'ready']).toContain(added.status);

    const ready = await waitForEvent(
      'servers.changed',
      (state) => state.name === 'everything' && state.status === 'ready',
    );
    expect(serverTools(ready).map((tool) => tool.name)).toContain('echo');
    const pid = ready.pid ?? -1;
    expect(isAlive(pid)).toBe(true);

    const listed = await call<ServerState[]>('servers.list', {});
    expect(listed.map((state) => [state.name, state.status])).toEqual([['everything', 'ready']]);
    expect((await readConfig()).mcpServers.everything?.command).toBe(process.execPath);

    await waitFor(async () => {
      const { entries } = await call<{ entries: LogEntry[] }>('logs.query', { server: 'everything' });
      return (
        entries.some((entry) => entry.source === 'stderr') &&
        entries.some((entry) => entry.source === 'trace' && entry.method === 'initialize')
      );
    });
    // The trace is kept for queries, but no window gets it live until one follows it (its Logs view is open).
    const traceSent = (): boolean =>
      harness.events.some(
        (event) =>
          event.topic === 'logs.appended' &&
          (event.payload as { entries: LogEntry[] }).entries.some((entry) => entry.source === 'trace'),
      );
    await waitForEvent('logs.appended', (payload) =>
      payload.entries.some((entry) => entry.server === 'everything' && entry.source === 'stderr'),
    );
    expect(traceSent()).toBe(false);
    expect(await call('logs.followTrace', {})).toEqual({ followingForMs: 15_000 });
    await call('servers.setLogLevel', { name: 'everything', level: 'debug' });
    const batch = await waitForEvent('logs.appended', (payload) =>
      payload.entries.some((entry) => entry.server === 'everything' && entry.source === 'trace'),
    );
    expect(batch.entries.some((entry) => entry.source === 'trace' && entry.body !== undefined)).toBe(true);

    expect(await call('servers.remove', { name: 'everything' })).toEqual({ removed: 'everything' });
    await waitForEvent('servers.removed', (payload) => payload.name === 'everything');
    expect(await call('servers.list', {})).toEqual([]);
    expect(isAlive(pid)).toBe(false);
    expect((await readConfig()).mcpServers).toEqual({});
    expect((await call<{ entries: LogEntry[] }>('logs.query', { server: 'everything' })).entries).toEqual([]);
  });

  it('starts enabled servers from an existing config by itself and stops them all on shutdown', async () => {
    await writeFile(
      join(berth.dir, 'config.json'),
      JSON.stringify({ mcpServers: { everything: everythingConfig, idle: { command: 'node', enabled: false } } }),
    );
    const harness = await berth.start();
    const ready = await harness.waitForEvent(
      'servers.changed',
      (state) => state.name === 'everything' && state.status === 'ready',
    );
    const states = await harness.call<ServerState[]>('servers.list', {});
    expect(states.find((state) => state.name === 'idle')?.status).toBe('stopped');

    await Promise.all([harness.host.shutdown(), harness.host.shutdown()]);
    await harness.host.shutdown();
    expect(isAlive(ready.pid ?? -1)).toBe(false);
    expect(await harness.host.dispatch('servers.list', {})).toMatchObject({ ok: false, code: 'NOT_READY' });
  });

  it('restarts a running server when its config changes and stops it when disabled', async () => {
    const harness = await berth.start();
    const { call, waitForEvent, events } = harness;
    await call('servers.add', { name: 'everything', config: everythingConfig });
    const first = await waitForEvent(
      'servers.changed',
      (state) => state.name === 'everything' && state.status === 'ready',
    );

    events.length = 0;
    await call('servers.update', { name: 'everything', config: { ...everythingConfig, env: { BERTH_TEST: '1' } } });
    // A late state of the first process (e.g. its list refresh) may still arrive after the update answered: wait for the new one.
    const second = await waitForEvent(
      'servers.changed',
      (state) => state.name === 'everything' && state.status === 'ready' && state.pid !== first.pid,
    );
    expect(second.pid).toBeGreaterThan(0);
    expect(isAlive(first.pid ?? -1)).toBe(false);

    const disabled = await call<ServerState>('servers.setEnabled', { name: 'everything', enabled: false });
    expect(disabled.status).toBe('stopped');
    expect(isAlive(second.pid ?? -1)).toBe(false);
    expect((await readConfig()).mcpServers.everything).toMatchObject({ enabled: false });
  });

  it('gives a crashed server a fresh start when it is enabled again', async () => {
    const harness = await berth.start();
    const { call, waitForEvent, events } = harness;
    const failing = { command: process.execPath, args: ['-e', 'process.exit(3)'], restart: { enabled: false } };
    await call('servers.add', { name: 'failing', config: failing });
    const crashed = await waitForEvent(
      'servers.changed',
      (state) => state.name === 'failing' && (state.status === 'crashed' || state.status === 'error'),
    );
    expect(crashed.reason).toBeTruthy();

    events.length = 0;
    const state = await call<ServerState>('servers.setEnabled', { name: 'failing', enabled: true });
    expect(state.name).toBe('failing');
    await waitForEvent('servers.changed', (next) => next.name === 'failing' && next.status === 'starting');
    await waitForEvent(
      'servers.changed',
      (next) => next.name === 'failing' && (next.status === 'crashed' || next.status === 'error'),
    );
  });
});
