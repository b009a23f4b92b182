import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eraFingerprint } from '../../app/servers/era-cache';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, StateRecorder, fixtureConfig, tempDir, waitUntil } from '../../app/servers/test-support';

async function spawnCount(file: string): Promise<number> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.trim() !== '').length;
}

describe('protocol eras (fixture servers)', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let logs: LogCollector;
  let states: StateRecorder;
  let supervisor: ServerSupervisor;

  beforeEach(async () => {
    dir = await tempDir();
    logs = new LogCollector();
    states = new StateRecorder();
    supervisor = new ServerSupervisor({ logs, stateDir: dir.path, onState: states.onState, clientVersion: '0.1.0-test' });
  });
  afterEach(async () => {
    await supervisor.shutdown();
    await dir.cleanup();
  });

  it('negotiates the modern era, remembers it, and connects without a probe after a restart', async () => {
    const spawnLog = join(dir.path, 'spawns.log');
    await supervisor.sync({ modern: fixtureConfig('modern-echo.mjs', { env: { BERTH_FIXTURE_SPAWN_LOG: spawnLog } }) });
    const first = supervisor.get('modern');
    expect(first).toMatchObject({ status: 'ready', era: 'modern', protocolVersion: '2026-07-28', serverInfo: { name: 'modern-echo' }, instructions: 'Echoes text back.' });
    expect(first?.tools.map((tool) => tool.name).sort()).toEqual(['add_tool', 'echo']);
    expect(first?.capabilities).toHaveProperty('logging');
    expect(await spawnCount(spawnLog)).toBe(1);
    expect(logs.for('modern', 'trace').filter((entry) => entry.method === 'server/discover' && entry.direction === 'out')).toHaveLength(1);
    const eras = JSON.parse(await readFile(join(dir.path, 'eras.json'), 'utf8'));
    expect(eras.servers.modern).toMatchObject({ kind: 'modern', discover: { supportedVersions: ['2026-07-28'] } });

    const result = await supervisor.callTool('modern', 'echo', { text: 'hello' });
    expect(result.content).toEqual([{ type: 'text', text: 'hello' }]);

    const seqBeforeRestart = logs.entries.length;
    const restarted = await supervisor.restart('modern');
    expect(restarted).toMatchObject({ status: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
    expect(await spawnCount(spawnLog)).toBe(2);
    const traceAfter = logs.entries.slice(seqBeforeRestart).filter((entry) => entry.server === 'modern' && entry.source === 'trace');
    expect(traceAfter.some((entry) => entry.method === 'server/discover')).toBe(false);
    expect(logs.texts('modern', 'host').some((text) => /ready: protocol 2026-07-28 \(modern era, remembered era\)/.test(text))).toBe(true);
    expect((await supervisor.callTool('modern', 'echo', { text: 'again' })).content).toEqual([{ type: 'text', text: 'again' }]);
  });

  it('carries the log level in _meta in the modern era, so log notifications arrive', async () => {
    await supervisor.sync({ modern: fixtureConfig('modern-echo.mjs') });
    await supervisor.callTool('modern', 'echo', { text: 'quiet' });
    // Without a level the modern era sends no log notifications at all.
    expect(logs.for('modern', 'notification')).toHaveLength(0);

    const state = await supervisor.setLogLevel('modern', 'info');
    expect(state.logLevel).toBe('info');
    await supervisor.callTool('modern', 'echo', { text: 'loud' });
    await waitUntil(() => logs.for('modern', 'notification').length > 0, 10_000, 'a log notification');
    const notes = logs.for('modern', 'notification');
    expect(notes.map((entry) => entry.text)).toEqual(['info: echoing loud']);
    expect(notes[0]).toMatchObject({ level: 'info', logger: 'modern-echo' });
    const call = logs.for('modern', 'trace').filter((entry) => entry.method === 'tools/call' && entry.direction === 'out').at(-1);
    expect(call?.body).toContain('"io.modelcontextprotocol/logLevel":"info"');
  });

  it('keeps the tool list current on tools/list_changed', async () => {
    await supervisor.sync({ modern: fixtureConfig('modern-echo.mjs') });
    await supervisor.callTool('modern', 'add_tool', { name: 'late_tool' });
    await waitUntil(() => supervisor.get('modern')?.tools.some((tool) => tool.name === 'late_tool'), 15_000, 'the new tool');
    expect(states.states.filter((state) => state.name === 'modern').at(-1)?.tools.map((tool) => tool.name)).toContain('late_tool');
  });

  it('falls back to the legacy era on the same process, one spawn per connect', async () => {
    const spawnLog = join(dir.path, 'spawns.log');
    await supervisor.sync({ legacy: fixtureConfig('legacy-echo.mjs', { env: { BERTH_FIXTURE_SPAWN_LOG: spawnLog } }) });
    expect(supervisor.get('legacy')).toMatchObject({ status: 'ready', era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'legacy-echo' } });
    expect(await spawnCount(spawnLog)).toBe(1);
    const methods = logs.for('legacy', 'trace').filter((entry) => entry.direction === 'out').map((entry) => entry.method);
    expect(methods.slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);

    await supervisor.restart('legacy');
    expect(supervisor.get('legacy')).toMatchObject({ status: 'ready', era: 'legacy' });
    expect(await spawnCount(spawnLog)).toBe(2);
    // The remembered legacy verdict skips the probe.
    expect(logs.for('legacy', 'trace').filter((entry) => entry.method === 'server/discover' && entry.direction === 'out')).toHaveLength(1);

    await supervisor.setLogLevel('legacy', 'info');
    await supervisor.callTool('legacy', 'echo', { text: 'x' });
    await waitUntil(() => logs.for('legacy', 'notification').some((entry) => entry.text === 'echoing x'), 10_000, 'the log notification');
  });

  it('reports progress and times out with TIMEOUT', async () => {
    await supervisor.sync({ legacy: fixtureConfig('legacy-echo.mjs') });
    const progress: number[] = [];
    const done = await supervisor.callTool('legacy', 'slow', { ms: 400 }, { onProgress: (p) => progress.push(p.progress) });
    expect(done.content[0]).toMatchObject({ type: 'text' });
    expect(progress.length).toBeGreaterThan(0);
    await expect(supervisor.callTool('legacy', 'slow', { ms: 5_000 }, { timeoutMs: 300 })).rejects.toMatchObject({
      name: 'HostError',
      code: 'TIMEOUT',
      message: expect.stringMatching(/tools\/call tool 'slow' on server 'legacy' did not answer within 0\.3 s/),
    });
    // Progress every 100 ms keeps resetting a 1.5 s timeout, but the maximum total still ends the call.
    const kept: number[] = [];
    await expect(
      supervisor.callTool('legacy', 'slow', { ms: 20_000 }, { timeoutMs: 1_500, maxTotalMs: 2_000, onProgress: (p) => kept.push(p.progress) }),
    ).rejects.toMatchObject({ name: 'HostError', code: 'TIMEOUT' });
    expect(kept.length).toBeGreaterThan(5);
    // The server is still fine afterwards.
    expect((await supervisor.callTool('legacy', 'echo', { text: 'ok' })).content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('clears a remembered era that no longer works and negotiates again', async () => {
    // As if the server had been modern last week and was since downgraded.
    const config = fixtureConfig('legacy-echo.mjs');
    const stale = { kind: 'modern', fingerprint: eraFingerprint(config), savedAt: Date.now(), discover: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } };
    await writeFile(join(dir.path, 'eras.json'), JSON.stringify({ version: 1, servers: { s: stale } }));
    await supervisor.sync({ s: config });
    expect(supervisor.get('s')).toMatchObject({ status: 'ready', era: 'legacy' });
    expect(logs.texts('s', 'host').some((text) => text.startsWith('remembered modern era did not work'))).toBe(true);
    const eras = JSON.parse(await readFile(join(dir.path, 'eras.json'), 'utf8'));
    expect(eras.servers.s).toMatchObject({ kind: 'legacy' });
  });

  it('retries once with initialize on a fresh process when the probe kills the server, and remembers that', async () => {
    const spawnLog = join(dir.path, 'spawns.log');
    await supervisor.sync({ fragile: fixtureConfig('exit-on-probe.mjs', { env: { BERTH_FIXTURE_SPAWN_LOG: spawnLog } }) });
    expect(supervisor.get('fragile')).toMatchObject({ status: 'ready', era: 'legacy', restartCount: 0 });
    expect(states.statuses('fragile')).toEqual(['stopped', 'starting', 'ready']);
    expect(await spawnCount(spawnLog)).toBe(2);
    expect(logs.texts('fragile', 'host')).toContain('exited during the server/discover probe; retrying with initialize on a fresh process');
    await supervisor.restart('fragile');
    expect(supervisor.get('fragile')?.status).toBe('ready');
    expect(await spawnCount(spawnLog)).toBe(3);
  });

  it('applies the configured logLevel at startup in both eras', async () => {
    await supervisor.sync({
      legacy: fixtureConfig('legacy-echo.mjs', { logLevel: 'info' }),
      modern: fixtureConfig('modern-echo.mjs', { logLevel: 'debug' }),
    });
    expect(supervisor.get('legacy')).toMatchObject({ status: 'ready', logLevel: 'info' });
    expect(supervisor.get('modern')).toMatchObject({ status: 'ready', logLevel: 'debug' });
    expect(logs.for('legacy', 'trace').some((entry) => entry.method === 'logging/setLevel' && entry.direction === 'out')).toBe(true);
    await supervisor.callTool('modern', 'echo', { text: 'both' });
    await waitUntil(() => logs.for('modern', 'notification').length === 2, 10_000, 'debug and info notifications');
    expect(logs.texts('modern', 'notification')).toEqual(['debug: echoing both', 'info: echoing both']);
  });
});
