import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServerConnection } from '../../app/servers/server-connection';
import { fixtureConfig } from '../../app/servers/test-support';
import { collectLogs, supervisorPerTest } from './supervisor-harness';

/** The verdicts on disk once every save asked for is done; none when nothing was ever saved. */
async function savedEras(dir: string): Promise<Record<string, unknown>> {
  const text = await readFile(join(dir, 'eras.json'), 'utf8').catch(() => undefined);
  return text === undefined ? {} : (JSON.parse(text) as { servers: Record<string, unknown> }).servers;
}

// Issue 33, item 4: the era a server gets must not depend on how long it takes to start.
describe('the era probe under load (fixture servers)', () => {
  describe('with the default limits', () => {
    const servers = supervisorPerTest(collectLogs, { clientVersion: '0.1.0-test' });

    it('waits for a modern server that takes 12 s to start, and stores its modern era', async () => {
      await servers.supervisor.sync({ slow: fixtureConfig('slow-start.mjs') });
      expect(servers.supervisor.get('slow')).toMatchObject({
        status: 'ready',
        era: 'modern',
        protocolVersion: '2026-07-28',
        serverInfo: { name: 'modern-echo' },
      });
      const out = servers.logs.for('slow', 'trace').filter((entry) => entry.direction === 'out');
      expect(out.map((entry) => entry.method)).not.toContain('initialize');
      await servers.supervisor.erasSaved();
      expect(await savedEras(servers.dir)).toEqual({ slow: expect.objectContaining({ kind: 'modern' }) });
    }, 45_000);
  });

  describe('with a 1 s quiet limit', () => {
    const servers = supervisorPerTest(collectLogs, {
      clientVersion: '0.1.0-test',
      openConnection: (options) => ServerConnection.open({ ...options, probeQuietMs: 1_000 }),
    });

    it('falls back to initialize when the probe gets no answer, and remembers nothing', async () => {
      const config = fixtureConfig('legacy-echo.mjs', { env: { BERTH_FIXTURE_IGNORE_DISCOVER: '1' } });
      await servers.supervisor.sync({ quiet: config });
      expect(servers.supervisor.get('quiet')).toMatchObject({ status: 'ready', era: 'legacy' });
      expect(
        servers.logs.texts('quiet', 'host').find((text) => text.startsWith('no answer to server/discover')),
      ).toMatch(
        /^no answer to server\/discover after \d+(\.\d)? s; trying initialize on the same process \(not remembered: the next start asks again\)$/,
      );
      // The trace shows only what the server sent: no answer to the probe.
      const trace = servers.logs.for('quiet', 'trace');
      const probe = trace.find((entry) => entry.method === 'server/discover' && entry.direction === 'out');
      expect(probe).toBeDefined();
      expect(trace.filter((entry) => entry.direction === 'in' && entry.id === probe?.id)).toEqual([]);
      await servers.supervisor.erasSaved();
      expect(await savedEras(servers.dir)).toEqual({});

      // Nothing was remembered, so the next start asks again.
      await servers.supervisor.restart('quiet');
      expect(servers.supervisor.get('quiet')).toMatchObject({ status: 'ready', era: 'legacy' });
      expect(
        servers.logs
          .for('quiet', 'trace')
          .filter((entry) => entry.method === 'server/discover' && entry.direction === 'out'),
      ).toHaveLength(2);
      await servers.supervisor.erasSaved();
      expect(await savedEras(servers.dir)).toEqual({});
    });

    it("still remembers a server's explicit answer (method not found) as legacy", async () => {
      await servers.supervisor.sync({ plain: fixtureConfig('legacy-echo.mjs') });
      expect(servers.supervisor.get('plain')).toMatchObject({ status: 'ready', era: 'legacy' });
      await servers.supervisor.erasSaved();
      expect(await savedEras(servers.dir)).toEqual({ plain: expect.objectContaining({ kind: 'legacy' }) });
    });

    it('counts the quiet limit from the first output, and takes a late modern answer as the evidence it is', async () => {
      // Says "loading" at once, then takes 4 s: past the 1 s quiet limit counted from that line.
      const config = fixtureConfig('slow-start.mjs', {
        env: { BERTH_FIXTURE_START_MS: '4000', BERTH_FIXTURE_START_LINE: 'modern-echo: loading' },
      });
      await servers.supervisor.sync({ late: config });
      // This start went on with initialize (the server answers both eras)…
      expect(servers.supervisor.get('late')).toMatchObject({ status: 'ready', era: 'legacy' });
      const host = servers.logs.texts('late', 'host');
      expect(host.some((text) => text.startsWith('no answer to server/discover after 1.'))).toBe(true);
      expect(host).toContain(
        'the server answered server/discover late: its 2026-07-28 era is used from the next start',
      );
      // …but the server did answer the probe, so its modern era is what is stored, never "legacy".
      await servers.supervisor.erasSaved();
      expect(await savedEras(servers.dir)).toEqual({
        late: expect.objectContaining({
          kind: 'modern',
          discover: expect.objectContaining({ supportedVersions: ['2026-07-28'] }),
        }),
      });
      await servers.supervisor.restart('late');
      expect(servers.supervisor.get('late')).toMatchObject({ status: 'ready', era: 'modern' });
      expect(servers.logs.texts('late', 'host').at(-1)).toMatch(/\(modern era, remembered era\)/);
    });
  });
});
