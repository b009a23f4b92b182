import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent, Conversation } from '../../shared/domain/chat';
import { messageText } from '../../shared/domain/chat';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { eventAfter, startChatWorld, TEST_API_KEY, turnEndAfter } from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import type { HostHarness } from './host-harness';

// A real host and the fake Messages API answering busy (429 with retry-after, 529 overloaded_error) or gone (the
// server stopped, then started again on the same port): the turn waits, tells each wait, and asks again.

let world: ChatWorld | undefined;
let restarted: FakeAnthropic | undefined;
afterEach(async () => {
  await world?.close();
  await restarted?.close();
  world = undefined;
  restarted = undefined;
});

type Waiting = Extract<ChatEvent, { type: 'turn-waiting' }>;

function chatEvents<T extends ChatEvent['type']>(
  harness: HostHarness,
  from: number,
  type: T,
): Array<Extract<ChatEvent, { type: T }>> {
  return harness.events
    .slice(from)
    .flatMap((event) =>
      event.topic === 'chat.event' && (event.payload as ChatEvent).type === type
        ? [event.payload as Extract<ChatEvent, { type: T }>]
        : [],
    );
}

async function ready(
  options: Parameters<typeof startChatWorld>[0] = {},
): Promise<{ harness: HostHarness; id: string }> {
  world = await startChatWorld(options);
  await world.harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  const { id } = await world.harness.call<Conversation>('chat.create', {});
  return { harness: world.harness, id };
}

const waitingAfter = (harness: HostHarness, from: number, id: string): Promise<Waiting> =>
  eventAfter(
    harness,
    from,
    'chat.event',
    (event) => event.conversationId === id && event.type === 'turn-waiting',
  ) as Promise<Waiting>;

describe('host: rate limits and network drops never leave the person waiting in silence', () => {
  it('a 429 with retry-after: turn-waiting says until when and which attempt, then the reply arrives', async () => {
    const { harness, id } = await ready();
    world!.fake.script([{ text: 'Here after the wait.', busy: { times: 1, status: 429, retryAfter: 1 } }]);
    const mark = harness.events.length;
    const sent = Date.now();
    await harness.call('chat.send', { id, text: 'Hello?' });
    const end = await turnEndAfter(harness, mark, id);
    expect(end).toMatchObject({ type: 'turn-finished', stopReason: 'end_turn' });
    const [wait, ...more] = chatEvents(harness, mark, 'turn-waiting');
    expect(more).toEqual([]);
    expect(wait).toMatchObject({
      reason: 'rate-limit',
      attempt: 2,
      maxAttempts: 5,
      cause: { code: 'chat-error.api-rate-limited', params: { status: 429, retryAfter: 1 } },
    });
    expect(wait?.until).toBeGreaterThanOrEqual(sent + 1000);
    expect(wait?.until).toBeLessThan(sent + 10_000);
    expect(chatEvents(harness, mark, 'turn-resumed')).toHaveLength(1);
    // The second request came after the wait, not before.
    expect(world!.fake.requests).toHaveLength(2);
    const conversation = await harness.call<Conversation>('chat.get', { id });
    expect(conversation.messages.map((message) => [message.role, messageText(message)])).toEqual([
      ['user', 'Hello?'],
      ['assistant', 'Here after the wait.'],
    ]);
  });

  it('529 overloaded past the bound: the waits stop and the message is marked failed with its coded reason', async () => {
    const { harness, id } = await ready({ chatRetries: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 40 } });
    world!.fake.script([{ text: 'Never.', busy: { times: 10, status: 529 } }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Are you there?' });
    const end = await turnEndAfter(harness, mark, id);
    expect(end).toMatchObject({ type: 'turn-failed', hostMessage: { code: 'chat-error.api-overloaded' } });
    expect(chatEvents(harness, mark, 'turn-waiting').map((wait) => [wait.reason, wait.attempt])).toEqual([
      ['overloaded', 2],
      ['overloaded', 3],
    ]);
    expect(world!.fake.requests).toHaveLength(3);
    const [person] = (await harness.call<Conversation>('chat.get', { id })).messages;
    expect(end.type === 'turn-failed' ? end.failedMessageId : undefined).toBe(person?.id);
    expect(person?.failed?.reasonMessage?.code).toBe('chat-error.api-overloaded');
  });

  it('Stop during the wait ends the turn at once; nothing more is asked', async () => {
    const { harness, id } = await ready();
    world!.fake.script([{ text: 'Never.', busy: { times: 1, status: 429, retryAfter: 60 } }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Hello?' });
    await waitingAfter(harness, mark, id);
    const stopping = Date.now();
    expect(await harness.call('chat.stop', { id })).toEqual({ stopped: true });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished', stopReason: 'stopped' });
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(world!.fake.requests).toHaveLength(1);
    // The person's message stays, neither answered nor marked failed: they stopped it.
    const [person, ...rest] = (await harness.call<Conversation>('chat.get', { id })).messages;
    expect(rest).toEqual([]);
    expect(person?.failed).toBeUndefined();
  });

  it('Retry now ends a 60 s wait and the reply arrives', async () => {
    const { harness, id } = await ready();
    world!.fake.script([{ text: 'Asked again at once.', busy: { times: 1, status: 429, retryAfter: 60 } }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Hello?' });
    await waitingAfter(harness, mark, id);
    expect(await harness.call('chat.retryNow', { id })).toEqual({ retrying: true });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished', stopReason: 'end_turn' });
    expect(await harness.call('chat.retryNow', { id })).toEqual({ retrying: false });
  });

  it('the network drops (the server stops): the turn waits, and asks again when the server is back on its port', async () => {
    const { harness, id } = await ready({ chatRetries: { probeBaseMs: 50, probeMaxMs: 100 } });
    const port = Number(new URL(world!.fake.url).port);
    await world!.fake.close();
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Still there?' });
    const wait = await waitingAfter(harness, mark, id);
    expect(wait).toMatchObject({ reason: 'network', cause: { code: 'chat-error.api-refused' } });
    expect(wait.until).toBeUndefined();
    expect(wait.giveUpAt).toBeGreaterThan(Date.now() + 60_000);
    restarted = await FakeAnthropic.start({ apiKey: TEST_API_KEY, port });
    restarted.script([{ text: 'Back online.' }]);
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished', stopReason: 'end_turn' });
    const conversation = await harness.call<Conversation>('chat.get', { id });
    expect(conversation.messages.map(messageText)).toEqual(['Still there?', 'Back online.']);
  });
});
