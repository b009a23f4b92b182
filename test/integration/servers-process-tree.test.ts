import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { isProcessAlive } from '../../app/servers/process-tree';
import { LogCollector, StateRecorder, fixtureConfig, tempDir, waitUntil } from '../../app/servers/test-support';

async function readPids(file: string): Promise<{ server: number; grandchild: number }> {
  return waitUntil(async () => {
    const text = await readFile(file, 'utf8').catch(() => '');
    return text === '' ? undefined : (JSON.parse(text) as { server: number; grandchild: number });
  }, 10_000, 'the pid file');
}

describe.skipIf(process.platform === 'win32')('process trees', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let logs: LogCollector;
  let supervisor: ServerSupervisor;

  beforeEach(async () => {
    dir = await tempDir();
    logs = new LogCollector();
    supervisor = new ServerSupervisor({ logs, stateDir: dir.path, onState: new StateRecorder().onState });
  });
  afterEach(async () => {
    await supervisor.shutdown();
    await dir.cleanup();
  });

  it('stop() leaves neither the server nor its grandchild alive', async () => {
    const pidFile = join(dir.path, 'pids.json');
    await supervisor.sync({ tree: fixtureConfig('spawns-grandchild.mjs', { env: { BERTH_FIXTURE_PID_FILE: pidFile } }) });
    expect(supervisor.get('tree')?.status).toBe('ready');
    const pids = await readPids(pidFile);
    expect(pids.server).toBe(supervisor.get('tree')?.pid);
    expect(isProcessAlive(pids.server)).toBe(true);
    expect(isProcessAlive(pids.grandchild)).toBe(true);
    const stopped = await supervisor.stop('tree');
    expect(stopped.status).toBe('stopped');
    expect(isProcessAlive(pids.server)).toBe(false);
    expect(isProcessAlive(pids.grandchild)).toBe(false);
    // The helper outlived the server and ignored SIGTERM: the log says what happened.
    const host = logs.texts('tree', 'host');
    expect(host).toContain(`processes of its group outlived it (pid ${pids.grandchild}); sending SIGTERM`);
    expect(host).toContain('processes of its group ignored SIGTERM; sending SIGKILL');
  });

  it('shutdown() leaves no process from any server, even one still starting, and is idempotent', async () => {
    const pidFile = join(dir.path, 'pids.json');
    const syncing = supervisor.sync({
      tree: fixtureConfig('spawns-grandchild.mjs', { env: { BERTH_FIXTURE_PID_FILE: pidFile } }),
      legacy: fixtureConfig('legacy-echo.mjs'),
      modern: fixtureConfig('modern-echo.mjs'),
      hung: fixtureConfig('hang-on-initialize.mjs', { timeouts: { startupMs: 60_000, requestMs: 60_000 } }),
    });
    await waitUntil(() => ['tree', 'legacy', 'modern'].every((name) => supervisor.get(name)?.status === 'ready') && supervisor.get('hung')?.pid !== undefined, 20_000, 'three servers ready and one starting');
    const { grandchild } = await readPids(pidFile);
    const pids = [grandchild, ...supervisor.list().map((state) => state.pid as number)];
    expect(pids).toHaveLength(5);
    expect(pids.every(isProcessAlive)).toBe(true);

    await supervisor.shutdown();
    expect(pids.filter(isProcessAlive)).toEqual([]);
    expect(supervisor.list().map((state) => state.status)).toEqual(['stopped', 'stopped', 'stopped', 'stopped']);
    await syncing;
    await supervisor.shutdown();
    await expect(supervisor.start('legacy')).rejects.toMatchObject({ code: 'NOT_READY', message: 'the host is shutting down' });
  });
});
