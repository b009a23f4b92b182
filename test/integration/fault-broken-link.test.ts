import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogHub } from '../../app/logs/log-hub';
import { isProcessAlive } from '../../app/servers/process-tree';
import { waitUntil } from '../../app/servers/test-support';
import { FAST_RESTARTS, misbehaveConfig } from './fault-support';
import { supervisorPerTest } from './supervisor-harness';

/**
 * Servers that break the stdio link without exiting, with real processes
 * (e2e/fixtures/servers/misbehave.mjs): one closes its stdout and keeps
 * running, one answers inside a JSON-RPC batch. Neither may leave Berth
 * waiting for a timeout or showing "ready" for a server it cannot hear.
 */

const servers = supervisorPerTest(() => new LogHub({ onBatch: () => undefined }), {}, 'berth-broken-link-');

function hostTexts(server: string): string[] {
  return servers.logs.query({ server, sources: ['host'], limit: 10_000 }).entries.map((entry) => entry.text);
}

async function readPids(file: string): Promise<{ server: number; helper: number }> {
  return waitUntil(
    async () => {
      try {
        return JSON.parse(await readFile(file, 'utf8')) as { server: number; helper: number };
      } catch {
        return undefined;
      }
    },
    5_000,
    'the helper to write its pid',
  );
}

describe('a server that closes its stdout while still running', () => {
  it('while ready: the pending call fails at once, the state says why, the whole group is stopped, and it restarts', async () => {
    const pidFile = join(servers.dir, 'pids.json');
    await servers.supervisor.sync({
      bad: misbehaveConfig(
        'none',
        { restart: FAST_RESTARTS, timeouts: { requestMs: 60_000 } },
        { BERTH_FIXTURE_PID_FILE: pidFile },
      ),
    });
    const first = servers.supervisor.get('bad');
    expect(first?.status).toBe('ready');

    const started = Date.now();
    await expect(servers.supervisor.callTool('bad', 'close-stdout', {}, { timeoutMs: 60_000 })).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      message: "server 'bad' closed its output (stdout) while still running, so tools/call got no answer",
    });
    // The grace for a late exit (1 s) and SIGTERM, never the 60 s request timeout.
    expect(Date.now() - started).toBeLessThan(10_000);

    const crashed = servers.states.states.find((state) => state.name === 'bad' && state.status === 'crashed');
    expect(crashed?.reason).toBe('closed its output (stdout) while still running; Berth stopped it');
    const pids = await readPids(pidFile);
    expect(pids.server).toBe(first?.pid);
    // The server ignores the end of stdin and its helper child lingers too: both are gone all the same.
    await waitUntil(
      () => !isProcessAlive(pids.server) && !isProcessAlive(pids.helper),
      10_000,
      'the process group to be gone',
    );
    expect(hostTexts('bad')).toContain('closed its output (stdout) while still running; stopping it');

    // The restart policy applies: a fresh process answers.
    await waitUntil(
      () => servers.supervisor.get('bad')?.status === 'ready' && servers.supervisor.get('bad')?.pid !== first?.pid,
      20_000,
      'the restart',
    );
    expect(servers.states.statuses('bad')).toEqual(expect.arrayContaining(['ready', 'crashed', 'restarting']));
    expect((await servers.supervisor.callTool('bad', 'echo', { text: 'back' })).content).toEqual([
      { type: 'text', text: 'back' },
    ]);
  }, 40_000);

  it('during the handshake: a crash with that reason (not a handshake timeout), restarted per policy, no process left', async () => {
    const pidFile = join(servers.dir, 'pids.json');
    const restart = { enabled: true, maxRestarts: 1, initialDelayMs: 100, maxDelayMs: 1_000 };
    await servers.supervisor.sync({
      mute: misbehaveConfig(
        'close-stdout',
        { restart, timeouts: { startupMs: 30_000, requestMs: 5_000 } },
        { BERTH_FIXTURE_PID_FILE: pidFile },
      ),
    });
    const final = await waitUntil(
      () => {
        const state = servers.supervisor.get('mute');
        return state?.status === 'crashed' && state.reason?.startsWith('gave up') ? state : undefined;
      },
      30_000,
      'the supervisor to give up',
    );
    expect(final.reason).toBe(
      'gave up after 1 restart: closed its output (stdout) while still running during the MCP handshake, so Berth stopped it',
    );
    expect(servers.states.statuses('mute')).toEqual([
      'stopped',
      'starting',
      'crashed',
      'restarting',
      'starting',
      'crashed',
    ]);
    const pids = await readPids(pidFile);
    await waitUntil(
      () => !isProcessAlive(pids.server) && !isProcessAlive(pids.helper),
      10_000,
      'the process group to be gone',
    );
  }, 40_000);
});

describe('a server that answers with a JSON-RPC batch', () => {
  it('answering initialize: an error naming the batch at once, instead of a handshake timeout', async () => {
    const started = Date.now();
    await servers.supervisor.sync({
      batcher: misbehaveConfig('batch', { restart: FAST_RESTARTS, timeouts: { startupMs: 30_000, requestMs: 5_000 } }),
    });
    const state = servers.supervisor.get('batcher');
    expect(state?.status).toBe('error');
    expect(state?.reason).toMatch(
      /^MCP handshake failed: the server sent a JSON-RPC batch \(a JSON array of 1 item, answering request \S+\); MCP has no batches since protocol 2025-06-18: a server sends one JSON-RPC message per line$/,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(servers.states.statuses('batcher')).not.toContain('restarting');
    expect(
      hostTexts('batcher').some((text) => text.startsWith('stdout line is a JSON-RPC batch (a JSON array of 1 item')),
    ).toBe(true);
  }, 30_000);

  it('answering a tool call: that call fails naming the batch, the server stays ready', async () => {
    await servers.supervisor.sync({ bad: misbehaveConfig('none', { timeouts: { requestMs: 60_000 } }) });
    const started = Date.now();
    await expect(servers.supervisor.callTool('bad', 'batch-answer', {}, { timeoutMs: 60_000 })).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      message: expect.stringMatching(
        /^tools\/call tool 'batch-answer' on server 'bad' failed: the server sent a JSON-RPC batch \(a JSON array of 1 item, answering request \S+\); MCP has no batches/,
      ),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(servers.supervisor.get('bad')?.status).toBe('ready');
    expect((await servers.supervisor.callTool('bad', 'echo', { text: 'still fine' })).content).toEqual([
      { type: 'text', text: 'still fine' },
    ]);
  }, 30_000);
});
