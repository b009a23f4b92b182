import { afterEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/domain/chat';
import { messageText } from '../../shared/domain/chat';
import { DEFAULT_FAKE_ANTHROPIC_MODELS } from '../../e2e/fake-llm/fake-anthropic-models';
import { startChatWorld, TEST_API_KEY, turnEndAfter } from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

// A real host and the fake Messages API that refuses a model the account lacks (404, as the API does): Retry
// after the person picks another model goes to the model they picked.

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const REFUSED = 'claude-haiku-4-5';
const PICKED = 'claude-sonnet-5';

describe('host: retries that do what the person means', () => {
  it('Retry after a 404 and a switch of model sends the model picked since, and the reply arrives', async () => {
    world = await startChatWorld({
      fake: { refuseUnlistedModels: true, models: DEFAULT_FAKE_ANTHROPIC_MODELS.filter((m) => m.id !== REFUSED) },
    });
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    const { id } = await harness.call<Conversation>('chat.create', { model: REFUSED });
    fake.script([{ text: 'Hello from the model you picked.' }]);

    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Hello?' });
    const failed = await turnEndAfter(harness, mark, id);
    expect(failed).toMatchObject({ type: 'turn-failed', hostMessage: { code: 'chat-error.api-model-not-found' } });
    expect(fake.requests.at(-1)?.body?.model).toBe(REFUSED);

    const switched = await harness.call<Conversation>('chat.setModel', { id, model: PICKED });
    expect(switched.model).toBe(PICKED);
    mark = harness.events.length;
    await harness.call('chat.retry', { id });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished', stopReason: 'end_turn' });
    expect(fake.requests.at(-1)?.body?.model).toBe(PICKED);
    const after = await harness.call<Conversation>('chat.get', { id });
    expect(after.model).toBe(PICKED);
    expect(after.messages.map((m) => [m.role, messageText(m)])).toEqual([
      ['user', 'Hello?'],
      ['assistant', 'Hello from the model you picked.'],
    ]);
  });

  it('a failed message stays its own message, marked with its reason after a restart; the next one is sent alone', async () => {
    world = await startChatWorld({
      fake: { refuseUnlistedModels: true, models: DEFAULT_FAKE_ANTHROPIC_MODELS.filter((m) => m.id !== REFUSED) },
    });
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    const { id } = await harness.call<Conversation>('chat.create', { model: REFUSED });
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'First, refused' });
    const failed = await turnEndAfter(harness, mark, id);
    const first = (await harness.call<Conversation>('chat.get', { id })).messages[0];
    expect(failed).toMatchObject({ type: 'turn-failed', failedMessageId: first?.id });
    expect(first?.failed).toEqual({
      reason: failed.type === 'turn-failed' ? failed.message : '',
      reasonMessage: expect.objectContaining({ code: 'chat-error.api-model-not-found' }),
    });

    await harness.host.shutdown();
    const again = await world.restart();
    const reloaded = await again.call<Conversation>('chat.get', { id });
    expect(reloaded.messages[0]?.failed?.reasonMessage?.code).toBe('chat-error.api-model-not-found');

    await again.call('chat.setModel', { id, model: PICKED });
    fake.script([{ text: 'Answer to the second.' }, { text: 'Answer to the first.' }]);
    mark = again.events.length;
    await again.call('chat.send', { id, text: 'Second' });
    expect(await turnEndAfter(again, mark, id)).toMatchObject({ type: 'turn-finished' });
    // The API needs alternating roles: the failed message is left out, not glued to the new one.
    expect(fake.requests.at(-1)?.body?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Second' }] },
    ]);
    const after = await again.call<Conversation>('chat.get', { id });
    expect(after.messages.map((m) => [messageText(m), m.failed !== undefined])).toEqual([
      ['First, refused', true],
      ['Second', false],
      ['Answer to the second.', false],
    ]);

    // Retry on the failed message sends it again as the newest, with the conversation before it.
    mark = again.events.length;
    await again.call('chat.retry', { id, messageId: first?.id });
    expect(await turnEndAfter(again, mark, id)).toMatchObject({ type: 'turn-finished' });
    const sent = fake.requests.at(-1)?.body?.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent.at(-1))).toContain('First, refused');
    const retried = await again.call<Conversation>('chat.get', { id });
    expect(retried.messages.map((m) => [messageText(m), m.failed !== undefined])).toEqual([
      ['Second', false],
      ['Answer to the second.', false],
      ['First, refused', false],
      ['Answer to the first.', false],
    ]);
  });

  it('Discard takes a failed message out and Undo puts it back where it was; a message with a reply is refused', async () => {
    world = await startChatWorld({
      fake: { refuseUnlistedModels: true, models: DEFAULT_FAKE_ANTHROPIC_MODELS.filter((m) => m.id !== REFUSED) },
    });
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    const { id } = await harness.call<Conversation>('chat.create', { model: PICKED });
    fake.script([{ text: 'Fine.' }]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Hello' });
    await turnEndAfter(harness, mark, id);
    await harness.call('chat.setModel', { id, model: REFUSED });
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Refused one' });
    await turnEndAfter(harness, mark, id);
    const before = await harness.call<Conversation>('chat.get', { id });
    const [hello, , refused] = before.messages;
    await expect(harness.call('chat.discardFailed', { id, messageId: hello?.id })).rejects.toThrow(
      /INVALID_INPUT: Only a message that got no reply/,
    );
    const discarded = await harness.call<Conversation>('chat.discardFailed', { id, messageId: refused?.id });
    expect(discarded.messages.map(messageText)).toEqual(['Hello', 'Fine.']);
    const restored = await harness.call<Conversation>('chat.restoreFailed', { id, messageId: refused?.id });
    expect(restored.messages).toEqual(before.messages);
    await expect(harness.call('chat.restoreFailed', { id, messageId: refused?.id })).rejects.toThrow(/NOT_FOUND/);
  });

  it('refuses a model that is not in the configured list with a clear error, and keeps the conversation’s', async () => {
    world = await startChatWorld();
    const { harness } = world;
    const { id } = await harness.call<Conversation>('chat.create', { model: PICKED });
    await expect(harness.call('chat.setModel', { id, model: 'gpt-nothing' })).rejects.toThrow(
      /INVALID_INPUT: Unknown model 'gpt-nothing': choose one of/,
    );
    expect((await harness.call<Conversation>('chat.get', { id })).model).toBe(PICKED);
  });
});
