import { readFile, writeFile } from 'node:fs/promises';
import { serverTools } from '../../shared/domain/server-state-read';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eraFingerprint } from '../../app/servers/era-cache';
import { fixtureConfig, waitUntil } from '../../app/servers/test-support';
import { collectLogs, supervisorPerTest } from './supervisor-harness';

async function spawnCount(file: string): Promise<number> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.trim() !== '').length;
}

describe('protocol eras (fixture servers)', () => {
  const servers = supervisorPerTest(collectLogs, { clientVersion: '0.1.0-test' });

  it('negotiates the modern era, remembers it, and connects without a probe after a restart', async () => {
    const spawnLog = join(servers.dir, 'spawns.log');
    await servers.supervisor.sync({
      modern: fixtureConfig('modern-echo.mjs', { env: { BERTH_FIXTURE_SPAWN_LOG: spawnLog } }),
    });
    const first = servers.supervisor.get('modern');
    expect(first).toMatchObject({
      status: 'ready',
      era: 'modern',
      protocolVersion: '2026-07-28',
      serverInfo: { name: 'modern-echo' },
      instructions: 'Echoes text back.',
    });
    expect(
      serverTools(first)
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(['add_tool', 'echo']);
    expect(first?.capabilities).toHaveProperty('logging');
    expect(await spawnCount(spawnLog)).toBe(1);
    expect(
      servers.logs
        .for('modern', 'trace')
        .filter((entry) => entry.method === 'server/discover' && entry.direction === 'out'),
    ).toHaveLength(1);
    // Ready is reported before the verdict's write; the supervisor says when it is on disk.
    await servers.supervisor.erasSaved();
    const eras = JSON.parse(await readFile(join(servers.dir, 'eras.json'), 'utf8'));
    expect(eras.servers.modern).toMatchObject({ kind: 'modern', discover: { supportedVersions: ['2026-07-28'] } });

    const result = await servers.supervisor.callTool('modern', 'echo', { text: 'hello' });
    expect(result.content).toEqual([{ type: 'text', text: 'hello' }]);

    const seqBeforeRestart = servers.logs.entries.length;
    const restarted = await servers.supervisor.restart('modern');
    expect(restarted).toMatchObject({ status: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
    expect(await spawnCount(spawnLog)).toBe(2);
    const traceAfter = servers.logs.entries
      .slice(seqBeforeRestart)
      .filter((entry) => entry.server === 'modern' && entry.source === 'trace');
    expect(traceAfter.some((entry) => entry.method === 'server/discover')).toBe(false);
    expect(
      servers.logs
        .texts('modern', 'host')
        .some((text) => /ready: protocol 2026-07-28 \(modern era, remembered era\)/.test(text)),
    ).toBe(true);
    expect((await servers.supervisor.callTool('modern', 'echo', { text: 'again' })).content).toEqual([
      { type: 'text', text: 'again' },
    ]);
  });

  it('carries the log level in _meta in the modern era, so log notifications arrive', async () => {
    await servers.supervisor.sync({ modern: fixtureConfig('modern-echo.mjs') });
    await servers.supervisor.callTool('modern', 'echo', { text: 'quiet' });
    // Without a level the modern era sends no log notifications at all.
    expect(servers.logs.for('modern', 'notification')).toHaveLength(0);

    const state = await servers.supervisor.setLogLevel('modern', 'info');
    expect(state.logLevel).toBe('info');
    await servers.supervisor.callTool('modern', 'echo', { text: 'loud' });
    await waitUntil(() => servers.logs.for('modern', 'notification').length > 0, 10_000, 'a log notification');
    const notes = servers.logs.for('modern', 'notification');
    expect(notes.map((entry) => entry.text)).toEqual(['info: echoing loud']);
    expect(notes[0]).toMatchObject({ level: 'info', logger: 'modern-echo' });
    const call = servers.logs
      .for('modern', 'trace')
      .filter((entry) => entry.method === 'tools/call' && entry.direction === 'out')
      .at(-1);
    expect(call?.body).toContain('"io.modelcontextprotocol/logLevel":"info"');
  });

  it('keeps the tool list current on tools/list_changed', async () => {
    await servers.supervisor.sync({ modern: fixtureConfig('modern-echo.mjs') });
    await servers.supervisor.callTool('modern', 'add_tool', { name: 'late_tool' });
    await waitUntil(
      () => serverTools(servers.supervisor.get('modern')).some((tool) => tool.name === 'late_tool'),
      15_000,
      'the new tool',
    );
    expect(
      serverTools(servers.states.states.filter((state) => state.name === 'modern').at(-1)).map((tool) => tool.name),
    ).toContain('late_tool');
  });

  it('keeps the tool list current after a restart on the remembered era too', async () => {
    await servers.supervisor.sync({ modern: fixtureConfig('modern-echo.mjs') });
    await servers.supervisor.restart('modern');
    expect(servers.logs.texts('modern', 'host').some((text) => /remembered era/.test(text))).toBe(true);
    await servers.supervisor.callTool('modern', 'add_tool', { name: 'after_restart' });
    await waitUntil(
      () => serverTools(servers.supervisor.get('modern')).some((tool) => tool.name === 'after_restart'),
      15_000,
      'the tool added after the restart',
    );
  });

  it('asks for list changes ahead of tools/list without waiting for the acknowledgement', async () => {
    await servers.supervisor.sync({ modern: fixtureConfig('modern-echo.mjs') });
    // Ready does not wait for the acknowledgement (that is the point), so it may still be on its way: wait for it.
    const lines = (): string[] =>
      servers.logs.for('modern', 'trace').map((entry) => `${entry.direction} ${entry.method ?? ''}`);
    const trace = await waitUntil(
      () => (lines().includes('in notifications/subscriptions/acknowledged') ? lines() : undefined),
      10_000,
      'the acknowledgement',
    );
    const at = (line: string): number => trace.indexOf(line);
    expect(at('out subscriptions/listen')).toBeGreaterThan(-1);
    expect(at('out subscriptions/listen')).toBeLessThan(at('out tools/list'));
    // tools/list left before the acknowledgement came back: ready did not wait for that round trip.
    expect(at('out tools/list')).toBeLessThan(at('in notifications/subscriptions/acknowledged'));
  });

  it('starts a server that never acknowledges the subscription, and says its lists will not update', async () => {
    // The acknowledgement is waited for as long as a start may take: short, but not so short that a loaded machine's start itself times out.
    const config = fixtureConfig('modern-echo.mjs', {
      env: { BERTH_FIXTURE_IGNORE_LISTEN: '1' },
      timeouts: { startupMs: 4_000, requestMs: 5_000 },
    });
    await servers.supervisor.sync({ deaf: config });
    expect(servers.supervisor.get('deaf')).toMatchObject({ status: 'ready', era: 'modern' });
    await waitUntil(
      () => servers.logs.texts('deaf', 'host').find((text) => text.startsWith('could not subscribe')),
      15_000,
      'the warning',
    );
    expect(servers.logs.texts('deaf', 'host').filter((text) => text.startsWith('could not subscribe'))).toEqual([
      'could not subscribe to tools list changes (subscriptions/listen ack timed out); those lists are read again only when the server restarts',
    ]);
    expect(servers.supervisor.get('deaf')?.status).toBe('ready');
  });

  it('falls back to the legacy era on the same process, one spawn per connect', async () => {
    const spawnLog = join(servers.dir, 'spawns.log');
    await servers.supervisor.sync({
      legacy: fixtureConfig('legacy-echo.mjs', { env: { BERTH_FIXTURE_SPAWN_LOG: spawnLog } }),
    });
    expect(servers.supervisor.get('legacy')).toMatchObject({
      status: 'ready',
      era: 'legacy',
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'legacy-echo' },
    });
    expect(await spawnCount(spawnLog)).toBe(1);
    const methods = servers.logs
      .for('legacy', 'trace')
      .filter((entry) => entry.direction === 'out')
      .map((entry) => entry.method);
    expect(methods.slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);

    await servers.supervisor.restart('legacy');
    expect(servers.supervisor.get('legacy')).toMatchObject({ status: 'ready', era: 'legacy' });
    expect(await spawnCount(spawnLog)).toBe(2);
    // The remembered legacy verdict skips the probe.
    expect(
      servers.logs
        .for('legacy', 'trace')
        .filter((entry) => entry.method === 'server/discover' && entry.direction === 'out'),
    ).toHaveLength(1);

    await servers.supervisor.setLogLevel('legacy', 'info');
    await servers.supervisor.callTool('legacy', 'echo', { text: 'x' });
    await waitUntil(
      () => servers.logs.for('legacy', 'notification').some((entry) => entry.text === 'echoing x'),
      10_000,
      'the log notification',
    );
  });

  it('reports progress and times out with TIMEOUT', async () => {
    await servers.supervisor.sync({ legacy: fixtureConfig('legacy-echo.mjs') });
    const progress: number[] = [];
    const done = await servers.supervisor.callTool(
      'legacy',
      'slow',
      { ms: 400 },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(done.content[0]).toMatchObject({ type: 'text' });
    expect(progress.length).toBeGreaterThan(0);
    await expect(
      servers.supervisor.callTool('legacy', 'slow', { ms: 5_000 }, { timeoutMs: 300 }),
    ).rejects.toMatchObject({
      name: 'HostError',
      code: 'TIMEOUT',
      message: expect.stringMatching(/tools\/call tool 'slow' on server 'legacy' did not answer within 0\.3 s/),
    });
    // Progress every 100 ms keeps resetting a 1.5 s timeout, but the maximum total still ends the call.
    const kept: number[] = [];
    await expect(
      servers.supervisor.callTool(
        'legacy',
        'slow',
        { ms: 20_000 },
        { timeoutMs: 1_500, maxTotalMs: 2_000, onProgress: (p) => kept.push(p.progress) },
      ),
    ).rejects.toMatchObject({ name: 'HostError', code: 'TIMEOUT' });
    expect(kept.length).toBeGreaterThan(5);
    // The server is still fine afterwards.
    expect((await servers.supervisor.callTool('legacy', 'echo', { text: 'ok' })).content).toEqual([
      { type: 'text', text: 'ok' },
    ]);
  });

  it('clears a remembered era that no longer works and negotiates again', async () => {
    // As if the server had been modern last week and was since downgraded.
    const config = fixtureConfig('legacy-echo.mjs');
    const stale = {
      kind: 'modern',
      fingerprint: eraFingerprint(config),
      savedAt: Date.now(),
      discover: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } },
    };
    await writeFile(join(servers.dir, 'eras.json'), JSON.stringify({ version: 1, servers: { s: stale } }));
    await servers.supervisor.sync({ s: config });
    expect(servers.supervisor.get('s')).toMatchObject({ status: 'ready', era: 'legacy' });
    expect(servers.logs.texts('s', 'host').some((text) => text.startsWith('remembered modern era did not work'))).toBe(
      true,
    );
    // Ready is reported before the verdict's write; the supervisor says when it is on disk.
    await servers.supervisor.erasSaved();
    const eras = JSON.parse(await readFile(join(servers.dir, 'eras.json'), 'utf8'));
    expect(eras.servers.s).toMatchObject({ kind: 'legacy' });
  });

  it('retries once with initialize on a fresh process when the probe kills the server, and remembers that', async () => {
    const spawnLog = join(servers.dir, 'spawns.log');
    await servers.supervisor.sync({
      fragile: fixtureConfig('exit-on-probe.mjs', { env: { BERTH_FIXTURE_SPAWN_LOG: spawnLog } }),
    });
    expect(servers.supervisor.get('fragile')).toMatchObject({ status: 'ready', era: 'legacy', restartCount: 0 });
    expect(servers.states.statuses('fragile')).toEqual(['stopped', 'starting', 'ready']);
    expect(await spawnCount(spawnLog)).toBe(2);
    expect(servers.logs.texts('fragile', 'host')).toContain(
      'exited during the server/discover probe; retrying with initialize on a fresh process',
    );
    await servers.supervisor.restart('fragile');
    expect(servers.supervisor.get('fragile')?.status).toBe('ready');
    expect(await spawnCount(spawnLog)).toBe(3);
  });

  it('applies the configured logLevel at startup in both eras', async () => {
    await servers.supervisor.sync({
      legacy: fixtureConfig('legacy-echo.mjs', { logLevel: 'info' }),
      modern: fixtureConfig('modern-echo.mjs', { logLevel: 'debug' }),
    });
    expect(servers.supervisor.get('legacy')).toMatchObject({ status: 'ready', logLevel: 'info' });
    expect(servers.supervisor.get('modern')).toMatchObject({ status: 'ready', logLevel: 'debug' });
    expect(
      servers.logs
        .for('legacy', 'trace')
        .some((entry) => entry.method === 'logging/setLevel' && entry.direction === 'out'),
    ).toBe(true);
    await servers.supervisor.callTool('modern', 'echo', { text: 'both' });
    await waitUntil(
      () => servers.logs.for('modern', 'notification').length === 2,
      10_000,
      'debug and info notifications',
    );
    expect(servers.logs.texts('modern', 'notification')).toEqual(['debug: echoing both', 'info: echoing both']);
  });
});
