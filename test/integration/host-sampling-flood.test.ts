import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import type { PendingRequest } from '../../shared/domain/pending';
import type { ServerState } from '../../shared/domain/server';
import { waitUntil } from '../../app/servers/test-support';
import { DECLINED_ALL_REASON } from '../../app/sampling/sampling-review';
import { startChatWorld, TEST_API_KEY } from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import type { HostHarness } from './host-harness';

// A server that sends 50 sampling requests in a second: Berth's rate limit
// refuses what is over it at once, the rest wait for the person, who declines
// them all in one action. The fixture writes to stderr what it was told for
// each request, so the test reads the server's side in Berth's logs.

const flood = {
  command: process.execPath,
  args: [join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'servers', 'sampling-flood.mjs')],
  env: { FLOOD_COUNT: '50' },
};

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function stderrOf(harness: HostHarness): Promise<string[]> {
  const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', {
    server: 'flood',
    sources: ['stderr'],
  });
  return entries.map((entry) => entry.text);
}

const waitingFrom = async (harness: HostHarness): Promise<PendingRequest[]> =>
  (await harness.call<PendingRequest[]>('pending.list', {})).filter((request) => request.server === 'flood');

describe('host: a server flooding sampling requests', () => {
  it('leaves one queue the person declines in one action: every request declined with MCP’s error, nothing left, the rest of the session refused', async () => {
    world = await startChatWorld();
    const { harness } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await harness.call('servers.add', { name: 'flood', config: flood });
    await harness.waitForEvent(
      'servers.changed',
      (state: ServerState) => state.name === 'flood' && state.status === 'ready',
    );

    // Berth's rate limit (10 a minute) refuses 40 at once; 10 wait for the person.
    await waitUntil(
      async () => (await stderrOf(harness)).filter((line) => line.startsWith('refused -32000')).length === 40,
      20_000,
      'the rate-limited requests refused',
    );
    const waiting = await waitingFrom(harness);
    expect(waiting).toHaveLength(10);
    expect(waiting.every((request) => request.kind === 'sampling')).toBe(true);

    expect(await harness.call('sampling.declineAll', { server: 'flood', refuseForSession: true })).toEqual({
      declined: 10,
      policies: { flood: 'refuse-session' },
    });
    await waitUntil(
      async () => (await stderrOf(harness)).includes('settled 50: 0 answered, 10 user-rejected, 40 other'),
      20_000,
      'the server told about every request',
    );
    const told = await stderrOf(harness);
    expect(
      told.filter((line) => line === `refused -1: User rejected sampling request: ${DECLINED_ALL_REASON}`),
    ).toHaveLength(10);
    expect(await harness.call('pending.list', {})).toEqual([]);

    // Refused for the session: the server's next flood (after a restart) is refused without a question.
    const mark = harness.events.length;
    await harness.call('servers.restart', { name: 'flood' });
    await waitUntil(
      async () =>
        (await stderrOf(harness)).filter((line) =>
          line.startsWith(
            'refused -1: User rejected sampling request: sampling is turned off for this server in Berth for this session',
          ),
        ).length === 50,
      20_000,
      'the second flood refused',
    );
    expect(harness.events.slice(mark).some((event) => event.topic === 'pending.changed')).toBe(false);
    expect(await harness.call('pending.list', {})).toEqual([]);
  }, 90_000);
});
