import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../shared/domain/server';
import { isProcessAlive } from '../../app/servers/process-tree';
import { fixtureConfig, waitUntil } from '../../app/servers/test-support';
import { collectLogs, supervisorPerTest } from './supervisor-harness';

async function spawnCount(file: string): Promise<number> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.trim() !== '').length;
}

describe('ServerSupervisor state machine (real processes)', () => {
  const servers = supervisorPerTest(collectLogs, { stableAfterMs: 300 });

  it('a server the person stopped stays stopped through later syncs until they start it', async () => {
    const a = fixtureConfig('legacy-echo.mjs');
    const b = fixtureConfig('legacy-echo.mjs', { env: { WHICH: 'b' } });
    await servers.supervisor.sync({ a });
    await servers.supervisor.stop('a');
    // An unrelated edit (b added), and an edit of a itself, leave a stopped.
    await servers.supervisor.sync({ a, b });
    await servers.supervisor.sync({ a: { ...a, env: { EDITED: '1' } }, b });
    expect(servers.supervisor.get('a')).toMatchObject({ status: 'stopped', config: { env: { EDITED: '1' } } });
    expect(servers.supervisor.get('b')?.status).toBe('ready');
    // An explicit start clears the hold; the next sync keeps it running.
    await servers.supervisor.start('a');
    await servers.supervisor.sync({ a: { ...a, env: { EDITED: '1' } }, b });
    expect(servers.supervisor.get('a')?.status).toBe('ready');
  });

  it('sync() adds, restarts changed, stops disabled and forgets removed servers', async () => {
    const a = fixtureConfig('legacy-echo.mjs');
    const b = fixtureConfig('legacy-echo.mjs', { env: { WHICH: 'b' } });
    await servers.supervisor.sync({ a, b });
    expect(servers.supervisor.list().map((state) => [state.name, state.status])).toEqual([
      ['a', 'ready'],
      ['b', 'ready'],
    ]);
    const pidA = servers.supervisor.get('a')?.pid as number;
    const pidB = servers.supervisor.get('b')?.pid as number;

    // Same config again: nothing happens.
    const before = servers.states.states.length;
    await servers.supervisor.sync({ a, b });
    expect(servers.states.states.length).toBe(before);

    // a changes (restart), b is disabled (stop).
    await servers.supervisor.sync({ a: { ...a, env: { CHANGED: '1' } }, b: { ...b, enabled: false } });
    expect(servers.supervisor.get('a')).toMatchObject({ status: 'ready', config: { env: { CHANGED: '1' } } });
    expect(servers.supervisor.get('a')?.pid).not.toBe(pidA);
    expect(servers.supervisor.get('b')).toMatchObject({ status: 'stopped' });
    expect(isProcessAlive(pidA)).toBe(false);
    expect(isProcessAlive(pidB)).toBe(false);

    // a is removed: stopped and forgotten, also in the era cache.
    const pidA2 = servers.supervisor.get('a')?.pid as number;
    await servers.supervisor.sync({ b: { ...b, enabled: false } });
    expect(servers.supervisor.get('a')).toBeUndefined();
    expect(servers.supervisor.list().map((state) => state.name)).toEqual(['b']);
    expect(isProcessAlive(pidA2)).toBe(false);
    const eras = JSON.parse(await readFile(join(servers.dir, 'eras.json'), 'utf8'));
    expect(Object.keys(eras.servers)).toEqual(['b']);
  });

  it('masks secret env values in every reported state', async () => {
    await servers.supervisor.sync({
      s: fixtureConfig('legacy-echo.mjs', { env: { TOKEN: 'super-secret', PLAIN: 'shown' }, secretEnv: ['TOKEN'] }),
    });
    const reported = servers.states.states.filter((state) => state.name === 's');
    expect(reported.length).toBeGreaterThan(2);
    for (const state of reported) expect(state.config.env).toEqual({ TOKEN: SECRET_MASK, PLAIN: 'shown' });
    expect(servers.supervisor.get('s')?.config.env.TOKEN).toBe(SECRET_MASK);
  });

  it('stop() of a restarting server cancels the pending restart', async () => {
    const spawnLog = join(servers.dir, 'spawns.log');
    await servers.supervisor.sync({
      dying: fixtureConfig('exit-during-initialize.mjs', {
        env: { BERTH_FIXTURE_SPAWN_LOG: spawnLog },
        restart: { enabled: true, maxRestarts: 5, initialDelayMs: 1_500, maxDelayMs: 5_000 },
      }),
    });
    expect(servers.supervisor.get('dying')).toMatchObject({ status: 'restarting', restartCount: 1 });
    const stopped = await servers.supervisor.stop('dying');
    expect(stopped).toMatchObject({ status: 'stopped' });
    expect(stopped.nextRestartAt).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await spawnCount(spawnLog)).toBe(1);
    expect(servers.supervisor.get('dying')?.status).toBe('stopped');
  });

  it('resets the restart counter once a restarted server stays ready for stableAfterMs', async () => {
    await servers.supervisor.sync({
      crashy: fixtureConfig('crash-mid-call.mjs', {
        restart: { enabled: true, maxRestarts: 3, initialDelayMs: 100, maxDelayMs: 1_000 },
      }),
    });
    await servers.supervisor.callTool('crashy', 'crash', {}).catch(() => undefined);
    await waitUntil(() => servers.supervisor.get('crashy')?.status === 'ready', 20_000, 'the restart');
    expect(servers.supervisor.get('crashy')?.restartCount).toBe(1);
    await waitUntil(() => servers.supervisor.get('crashy')?.restartCount === 0, 10_000, 'the counter reset');
  });

  it('setLogLevel explains a server without the logging capability', async () => {
    await servers.supervisor.sync({ noisy: fixtureConfig('noisy-stdout.mjs') });
    await expect(servers.supervisor.setLogLevel('noisy', 'debug')).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      message: "server 'noisy' does not declare the logging capability, so its log level cannot be set",
      hostMessage: { code: 'server-errors.no-logging', params: { name: 'noisy' } },
    });
  });

  it('start() on a ready server is a no-op and operations are serialized', async () => {
    await servers.supervisor.sync({ s: fixtureConfig('legacy-echo.mjs') });
    const pid = servers.supervisor.get('s')?.pid;
    const [first, second] = await Promise.all([servers.supervisor.start('s'), servers.supervisor.start('s')]);
    expect(first.pid).toBe(pid);
    expect(second.pid).toBe(pid);
    const [, restarted, stopped] = await Promise.all([
      servers.supervisor.restart('s'),
      servers.supervisor.restart('s'),
      servers.supervisor.stop('s'),
    ]);
    expect(restarted.status).toBe('ready');
    expect(stopped.status).toBe('stopped');
    expect(servers.supervisor.list().every((state) => state.pid === undefined)).toBe(true);
  });
});
