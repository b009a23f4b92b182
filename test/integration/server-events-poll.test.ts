import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventSubscription } from '../../shared/domain/server-events';
import { ServerEventsService, type SubscriptionReport } from '../../app/server-events/server-events-service';
import type { EventOccurrence } from '../../app/server-events/events-draft';
import { SubscriptionStore } from '../../app/server-events/subscription-store';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, fixtureConfig, tempDir, waitUntil } from '../../app/servers/test-support';

// MCP Events by poll against our events fixture (a durable upstream: a JSON-lines file), through the real supervisor:
// subscribe, receive, a restart of Berth that resumes from the saved cursor without duplicates or loss, refused
// payloads, a flood drained in bounded batches, list changes, and unsubscribe.

interface World {
  supervisor: ServerSupervisor;
  service: ServerEventsService;
  delivered: EventOccurrence[];
  reports: SubscriptionReport[];
}

let dir: { path: string; cleanup: () => Promise<void> };
let upstream: string;
let worlds: World[] = [];

beforeEach(async () => {
  dir = await tempDir('berth-events-');
  upstream = join(dir.path, 'upstream.jsonl');
  writeFileSync(upstream, '');
});
afterEach(async () => {
  for (const world of worlds) {
    world.service.shuttingDown();
    await world.supervisor.shutdown();
  }
  worlds = [];
  await dir.cleanup();
});

/** Berth's side: the supervisor running the fixture, and the events service over it with its saved list. */
async function startBerth(env: Record<string, string> = {}): Promise<World> {
  const store = new SubscriptionStore(join(dir.path, 'berth'));
  await store.load();
  const delivered: EventOccurrence[] = [];
  const reports: SubscriptionReport[] = [];
  const service = new ServerEventsService({
    servers: {
      // The supervisor is made next; these run only once it runs servers.
      get: (name) => supervisor.get(name),
      isCurrentClient: (name, client) => supervisor.isCurrentClient(name, client),
      request: (name, request, send) => supervisor.request(name, request, send),
    },
    store,
    deliver: (_subscription: EventSubscription, events) => void delivered.push(...events),
    report: (_subscription, report) => void reports.push(report),
    onChange: () => undefined,
    pollFloorMs: 100,
  });
  const supervisor = new ServerSupervisor({
    logs: new LogCollector(),
    stateDir: join(dir.path, 'state'),
    onState: (state) => service.serverChanged(state),
    clientSetup: (name, client) => service.clientSetup(name, client),
  });
  await supervisor.sync({
    events: fixtureConfig('events-server.mjs', {
      env: { EVENTS_FIXTURE_LOG: upstream, EVENTS_FIXTURE_NEXT_POLL_MS: '0', EVENTS_FIXTURE_MAX_EVENTS: '10', ...env },
    }),
  });
  await waitUntil(() => service.eventTypes('events')?.types.length, 20_000, 'the event types');
  const world = { supervisor, service, delivered, reports };
  worlds.push(world);
  return world;
}

async function stopBerth(world: World): Promise<void> {
  world.service.shuttingDown();
  await world.supervisor.shutdown();
  worlds = worlds.filter((other) => other !== world);
}

/** The upstream gets one event (as a build system would write it), outside any MCP request. */
function happen(name: string, data: Record<string, unknown>): void {
  const seq = readFileSync(upstream, 'utf8').split('\n').filter(Boolean).length + 1;
  appendFileSync(
    upstream,
    `${JSON.stringify({ eventId: `evt-${seq}`, name, timestamp: new Date().toISOString(), data })}\n`,
  );
}

const polls = (): Array<{ method: string; params: { cursor?: string | null } }> =>
  readFileSync(`${upstream}.requests`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { method: string; params: { cursor?: string | null } })
    .filter((request) => request.method === 'events/poll');

