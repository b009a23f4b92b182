import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import type { PendingRequest } from '../../shared/domain/pending';
import type { ServerState } from '../../shared/domain/server';
import { fixture } from '../../app/servers/test-support';
import { cleanEnv } from './host-chat-support';
import { SOAK, timed } from './fault-support';
import { hostPerTest } from './host-harness';
import type { HostHarness } from './host-harness';

/**
 * Fault injection through the whole host (createHost): the requests a server
 * sends to Berth — sampling, roots, ping — arrive too early or in a flood.
 * The host's own contract methods must keep answering promptly, every
 * request the server made must get an answer, and what waits for the person
 * stays bounded.
 */

const PROMPT_MS = 3_000;

const berth = hostPerTest('berth-fault-host-');

function start(extraEnv: NodeJS.ProcessEnv = {}): Promise<HostHarness> {
  return berth.start({ env: cleanEnv(extraEnv) });
}

async function addMisbehaving(
  h: HostHarness,
  name: string,
  mode: string,
  env: Record<string, string> = {},
): Promise<ServerState> {
  await h.call('servers.add', {
    name,
    config: { command: process.execPath, args: [fixture('misbehave.mjs')], env: { BERTH_MISBEHAVE: mode, ...env } },
  });
  return h.waitForEvent(
    'servers.changed',
    (state) =>
      state.name === name && (state.status === 'ready' || state.status === 'error' || state.status === 'crashed'),
  );
}

/** The server's stderr lines (where the fixture reports each answer it got). */
async function stderrLines(h: HostHarness, server: string): Promise<string[]> {
  const { entries } = await h.call<{ entries: LogEntry[] }>('logs.query', {
    server,
    sources: ['stderr'],
    limit: 250_000,
  });
  return entries.map((entry) => entry.text);
}

/** A contract method answers, promptly. */
async function expectHostResponsive(h: HostHarness): Promise<void> {
  const { value, ms } = await timed(() => h.call<ServerState[]>('servers.list', {}));
  expect(Array.isArray(value)).toBe(true);
  expect(ms).toBeLessThan(PROMPT_MS);
}

describe('fault injection through the host', () => {
  it('requests before `initialized`: each one is answered, and the handshake still completes', async () => {
    const h = await start();
    const state = await addMisbehaving(h, 'early', 'early-requests');
    expect(state).toMatchObject({ status: 'ready', era: 'legacy' });
    const answered = async () => (await stderrLines(h, 'early')).filter((line) => line.startsWith('answered '));
    // The host answers ping and roots/list, and refuses sampling without a key, in words.
    await expect.poll(answered, { timeout: 10_000 }).toHaveLength(3);
    expect((await answered()).sort()).toEqual([
      'answered misbehave-1: result',
      'answered misbehave-2: result',
      'answered misbehave-3: error Berth has no Anthropic API key yet, so it cannot answer sampling requests',
    ]);
    await expectHostResponsive(h);
  });

  it('a flood of sampling requests: the rate limit answers the excess at once, only a few wait for the person', async () => {
    const count = SOAK ? 5_000 : 500;
    const h = await start({ ANTHROPIC_API_KEY: 'sk-ant-fault-injection-not-used' });
    const neighbour = await addMisbehaving(h, 'good', 'none');
    expect(neighbour.status).toBe('ready');
    const state = await addMisbehaving(h, 'flooder', 'flood-sampling', { BERTH_MISBEHAVE_COUNT: String(count) });
    expect(state.status).toBe('ready');

    // 10 per minute per server (the default bucket) wait for review; the rest get an immediate rate-limit error.
    const rateLimited = async () =>
      (await stderrLines(h, 'flooder')).filter(
        (line) => line.startsWith('answered ') && line.includes('Sampling rate limit'),
      );
    // (The bucket refills one request every 6 s, so a slow machine may let an 11th through.)
    const waiting = async () =>
      (await h.call<PendingRequest[]>('pending.list', {})).filter(
        (request) => request.kind === 'sampling' && request.server === 'flooder',
      );
    await expect
      .poll(async () => (await rateLimited()).length + (await waiting()).length, { timeout: 20_000, interval: 200 })
      .toBe(count);
    expect((await rateLimited())[0]).toMatch(
      /^answered misbehave-\d+: error Sampling rate limit: server 'flooder' may send 10 sampling requests per 60 s; try again in \d+ s$/,
    );
    expect((await waiting()).length).toBeGreaterThanOrEqual(10);
    expect((await waiting()).length).toBeLessThanOrEqual(12);
    await expectHostResponsive(h);
    expect((await h.call<ServerState[]>('servers.list', {})).map((s) => [s.name, s.status])).toEqual([
      ['flooder', 'ready'],
      ['good', 'ready'],
    ]);

    // Removing the server takes its waiting requests with it.
    await h.call('servers.remove', { name: 'flooder' });
    expect(
      (await h.call<PendingRequest[]>('pending.list', {})).filter((request) => request.server === 'flooder'),
    ).toEqual([]);
    await expectHostResponsive(h);
  }, 60_000);
});
