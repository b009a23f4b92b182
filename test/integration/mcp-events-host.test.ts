import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/domain/chat';
import type { EventsCatalog, EventSubscriptionView } from '../../shared/domain/mcp-events';
import type { ServerState } from '../../shared/domain/server';
import { eventAfter, pendingAfter, startChatWorld, TEST_API_KEY, turnEndAfter } from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import type { HostHarness } from './host-harness';

// MCP Events through the whole host (the events fixture, the fake Messages API): the catalog, a subscription whose
// events land in the Inbox, and one whose event starts a conversation in which the model's tool call still asks.

const fixture = join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'servers', 'events-server.mjs');

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function addEventsServer(harness: HostHarness, upstream: string): Promise<ServerState> {
  writeFileSync(upstream, '');
  await harness.call('servers.add', {
    name: 'ci',
    config: {
      command: process.execPath,
      args: [fixture],
      env: { EVENTS_FIXTURE_LOG: upstream, EVENTS_FIXTURE_NEXT_POLL_MS: '0' },
    },
  });
  return harness.waitForEvent('servers.changed', (state) => state.name === 'ci' && state.status === 'ready');
}

function happen(upstream: string, name: string, data: Record<string, unknown>): void {
  const seq = readFileSync(upstream, 'utf8').split('\n').filter(Boolean).length + 1;
  appendFileSync(
    upstream,
    `${JSON.stringify({ eventId: `evt-${seq}`, name, timestamp: new Date().toISOString(), data })}\n`,
  );
}

/** The subscription once it has a cursor: what happens after that is delivered. */
function positioned(harness: HostHarness, id: string): Promise<EventsCatalog> {
  return harness.waitForEvent('events.changed', (catalog) =>
    catalog.subscriptions.some((subscription) => subscription.id === id && subscription.cursor !== null),
  );
}

describe('MCP Events through the host', () => {
  it('lists the event types, keeps an event in the Inbox, marks it read, and removes it with Undo', async () => {
    world = await startChatWorld();
    const { harness } = world;
    const upstream = join(world.dir, 'upstream.jsonl');
    await addEventsServer(harness, upstream);
    const catalog = await harness.waitForEvent('events.changed', (c) => c.servers.some((s) => s.server === 'ci'));
    expect(catalog.servers[0]?.types.map((type) => [type.name, type.delivery])).toEqual([
      ['build.finished', ['poll', 'push']],
      ['alert.raised', ['poll']],
    ]);
    const subscription = await harness.call<EventSubscriptionView>('events.subscribe', {
      server: 'ci',
      event: 'alert.raised',
      arguments: {},
      action: 'inbox',
    });
    await positioned(harness, subscription.id);
    happen(upstream, 'alert.raised', { level: 3, text: 'disk at 97%' });
    await harness.waitForEvent('events.inboxChanged', ({ unread }) => unread === 1);
    const inbox = await harness.call<{ entries: Array<{ id: string; data: unknown; server: string }> }>(
      'events.inbox',
      {},
    );
    expect(inbox.entries).toMatchObject([{ server: 'ci', data: { level: 3, text: 'disk at 97%' } }]);
    const id = inbox.entries[0]!.id;
    expect(await harness.call('events.markRead', { ids: [id] })).toEqual({ unread: 0 });
    const { removed } = await harness.call<{ removed: Array<{ id: string }> }>('events.removeFromInbox', { ids: [id] });
    expect(removed.map((entry) => entry.id)).toEqual([id]);
    await harness.call('events.restoreToInbox', { ids: [id] });
    expect((await harness.call<{ entries: unknown[] }>('events.inbox', {})).entries).toHaveLength(1);

    // Saved: after a restart the subscription is there, and resumes.
    await harness.host.shutdown();
    const again = await world.restart();
    await again.waitForEvent('servers.changed', (state) => state.name === 'ci' && state.status === 'ready');
    const restored = await again.call<EventsCatalog>('events.catalog', {});
    expect(restored.subscriptions).toMatchObject([{ id: subscription.id, event: 'alert.raised', action: 'inbox' }]);
    happen(upstream, 'alert.raised', { level: 1, text: 'back to normal' });
    await again.waitForEvent('events.inboxChanged', ({ unread }) => unread === 1);
  });

  it('an event starts a conversation with the person’s prompt, framed as the server’s words; its tool call asks', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    const upstream = join(world.dir, 'upstream.jsonl');
    await addEventsServer(harness, upstream);
    await harness.waitForEvent('events.changed', (c) => c.servers.some((s) => s.server === 'ci'));
    fake.script([
      { toolUses: [{ name: 'ci__emit', input: { name: 'alert.raised', data: { level: 1 } } }] },
      { text: 'I did not raise the alert.' },
    ]);
    const subscription = await harness.call<EventSubscriptionView>('events.subscribe', {
      server: 'ci',
      event: 'build.finished',
      arguments: { project: 'berth', status: 'failed' },
      action: 'conversation',
      prompt: 'A build of {{event}} on {{server}} failed. Find out why.',
    });
    await positioned(harness, subscription.id);
    const mark = harness.events.length;
    happen(upstream, 'build.finished', { project: 'berth', status: 'failed', build: 7 });
    const consent = await pendingAfter(harness, mark, 'tool-call');
    const catalog = await harness.call<EventsCatalog>('events.catalog', {});
    const conversationId = catalog.subscriptions[0]?.conversationId;
    expect(conversationId).toBeDefined();
    expect(consent).toMatchObject({ conversationId, server: 'ci', payload: { tool: 'emit' } });
    const conversation = await harness.call<Conversation>('chat.get', { id: conversationId });
    expect(conversation.title).toBe('build.finished — ci');
    const sent = JSON.stringify(fake.requests[0]?.body?.messages[0]);
    expect(sent).toContain('A build of build.finished on ci failed. Find out why.');
    expect(sent).toContain("the server's words, not the user's");
    expect(sent).toContain('\\"build\\":7');
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'deny' } });
    expect(await turnEndAfter(harness, mark, conversationId!)).toMatchObject({ type: 'turn-finished' });
    await eventAfter(harness, mark, 'events.inboxChanged');
  });
});
