import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../shared/contract/settings';
import type { Conversation, ConversationSummary } from '../../shared/domain/chat';
import { messageText } from '../../shared/domain/chat';
import type { AuditEntry, ConsentPolicy } from '../../shared/domain/consent';
import type { LogEntry } from '../../shared/domain/log';
import {
  addEverything,
  eventAfter,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('host chat: key, streaming and persistence', () => {
  it('explains a missing key, stores one without ever showing it, streams a reply and keeps it across a restart', async () => {
    world = await startChatWorld();
    const { fake } = world;
    let { harness } = world;
    const conversation = await newConversation(harness);
    expect(conversation.model).toBe('claude-sonnet-5');

    const refused = await harness.host.dispatch('chat.send', { id: conversation.id, text: 'hello?' });
    expect(refused).toMatchObject({
      ok: false,
      code: 'NOT_READY',
      message: expect.stringContaining('Add your Anthropic API key in Settings'),
      hostMessage: { code: 'provider-errors.no-api-key', params: {} },
    });
    expect((await harness.call<Conversation>('chat.get', { id: conversation.id })).messages).toEqual([]);
    expect(fake.requests).toHaveLength(0);
    expect((await harness.call<SettingsView>('settings.get', {})).apiKey).toEqual({ source: 'none' });

    const tooShort = await harness.host.dispatch('settings.setApiKey', { apiKey: 'short' });
    expect(tooShort).toMatchObject({ ok: false, code: 'INVALID_INPUT', path: 'apiKey' });
    const view = await harness.call<SettingsView>('settings.setApiKey', { apiKey: TEST_API_KEY });
    expect(view.apiKey).toEqual({ source: 'stored', hint: '…7f3a' });
    expect((await harness.call<SettingsView>('settings.get', {})).apiKey).toEqual({ source: 'stored', hint: '…7f3a' });
    await harness.waitForEvent('settings.changed', (payload) => payload.apiKey.source === 'stored');

    fake.script([{ text: 'Hello there, dear person.' }]);
    const mark = harness.events.length;
    expect(await harness.call('chat.send', { id: conversation.id, text: 'Say hello' })).toEqual({ accepted: true });
    expect(await turnEndAfter(harness, mark, conversation.id)).toMatchObject({
      type: 'turn-finished',
      stopReason: 'end_turn',
    });
    const deltas = harness.events
      .slice(mark)
      .flatMap((event) =>
        event.topic === 'chat.event' && (event.payload as { type: string }).type === 'text-delta'
          ? [(event.payload as { text: string }).text]
          : [],
      );
    expect(deltas.join('')).toBe('Hello there, dear person.');
    const saved = await harness.call<Conversation>('chat.get', { id: conversation.id });
    expect(saved.messages.map((m) => [m.role, messageText(m)])).toEqual([
      ['user', 'Say hello'],
      ['assistant', 'Hello there, dear person.'],
    ]);
    expect(saved.title).toBe('Say hello');
    const listed = await eventAfter(harness, mark, 'chat.conversationsChanged', ({ changed }) =>
      changed.some((c) => c.messageCount === 2),
    );
    // Only the conversation that changed, not the whole list.
    expect(listed).toEqual({
      changed: [expect.objectContaining({ id: conversation.id, title: 'Say hello', messageCount: 2 })],
      removed: [],
    });
    // The key reached the API, and nothing else.
    const headers = fake.requests[0]?.headers ?? {};
    expect(headers['x-api-key'] ?? headers.authorization).toMatch(new RegExp(`^(Bearer )?${TEST_API_KEY}$`));
    const logs = await harness.call<{ entries: LogEntry[] }>('logs.query', {});
    expect(JSON.stringify(harness.events)).not.toContain('KEYSECRET');
    expect(JSON.stringify(logs)).not.toContain('KEYSECRET');

    expect(await harness.call('chat.rename', { id: conversation.id, title: 'Greetings' })).toMatchObject({
      id: conversation.id,
      title: 'Greetings',
      messageCount: 2,
    });
    await harness.host.shutdown();
    harness = await world.restart();
    const after = await harness.call<ConversationSummary[]>('chat.list', {});
    expect(after).toEqual([expect.objectContaining({ id: conversation.id, title: 'Greetings', messageCount: 2 })]);
    expect((await harness.call<Conversation>('chat.get', { id: conversation.id })).messages).toEqual(saved.messages);
    expect((await harness.call<SettingsView>('settings.get', {})).apiKey).toEqual({ source: 'stored', hint: '…7f3a' });

    expect(await harness.call('chat.delete', { id: conversation.id })).toEqual({ deleted: conversation.id });
    expect(await harness.call('chat.list', {})).toEqual([]);
    expect(await harness.host.dispatch('chat.get', { id: conversation.id })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
    expect(await harness.call('chat.restore', { id: conversation.id })).toMatchObject({ id: conversation.id });
    expect(await harness.host.dispatch('chat.create', { model: 'gpt-unknown' })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
    });
  });
});

describe('host chat: tool calls need a yes', () => {
  it('asks, runs edited arguments, passes a denial on, remembers "always", and prompts again once revoked', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addEverything(harness);
    const { id } = await newConversation(harness);
    const tools = await harness.call<{
      tools: Array<{ server: string; tool: string; enabled: boolean }>;
      offeredCount: number;
    }>('chat.tools', { id });
    expect(tools.tools).toContainEqual(expect.objectContaining({ server: 'everything', tool: 'echo', enabled: true }));
    expect(tools.offeredCount).toBe(tools.tools.length);

    // 1. Allow once, with edited arguments.
    fake.script([
      { toolUses: [{ name: 'everything__echo', input: { message: 'first' } }] },
      { text: 'Done: {{lastToolResult}}' },
    ]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Echo something' });
    const prompt = await pendingAfter(harness, mark, 'tool-call');
    expect(prompt).toMatchObject({ server: 'everything', conversationId: id, toolUseId: expect.any(String) });
    expect(prompt.payload).toMatchObject({
      tool: 'echo',
      arguments: { message: 'first' },
      annotationsTrusted: false,
      description: expect.any(String),
    });
    expect(await harness.call('pending.list', {})).toEqual([prompt]);
    expect(
      await harness.host.dispatch('pending.answer', { id: prompt.id, response: { decision: 'maybe' } }),
    ).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(
      await harness.host.dispatch('pending.answer', { id: 'no-such-request', response: { decision: 'deny' } }),
    ).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      hostMessage: { code: 'consent-errors.pending-not-found', params: { id: 'no-such-request' } },
    });
    expect(
      await harness.call('pending.answer', {
        id: prompt.id,
        response: { decision: 'allow-once', arguments: { message: 'edited' } },
      }),
    ).toEqual({ answered: prompt.id });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    expect(toolResultTexts(fake, 1)).toContain('Echo: edited');
    expect(await harness.call('pending.list', {})).toEqual([]);

    // 2. Deny with a reason: the model is told, the tool never runs.
    fake.script([{ toolUses: [{ name: 'everything__echo', input: { message: 'second' } }] }, { text: 'Understood.' }]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Again' });
    const denied = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: denied.id, response: { decision: 'deny', reason: 'not right now' } });
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 3)).toContain('not right now');
    expect(toolResultTexts(fake, 3)).not.toContain('Echo: second');

    // 3. Always allow this tool: the next call runs without a prompt.
    fake.script([
      { toolUses: [{ name: 'everything__echo', input: { message: 'third' } }] },
      { text: 'ok' },
      { toolUses: [{ name: 'everything__echo', input: { message: 'fourth' } }] },
      { text: 'ok again' },
    ]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Third' });
    const always = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: always.id, response: { decision: 'always-tool' } });
    await turnEndAfter(harness, mark, id);
    const policies = await harness.call<ConsentPolicy[]>('consent.policies', {});
    expect(policies).toEqual([expect.objectContaining({ scope: 'tool', server: 'everything', tool: 'echo' })]);
    await eventAfter(harness, mark, 'consent.policiesChanged', (payload) => payload.policies.length === 1);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Fourth' });
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 7)).toContain('Echo: fourth');
    expect(harness.events.slice(mark).some((event) => event.topic === 'pending.changed')).toBe(false);

    // 4. Revoked: prompts again.
    expect(await harness.call('consent.revoke', { id: policies[0]?.id })).toEqual({ revoked: policies[0]?.id });
    expect(await harness.call('consent.policies', {})).toEqual([]);
    fake.script([{ toolUses: [{ name: 'everything__echo', input: { message: 'fifth' } }] }, { text: 'fine' }]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Fifth' });
    const again = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: again.id, response: { decision: 'allow-once' } });
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 9)).toContain('Echo: fifth');

    const audit = await harness.call<{ entries: AuditEntry[]; unreadableLines: number }>('consent.audit', {
      limit: 50,
    });
    expect(audit.unreadableLines).toBe(0);
    expect(audit.entries.map((entry) => entry.decision)).toEqual([
      'allow-once',
      'always-tool',
      'always-tool',
      'deny',
      'allow-once',
    ]);
    expect(audit.entries[1]?.decidedBy).toBe(`policy:${policies[0]?.id}`);
    expect(audit.entries[4]).toMatchObject({
      server: 'everything',
      tool: 'echo',
      conversationId: id,
      edited: true,
      decidedBy: 'person',
    });
  });

  it('a prompt still open when the turn is stopped is withdrawn and the call denied', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addEverything(harness);
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [{ name: 'everything__echo', input: { message: 'x' } }] }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'go' });
    const prompt = await pendingAfter(harness, mark, 'tool-call');
    expect(await harness.call('chat.stop', { id })).toEqual({ stopped: true });
    const withdrawn = await eventAfter(
      harness,
      mark,
      'pending.changed',
      ({ change }) => change.type === 'withdrawn' && change.id === prompt.id,
    );
    expect(withdrawn.counts.total).toBe(0);
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished', stopReason: 'stopped' });
    expect(await harness.call('chat.stop', { id })).toEqual({ stopped: false });
  });
});
