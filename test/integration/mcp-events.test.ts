import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventSubscription } from '../../shared/domain/mcp-events';
import { McpEventsService, type SubscriptionReport } from '../../app/mcp-events/mcp-events-service';
import type { EventOccurrence } from '../../app/mcp-events/events-draft';
import { SubscriptionStore } from '../../app/mcp-events/subscription-store';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, fixture, fixtureConfig, serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';

// MCP Events by poll against our events fixture (a durable upstream: a JSON-lines file), through the real supervisor:
// subscribe, receive, a restart of Berth that resumes from the saved cursor without duplicates or loss, refused
// payloads, a flood drained in bounded batches, list changes, and unsubscribe.

interface World {
  supervisor: ServerSupervisor;
  service: McpEventsService;
  delivered: EventOccurrence[];
  /** Which subscription each delivered event went to, in order. */
  deliveredTo: string[];
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
async function startBerth(
  env: Record<string, string> = {},
  url?: string,
  extra: { pushSilenceMs?: number } = {},
): Promise<World> {
  const store = new SubscriptionStore(join(dir.path, 'berth'));
  await store.load();
  const delivered: EventOccurrence[] = [];
  const deliveredTo: string[] = [];
  const reports: SubscriptionReport[] = [];
  const service = new McpEventsService({
    servers: {
      // The supervisor is made next; these run only once it runs servers.
      get: (name) => supervisor.get(name),
      isCurrentClient: (name, client) => supervisor.isCurrentClient(name, client),
      request: (name, request, send) => supervisor.request(name, request, send),
    },
    store,
    deliver: (subscription: EventSubscription, events) => {
      delivered.push(...events);
      deliveredTo.push(...events.map(() => subscription.id));
    },
    report: (_subscription, report) => void reports.push(report),
    onChange: () => undefined,
    pollFloorMs: 100,
    ...extra,
  });
  const supervisor = new ServerSupervisor({
    logs: new LogCollector(),
    stateDir: join(dir.path, 'state'),
    onState: (state) => service.serverChanged(state),
    clientSetup: (name, client) => service.clientSetup(name, client),
  });
  await supervisor.sync({
    events:
      url !== undefined
        ? serverConfig({ url })
        : fixtureConfig('events-server.mjs', {
            env: {
              EVENTS_FIXTURE_LOG: upstream,
              EVENTS_FIXTURE_NEXT_POLL_MS: '0',
              EVENTS_FIXTURE_MAX_EVENTS: '10',
              ...env,
            },
          }),
  });
  await waitUntil(() => service.eventTypes('events')?.types.length, 20_000, 'the event types');
  const world = { supervisor, service, delivered, deliveredTo, reports };
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

/** Once the subscription has a cursor, the server's position is known: what happens next is delivered. */
const positioned = (world: World) =>
  waitUntil(() => world.service.subscriptions()[0]?.cursor != null, 10_000, 'the first cursor');

describe('MCP Events (events fixture, real supervisor)', () => {
  // alert.raised is offered by poll only; build.finished by push too (Berth then takes push).
  it.each([
    { mode: 'poll', event: 'alert.raised', args: {}, data: (n: number) => ({ level: n }) },
    {
      mode: 'push',
      event: 'build.finished',
      args: { project: 'berth' },
      data: (n: number) => ({ project: 'berth', status: 'passed', level: n }),
    },
  ])(
    '$mode: subscribes, receives, resumes after a restart of Berth from the saved cursor without duplicates or loss',
    async ({ mode, event, args, data }) => {
      const first = await startBerth();
      expect(first.service.eventTypes('events')?.types.map((type) => type.name)).toEqual([
        'build.finished',
        'alert.raised',
      ]);
      const subscription = await first.service.subscribe({ server: 'events', event, arguments: args, action: 'inbox' });
      await positioned(first);
      happen(event, data(1));
      if (mode === 'push') happen('build.finished', { project: 'other', status: 'passed', level: 99 });
      happen(event, data(2));
      await waitUntil(() => first.delivered.length >= 2, 10_000, 'two events');
      const levels = (world: World) => world.delivered.map((occurrence) => occurrence.data.level);
      expect(levels(first)).toEqual([1, 2]);
      await stopBerth(first);

      // While Berth is closed, two more happen.
      happen(event, data(3));
      happen(event, data(4));
      const second = await startBerth();
      await waitUntil(() => second.delivered.length >= 2, 10_000, 'the events missed while closed');
      happen(event, data(5));
      await waitUntil(() => second.delivered.length >= 3, 10_000, 'a new event');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(levels(second)).toEqual([3, 4, 5]);
      const saved = second.service.subscriptions().find((candidate) => candidate.id === subscription.id);
      expect(saved?.seen).toHaveLength(5);
      const requests = readFileSync(`${upstream}.requests`, 'utf8');
      expect(requests.includes('"events/stream"')).toBe(mode === 'push');
    },
  );

  it('never delivers an event twice when the server replays it, and refuses a payload that breaks its schema', async () => {
    const world = await startBerth();
    await world.service.subscribe({ server: 'events', event: 'alert.raised', arguments: {}, action: 'notify' });
    await positioned(world);
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
      event: 'alert.raised',
      arguments: {},
      action: 'inbox',
    });
    await positioned(world);
    // Ten per poll at most (the fixture's maxEvents): hasMore drains the rest at once, poll after poll.
    for (let level = 1; level <= 45; level += 1) happen('alert.raised', { level });
    await waitUntil(() => world.delivered.length >= 45, 15_000, 'the flood');
    expect(new Set(world.delivered.map((event) => event.eventId)).size).toBe(45);
    await world.service.unsubscribe(subscription.id);
    const count = polls().length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(polls().length).toBe(count);
    expect(world.service.subscriptions()).toEqual([]);
  });

  it('reads the event list page by page, and again when it changes (the design sketch’s capabilities.events too)', async () => {
    const world = await startBerth({ EVENTS_FIXTURE_PAGE_SIZE: '1', EVENTS_FIXTURE_SPELLING: 'sketch' });
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

  it('push: two subscriptions of one server each get their own events (each stream known by its own id)', async () => {
    const world = await startBerth();
    const ours = await world.service.subscribe({
      server: 'events',
      event: 'build.finished',
      arguments: { project: 'berth' },
      action: 'inbox',
    });
    const theirs = await world.service.subscribe({
      server: 'events',
      event: 'build.finished',
      arguments: { project: 'other' },
      action: 'inbox',
    });
    await waitUntil(() => world.service.subscriptions().every((subscription) => subscription.cursor !== null));
    happen('build.finished', { project: 'other', status: 'passed', build: 1 });
    happen('build.finished', { project: 'berth', status: 'failed', build: 2 });
    happen('build.finished', { project: 'other', status: 'failed', build: 3 });
    await waitUntil(() => world.delivered.length >= 3, 10_000, 'three events');
    const to = (id: string) => world.delivered.filter((_, index) => world.deliveredTo[index] === id);
    expect(to(ours.id).map((event) => event.data.build)).toEqual([2]);
    expect(to(theirs.id).map((event) => event.data.build)).toEqual([1, 3]);
  });

  it('push over Streamable HTTP, and a stream gone silent is reopened from its cursor', async () => {
    const server: ChildProcess = spawn(process.execPath, [fixture('events-server.mjs')], {
      env: {
        ...process.env,
        EVENTS_FIXTURE_LOG: upstream,
        EVENTS_FIXTURE_PORT: '0',
        EVENTS_FIXTURE_HEARTBEAT_MS: '60000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [line] = (await once(server.stdout!, 'data')) as [Buffer];
      const port = /listening (\d+)/.exec(line.toString())?.[1];
      const world = await startBerthWithSilence(`http://127.0.0.1:${port}/mcp`);
      await world.service.subscribe({
        server: 'events',
        event: 'build.finished',
        arguments: { project: 'berth' },
        action: 'inbox',
      });
      await positioned(world);
      happen('build.finished', { project: 'berth', status: 'passed', build: 1 });
      await waitUntil(() => world.delivered.length >= 1, 10_000, 'an event over HTTP');
      // No heartbeat for longer than the silence bound: Berth reopens the stream with its cursor, losing nothing.
      await waitUntil(() => world.reports.some((report) => report.kind === 'delivery-failed'), 10_000, 'silence');
      happen('build.finished', { project: 'berth', status: 'passed', build: 2 });
      await waitUntil(() => world.delivered.length >= 2, 10_000, 'the event after reopening');
      expect(world.delivered.map((event) => event.data.build)).toEqual([1, 2]);
      const streams = readFileSync(`${upstream}.requests`, 'utf8')
        .split('\n')
        .filter((request) => request.includes('"events/stream"'))
        .map((request) => (JSON.parse(request) as { params: { cursor: string | null } }).params.cursor);
      expect(streams[0]).toBeNull();
      expect(streams[1]).toMatch(/^seq:/);
    } finally {
      server.kill();
    }
  });

  it('pause stops delivery and resume picks up from the saved cursor: nothing lost while paused', async () => {
    const world = await startBerth();
    const subscription = await world.service.subscribe({
      server: 'events',
      event: 'alert.raised',
      arguments: {},
      action: 'inbox',
    });
    await positioned(world);
    await world.service.setPaused(subscription.id, true);
    const polled = polls().length;
    happen('alert.raised', { level: 1 });
    happen('alert.raised', { level: 2 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(polls().length).toBe(polled);
    expect(world.delivered).toEqual([]);
    await world.service.setPaused(subscription.id, false);
    await waitUntil(() => world.delivered.length >= 2, 10_000, 'the events of the pause');
    expect(world.delivered.map((event) => event.data.level)).toEqual([1, 2]);
  });

  it('a cursor older than the server keeps: the skipped events are reported as truncated, the rest delivered', async () => {
    const world = await startBerth({ EVENTS_FIXTURE_RETENTION: '3' });
    const subscription = await world.service.subscribe({
      server: 'events',
      event: 'alert.raised',
      arguments: {},
      action: 'inbox',
    });
    await positioned(world);
    await world.service.setPaused(subscription.id, true);
    for (let level = 1; level <= 6; level += 1) happen('alert.raised', { level });
    await world.service.setPaused(subscription.id, false);
    await waitUntil(() => world.delivered.length >= 3, 10_000, 'the events the server still had');
    expect(world.delivered.map((event) => event.data.level)).toEqual([4, 5, 6]);
    expect(world.reports).toContainEqual({ kind: 'truncated' });
    expect(world.service.subscriptions()[0]?.truncatedAt).toEqual(expect.any(Number));
  });
});

/** As startBerth, over HTTP, with a push silence bound short enough for a test. */
function startBerthWithSilence(url: string): Promise<World> {
  return startBerth({}, url, { pushSilenceMs: 800 });
}
