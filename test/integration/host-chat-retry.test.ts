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
