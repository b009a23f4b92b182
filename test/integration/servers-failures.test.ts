import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../app/servers/process-tree';
import { fixtureConfig, serverConfig, waitUntil } from '../../app/servers/test-support';
import { collectLogs, supervisorPerTest } from './supervisor-harness';

const FAST_RESTARTS = { enabled: true, maxRestarts: 2, initialDelayMs: 100, maxDelayMs: 1_000 };

describe('misbehaving servers', () => {
  const servers = supervisorPerTest(collectLogs);

  it('exit during initialize: crashed → restarting with backoff, then gives up after maxRestarts', async () => {
    const spawnLog = join(servers.dir, 'spawns.log');
    await servers.supervisor.sync({
      dying: fixtureConfig('exit-during-initialize.mjs', {
        restart: FAST_RESTARTS,
        env: { BERTH_FIXTURE_SPAWN_LOG: spawnLog },
      }),
    });
    const final = await waitUntil(
      () => {
        const state = servers.supervisor.get('dying');
        return state?.status === 'crashed' && state.reason?.startsWith('gave up') ? state : undefined;
      },
      30_000,
      'the supervisor to give up',
    );
    expect(final.reason).toBe(
      'gave up after 2 restarts: exited (code 1) during the MCP handshake — stderr: fatal: simulated failure during initialize',
    );
    // The policy's words as a code around the start failure's own code and facts: the renderer words both.
    expect(final.reasonMessage).toEqual({
      code: 'server-state.gave-up',
      params: {
        restarts: 2,
        reason: 'exited (code 1) during the MCP handshake — stderr: fatal: simulated failure during initialize',
      },
      cause: {
        code: 'server-start.handshake-exited',
        params: {
          stage: 'handshake',
          exitKind: 'code',
          exit: '1',
          tail: 'stderr',
          serverLine: 'fatal: simulated failure during initialize',
          host: '',
        },
      },
    });
    expect(final.nextRestartAt).toBeUndefined();
    const statuses = servers.states.statuses('dying');
    expect(statuses).toEqual([
      'stopped',
      'starting',
      'crashed',
      'restarting',
      'starting',
      'crashed',
      'restarting',
      'starting',
      'crashed',
    ]);
    const restarting = servers.states.states.filter((state) => state.name === 'dying' && state.status === 'restarting');
    expect(restarting.map((state) => state.restartCount)).toEqual([1, 2]);
    expect(restarting.every((state) => typeof state.nextRestartAt === 'number')).toBe(true);
    // One process per attempt: the initial start and two restarts.
    const spawned = (await readFile(spawnLog, 'utf8')).trim().split('\n');
    expect(spawned).toHaveLength(3);
    // No timer left: nothing more happens.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(servers.states.statuses('dying')).toEqual(statuses);
    // A manual start tries again from a clean counter.
    const manual = await servers.supervisor.start('dying');
    expect(manual.status).toBe('restarting');
    expect(manual.restartCount).toBe(1);
  });

  it('crash mid-call: the pending call fails fast with SERVER_ERROR, the server comes back', async () => {
    await servers.supervisor.sync({ crashy: fixtureConfig('crash-mid-call.mjs', { restart: FAST_RESTARTS }) });
    expect(servers.supervisor.get('crashy')?.status).toBe('ready');
    const firstPid = servers.supervisor.get('crashy')?.pid;
    await expect(servers.supervisor.callTool('crashy', 'crash', {}, { timeoutMs: 60_000 })).rejects.toMatchObject({
      name: 'HostError',
      code: 'SERVER_ERROR',
      message: "server 'crashy' exited (code 3) while tools/call was in progress",
    });
    await waitUntil(
      () => servers.supervisor.get('crashy')?.status === 'ready' && servers.supervisor.get('crashy')?.pid !== firstPid,
      20_000,
      'the restart',
    );
    expect(servers.states.statuses('crashy')).toEqual(expect.arrayContaining(['crashed', 'restarting']));
    const crashed = servers.states.states.find((state) => state.name === 'crashy' && state.status === 'crashed');
    expect(crashed?.reason).toBe('exited with code 3 — stderr: crashing on purpose while tools/call is pending');
    expect(crashed?.status === 'crashed' && crashed.reasonMessage).toEqual({
      code: 'server-state.exited-stderr',
      params: { exit: '3', stderr: 'crashing on purpose while tools/call is pending' },
    });
    expect((await servers.supervisor.callTool('crashy', 'echo', { text: 'back' })).content).toEqual([
      { type: 'text', text: 'back' },
    ]);
    expect(firstPid !== undefined && isProcessAlive(firstPid)).toBe(false);
  });

  it('hang on initialize: error after startupMs, and the process is gone', async () => {
    await servers.supervisor.sync({
      hung: fixtureConfig('hang-on-initialize.mjs', {
        timeouts: { startupMs: 1_500, requestMs: 5_000 },
        restart: FAST_RESTARTS,
      }),
    });
    const state = servers.supervisor.get('hung');
    expect(state).toMatchObject({ status: 'error', reason: 'did not finish the MCP handshake within 1.5 s' });
    const pid = servers.states.states.find((s) => s.name === 'hung' && s.pid !== undefined)?.pid;
    expect(pid).toBeGreaterThan(0);
    expect(isProcessAlive(pid as number)).toBe(false);
    expect(servers.states.statuses('hung')).not.toContain('restarting');
  });

  it('noisy stdout: still ready and callable, garbage reported as warnings', async () => {
    await servers.supervisor.sync({ noisy: fixtureConfig('noisy-stdout.mjs') });
    expect(servers.supervisor.get('noisy')).toMatchObject({ status: 'ready', era: 'legacy' });
    const result = await servers.supervisor.callTool('noisy', 'echo', { text: 'through the noise' });
    expect(result.content).toEqual([{ type: 'text', text: 'through the noise' }]);
    const warnings = servers.logs
      .for('noisy', 'host')
      .filter((entry) => entry.level === 'warning')
      .map((entry) => entry.text);
    expect(warnings).toContain(
      'stdout line is not JSON-RPC (not JSON): noisy-stdout starting up (this banner is not JSON-RPC)',
    );
    expect(warnings).toContain(
      'stdout line is not JSON-RPC (JSON, but not a JSON-RPC 2.0 message): {"hello":"this is JSON but not JSON-RPC"}',
    );
    expect(warnings.some((text) => text.includes('[noisy] about to answer request'))).toBe(true);
  });

  it('bad command: error with "not found on PATH", no restart loop', async () => {
    await servers.supervisor.sync({
      missing: serverConfig({ command: 'berth-definitely-not-installed', restart: FAST_RESTARTS }),
    });
    const state = servers.supervisor.get('missing');
    expect(state?.status).toBe('error');
    expect(state?.reason).toMatch(
      /^command 'berth-definitely-not-installed' not found on PATH \(.+\) — install it or use its full path$/,
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(servers.states.statuses('missing')).toEqual(['stopped', 'starting', 'error']);
  });

  it('missing cwd: error naming the directory', async () => {
    await servers.supervisor.sync({
      nowhere: fixtureConfig('legacy-echo.mjs', { cwd: join(servers.dir, 'missing-dir') }),
    });
    expect(servers.supervisor.get('nowhere')?.reason).toBe(
      `working directory '${join(servers.dir, 'missing-dir')}' does not exist — create it or fix "cwd" in the server's config`,
    );
  });

  it('refuses calls to servers that are not ready, and unknown names', async () => {
    await servers.supervisor.sync({ off: fixtureConfig('legacy-echo.mjs', { enabled: false }) });
    expect(servers.supervisor.get('off')?.status).toBe('stopped');
    await expect(servers.supervisor.callTool('off', 'echo', {})).rejects.toMatchObject({ code: 'NOT_READY' });
    // A level is not a call: a stopped server keeps it for its next start.
    expect(await servers.supervisor.setLogLevel('off', 'debug')).toMatchObject({
      status: 'stopped',
      logLevel: 'debug',
    });
    await expect(servers.supervisor.start('nope')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: "no server named 'nope'",
    });
  });
});
