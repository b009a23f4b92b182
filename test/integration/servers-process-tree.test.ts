import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../app/servers/process-tree';
import { fixtureConfig, waitUntil } from '../../app/servers/test-support';
import { collectLogs, supervisorPerTest } from './supervisor-harness';

async function readPids(file: string): Promise<{ server: number; grandchild: number }> {
  return waitUntil(
    async () => {
      const text = await readFile(file, 'utf8').catch(() => '');
      return text === '' ? undefined : (JSON.parse(text) as { server: number; grandchild: number });
    },
    10_000,
    'the pid file',
  );
}

describe.skipIf(process.platform === 'win32')('process trees', () => {
  const servers = supervisorPerTest(collectLogs);

  it('stop() leaves neither the server nor its grandchild alive', async () => {
    const pidFile = join(servers.dir, 'pids.json');
    await servers.supervisor.sync({
      tree: fixtureConfig('spawns-grandchild.mjs', { env: { BERTH_FIXTURE_PID_FILE: pidFile } }),
    });
    expect(servers.supervisor.get('tree')?.status).toBe('ready');
    const pids = await readPids(pidFile);
    expect(pids.server).toBe(servers.supervisor.get('tree')?.pid);
    expect(isProcessAlive(pids.server)).toBe(true);
    expect(isProcessAlive(pids.grandchild)).toBe(true);
    const stopped = await servers.supervisor.stop('tree');
    expect(stopped.status).toBe('stopped');
    expect(isProcessAlive(pids.server)).toBe(false);
    expect(isProcessAlive(pids.grandchild)).toBe(false);
    // The helper outlived the server and ignored SIGTERM: the log says what happened.
    const host = servers.logs.texts('tree', 'host');
    expect(host).toContain(`processes of its group outlived it (pid ${pids.grandchild}); sending SIGTERM`);
    expect(host).toContain('processes of its group ignored SIGTERM; sending SIGKILL');
  });

  it('shutdown() leaves no process from any server, even one still starting, and is idempotent', async () => {
    const pidFile = join(servers.dir, 'pids.json');
    const syncing = servers.supervisor.sync({
      tree: fixtureConfig('spawns-grandchild.mjs', { env: { BERTH_FIXTURE_PID_FILE: pidFile } }),
      legacy: fixtureConfig('legacy-echo.mjs'),
      modern: fixtureConfig('modern-echo.mjs'),
      hung: fixtureConfig('hang-on-initialize.mjs', { timeouts: { startupMs: 60_000, requestMs: 60_000 } }),
    });
    await waitUntil(
      () =>
        ['tree', 'legacy', 'modern'].every((name) => servers.supervisor.get(name)?.status === 'ready') &&
        servers.supervisor.get('hung')?.pid !== undefined,
      20_000,
      'three servers ready and one starting',
    );
    const { grandchild } = await readPids(pidFile);
    const pids = [grandchild, ...servers.supervisor.list().map((state) => state.pid as number)];
    expect(pids).toHaveLength(5);
    expect(pids.every(isProcessAlive)).toBe(true);

    await servers.supervisor.shutdown();
    expect(pids.filter(isProcessAlive)).toEqual([]);
    expect(servers.supervisor.list().map((state) => state.status)).toEqual([
      'stopped',
      'stopped',
      'stopped',
      'stopped',
    ]);
    await syncing;
    await servers.supervisor.shutdown();
    await expect(servers.supervisor.start('legacy')).rejects.toMatchObject({
      code: 'NOT_READY',
      message: 'the host is shutting down',
    });
  });
});
