import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, StateRecorder, fixtureConfig, waitUntil } from '../../app/servers/test-support';
import type { LogEntry } from '../../shared/domain/log';
import type { ServerConfig, ServerState } from '../../shared/domain/server';
import { hostPerTest, waitFor, type HostHarness } from './host-harness';

const require = createRequire(import.meta.url);
const everythingEntry = join(
  require.resolve('@modelcontextprotocol/server-everything/package.json'),
  '..',
  'dist',
  'index.js',
);
const everythingConfig = { command: process.execPath, args: [everythingEntry, 'stdio'] };

const berth = hostPerTest('berth-log-level-');
const supervisors: ServerSupervisor[] = [];

afterEach(async () => {
  for (const supervisor of supervisors.splice(0)) await supervisor.shutdown();
});

/** The `logging/setLevel` requests Berth sent to a server, as their params. */
async function setLevelRequests(harness: HostHarness, server: string): Promise<unknown[]> {
  const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', { server, sources: ['trace'] });
  return entries
    .filter((entry) => entry.method === 'logging/setLevel' && entry.direction === 'out')
    .map((entry) => (JSON.parse(entry.body ?? '{}') as { params?: unknown }).params);
}

async function stateOf(harness: HostHarness, name: string): Promise<ServerState | undefined> {
  return (await harness.call<ServerState[]>('servers.list', {})).find((state) => state.name === name);
}

function readyState(harness: HostHarness, name: string): Promise<ServerState> {
  return waitUntil(
    async () => {
      const state = await stateOf(harness, name);
      return state?.status === 'ready' ? state : undefined;
    },
    30_000,
    `${name} to be ready`,
  );
}

describe('a server log level chosen by the person', () => {
  it('server-everything: sent live without a restart, stored, and sent again after a server restart and a Berth restart', async () => {
    const first = await berth.start();
    await first.call('servers.add', { name: 'everything', config: everythingConfig });
    const ready = await readyState(first, 'everything');

    const leveled = await first.call<ServerState>('servers.setLogLevel', { name: 'everything', level: 'debug' });
    expect(leveled).toMatchObject({
      status: 'ready',
      pid: ready.pid,
      logLevel: 'debug',
      config: { logLevel: 'debug' },
    });
    expect(await setLevelRequests(first, 'everything')).toEqual([{ level: 'debug' }]);
    const stored = JSON.parse(await readFile(join(berth.dir, 'config.json'), 'utf8')) as {
      mcpServers: Record<string, Record<string, unknown>>;
    };
    expect(stored.mcpServers.everything).toEqual({ ...everythingConfig, logLevel: 'debug' });
    // The sync that followed the config write restarted nothing.
    expect(await stateOf(first, 'everything')).toMatchObject({ status: 'ready', pid: ready.pid });

    const restarted = await first.call<ServerState>('servers.restart', { name: 'everything' });
    expect(restarted).toMatchObject({ status: 'ready', logLevel: 'debug' });
    expect(restarted.pid).not.toBe(ready.pid);
    expect(await setLevelRequests(first, 'everything')).toEqual([{ level: 'debug' }, { level: 'debug' }]);

    await first.host.shutdown();
    const second = await berth.start();
    const again = await readyState(second, 'everything');
    expect(again.logLevel).toBe('debug');
    expect(await setLevelRequests(second, 'everything')).toEqual([{ level: 'debug' }]);
  }, 90_000);

  it('applies a level edited into config.json by hand live, without restarting the server', async () => {
    const harness = await berth.start();
    await harness.call('servers.add', { name: 'everything', config: everythingConfig });
    const ready = await readyState(harness, 'everything');

    await writeFile(
      join(berth.dir, 'config.json'),
      JSON.stringify({ mcpServers: { everything: { ...everythingConfig, logLevel: 'warning' } } }, null, 2),
    );
    await waitFor(async () => (await stateOf(harness, 'everything'))?.logLevel === 'warning', 15_000);
    await waitFor(async () => (await setLevelRequests(harness, 'everything')).length === 1, 10_000);
    expect(await setLevelRequests(harness, 'everything')).toEqual([{ level: 'warning' }]);
    expect(await stateOf(harness, 'everything')).toMatchObject({ status: 'ready', pid: ready.pid });
  }, 60_000);
});

describe('the supervisor applying a config whose log level alone changed', () => {
  function supervise(): { supervisor: ServerSupervisor; logs: LogCollector; states: StateRecorder } {
    const logs = new LogCollector();
    const states = new StateRecorder();
    const supervisor = new ServerSupervisor({ logs, stateDir: berth.dir, onState: states.onState });
    supervisors.push(supervisor);
    return { supervisor, logs, states };
  }

  const lastCallMeta = (logs: LogCollector, server: string): string | undefined =>
    logs
      .for(server, 'trace')
      .filter((entry) => entry.method === 'tools/call' && entry.direction === 'out')
      .at(-1)?.body;

  it('modern era: no restart, and the next requests carry the new level in _meta (or none once cleared)', async () => {
    const { supervisor, logs, states } = supervise();
    const config: ServerConfig = fixtureConfig('modern-echo.mjs');
    await supervisor.sync({ modern: config });
    const pid = supervisor.get('modern')?.pid;
    expect(supervisor.get('modern')).toMatchObject({ status: 'ready', era: 'modern' });

    await supervisor.sync({ modern: { ...config, logLevel: 'info' } });
    expect(supervisor.get('modern')).toMatchObject({
      status: 'ready',
      pid,
      logLevel: 'info',
      config: { logLevel: 'info' },
    });
    await supervisor.callTool('modern', 'echo', { text: 'loud' });
    expect(lastCallMeta(logs, 'modern')).toContain('"io.modelcontextprotocol/logLevel":"info"');
    await waitUntil(
      () => logs.for('modern', 'notification').some((entry) => entry.text === 'info: echoing loud'),
      10_000,
      'the info notification',
    );

    await supervisor.sync({ modern: config });
    expect(supervisor.get('modern')?.logLevel).toBeUndefined();
    await supervisor.callTool('modern', 'echo', { text: 'quiet' });
    expect(lastCallMeta(logs, 'modern')).not.toContain('io.modelcontextprotocol/logLevel');
    expect(states.statuses('modern')).toEqual(['stopped', 'starting', 'ready']);
  }, 60_000);

  it('legacy era: logging/setLevel is sent on the running connection; a stopped server just keeps it', async () => {
    const { supervisor, logs, states } = supervise();
    const config = fixtureConfig('legacy-echo.mjs');
    await supervisor.sync({ legacy: config, off: fixtureConfig('legacy-echo.mjs', { enabled: false }) });
    await supervisor.sync({
      legacy: { ...config, logLevel: 'notice' },
      off: fixtureConfig('legacy-echo.mjs', { enabled: false, logLevel: 'error' }),
    });
    await waitUntil(
      () =>
        logs.for('legacy', 'trace').some((entry) => entry.method === 'logging/setLevel' && entry.direction === 'out'),
      10_000,
      'logging/setLevel',
    );
    const sent = logs
      .for('legacy', 'trace')
      .filter((entry) => entry.method === 'logging/setLevel' && entry.direction === 'out');
    expect(sent.map((entry) => (JSON.parse(entry.body ?? '{}') as { params?: unknown }).params)).toEqual([
      { level: 'notice' },
    ]);
    expect(states.statuses('legacy')).toEqual(['stopped', 'starting', 'ready']);
    expect(supervisor.get('off')).toMatchObject({ status: 'stopped', logLevel: 'error' });
  }, 60_000);
});