describe('MCP Events by poll (events fixture, real supervisor)', () => {
  it('subscribes, receives, resumes after a restart of Berth from the saved cursor without duplicates or loss', async () => {
    const first = await startBerth();
    expect(first.service.eventTypes('events')?.types.map((type) => type.name)).toEqual([
      'build.finished',
      'alert.raised',
    ]);
    const subscription = await first.service.subscribe({
      server: 'events',
      event: 'build.finished',
      arguments: { project: 'berth' },
      action: 'inbox',
    });
    // The first poll (null cursor) starts from now: what happened before is not replayed.
    happen('build.finished', { project: 'berth', status: 'passed', build: 0 });
    await waitUntil(() => polls().some((request) => request.params.cursor !== null), 10_000, 'a poll with a cursor');
    happen('build.finished', { project: 'berth', status: 'passed', build: 1 });
    happen('build.finished', { project: 'other', status: 'passed', build: 2 });
    happen('build.finished', { project: 'berth', status: 'failed', build: 3 });
    await waitUntil(() => first.delivered.length >= 2, 10_000, 'two events');
    const builds = (world: World) => world.delivered.map((event) => event.data.build);
    expect(builds(first).slice(-2)).toEqual([1, 3]);
    await stopBerth(first);

    // While Berth is closed, two more builds finish.
    happen('build.finished', { project: 'berth', status: 'passed', build: 4 });
    happen('build.finished', { project: 'berth', status: 'passed', build: 5 });
    const second = await startBerth();
    await waitUntil(() => second.delivered.length >= 2, 10_000, 'the events missed while closed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(builds(second)).toEqual([4, 5]);
    const saved = second.service.subscriptions().find((candidate) => candidate.id === subscription.id);
    expect(saved).toMatchObject({ cursor: 'seq:6', seen: expect.arrayContaining(['evt-5', 'evt-6']) });
  });

  it('never delivers an event twice when the server replays it, and refuses a payload that breaks its schema', async () => {
    const world = await startBerth();
    await world.service.subscribe({ server: 'events', event: 'alert.raised', arguments: {}, action: 'notify' });
    await waitUntil(() => polls().some((request) => request.params.cursor !== null), 10_000, 'a poll with a cursor');
    happen('alert.raised', { level: 2, text: 'disk at 91%' });
    happen('alert.raised', { level: 'high', text: 'not an integer level' });
    await waitUntil(() => world.delivered.length >= 1 && world.reports.some((report) => report.kind === 'refused'));
    expect(world.delivered.map((event) => event.data)).toEqual([{ level: 2, text: 'disk at 91%' }]);
    expect(world.reports).toContainEqual({
      kind: 'refused',
      events: [{ eventId: 'evt-2', problem: expect.stringContaining('payloadSchema') }],
      malformed: [],
    });
    // The same upstream event again (a replay): dropped by its eventId.
    appendFileSync(
      upstream,
      `${JSON.stringify({ eventId: 'evt-1', name: 'alert.raised', timestamp: new Date().toISOString(), data: { level: 2, text: 'disk at 91%' } })}\n`,
    );
    happen('alert.raised', { level: 1, text: 'back to normal' });
    await waitUntil(() => world.delivered.length >= 2);
    expect(world.delivered.map((event) => event.eventId)).toEqual(['evt-1', 'evt-4']);
  });

  it('drains a flood in bounded batches, each delivered once, and stops polling on unsubscribe', async () => {
    const world = await startBerth();
    const subscription = await world.service.subscribe({
      server: 'events',
      event: 'build.finished',
      arguments: { project: 'berth' },
      action: 'inbox',
    });
    await waitUntil(() => polls().some((request) => request.params.cursor !== null), 10_000, 'a poll with a cursor');
    for (let build = 1; build <= 45; build += 1)
      happen('build.finished', { project: 'berth', status: 'passed', build });
    await waitUntil(() => world.delivered.length >= 45, 15_000, 'the flood');
    expect(new Set(world.delivered.map((event) => event.eventId)).size).toBe(45);
    await world.service.unsubscribe(subscription.id);
    const count = polls().length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(polls().length).toBe(count);
    expect(world.service.subscriptions()).toEqual([]);
  });

  it('reads the event list page by page, and again when it changes', async () => {
    const world = await startBerth({ EVENTS_FIXTURE_PAGE_SIZE: '1' });
    expect(world.service.eventTypes('events')?.types.map((type) => type.name)).toEqual([
      'build.finished',
      'alert.raised',
    ]);
    await world.supervisor.request('events', { method: 'tools/call', what: '', action: 'call' }, (client) =>
      client.callTool({ name: 'change_events', arguments: {} }),
    );
    await waitUntil(() => world.service.eventTypes('events')?.types.some((type) => type.name === 'deploy.done'));
    const lists = readFileSync(`${upstream}.requests`, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"events/list"'));
    // Two pages at start, three after the change.
    expect(lists).toHaveLength(5);
  });
});
