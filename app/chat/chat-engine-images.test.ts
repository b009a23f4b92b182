import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { OpenAiCompatibleClient } from '../providers/openai-compatible';
import { ChatEngine } from './chat-engine';
import type { ChatEngineOptions } from './chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, openChatStore } from './chat-test-support';
import { ConversationStore } from './conversation-store';
import { imageOmittedNote } from '../providers/image-omission';

// Images where the model takes them: a whole turn through the OpenAI-compatible
// client and the fake server, which refuses images for a text-only model as
// LM Studio does. A person's attachment and an image a tool returned.

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const TEXT_ONLY = 'qwen3:4b';
const VISION = 'llava:7b';

describe('ChatEngine: images only to models that take them', () => {
  let dir: string;
  let fake: FakeOpenAi;
  let store: ConversationStore;
  let log: ChatEventLog;

  beforeEach(async () => {
    fake = await FakeOpenAi.start({ models: [TEXT_ONLY, VISION], modelsWithoutImages: [TEXT_ONLY] });
    ({ dir, store, log } = await openChatStore('berth-chat-images-'));
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore({ dir, store });
  });

  function engine(overrides: Partial<ChatEngineOptions> = {}): ChatEngine {
    return new ChatEngine({
      provider: new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => [{ server: 'pics', tool: { name: 'snap', inputSchema: { type: 'object' } } }],
      gate: new ScriptedGate(),
      runner: {
        callTool: async () => ({
          content: [
            { type: 'text', text: 'Here it is.' },
            { type: 'image', data: PNG, mimeType: 'image/png' },
          ],
        }),
      },
      onEvent: log.onEvent,
      modelName: (model) => (model === TEXT_ONLY ? 'Qwen 3 4B' : model),
      ...overrides,
    });
  }

  const attachment = { label: 'photo.png', content: { type: 'image' as const, data: PNG, mimeType: 'image/png' } };
  const imageParts = (index: number) =>
    JSON.stringify(fake.requests[index]?.body?.messages ?? []).split('"type":"image_url"').length - 1;

  it('a model marked as taking no images gets a note in place of each one (attachment and tool result), and the person one notice per turn', async () => {
    fake.script([{ toolUses: [{ name: 'pics__snap', input: {} }] }, { text: 'I cannot see it.' }]);
    const conversation = await store.create({ model: TEXT_ONLY });
    const handle = await engine({ takesImages: (model) => model !== TEXT_ONLY }).send(
      conversation.id,
      'What is in this picture?',
      { attachments: [attachment] },
    );
    expect(await handle.done).toEqual({ status: 'finished', stopReason: 'end_turn' });

    expect(fake.requests).toHaveLength(2);
    expect([imageParts(0), imageParts(1)]).toEqual([0, 0]);
    const note = imageOmittedNote('Qwen 3 4B');
    expect(note).toBe('[image omitted: Qwen 3 4B does not take images]');
    expect(fake.requests[0]?.body?.messages[0]).toEqual({
      role: 'user',
      content: `Attached: photo.png\n\n${note}\n\nWhat is in this picture?`,
    });
    expect(fake.requests[1]?.body?.messages.find((message) => message.role === 'tool')?.content).toBe(
      `Here it is.\n\n${note}`,
    );
    expect(log.of('turn-notice').map((event) => event.message)).toEqual([
      'Qwen 3 4B does not take images, so an image in this conversation was not sent to it (it reads a note in its place). Pick another model in the message box, or turn on “takes images” for this model in Settings → Model providers.',
    ]);
    // The conversation keeps the images: another model can see them later.
    const saved = await store.get(conversation.id);
    expect(JSON.stringify(saved.messages)).toContain(PNG);
  });

  it('a model that refuses images (not marked) is asked once more with notes, and the person is told', async () => {
    fake.script([{ text: 'A note where the picture was.' }]);
    const conversation = await store.create({ model: TEXT_ONLY });
    const handle = await engine().send(conversation.id, 'Look', { attachments: [attachment] });
    expect(await handle.done).toEqual({ status: 'finished', stopReason: 'end_turn' });
    expect(fake.requests).toHaveLength(2);
    expect([imageParts(0), imageParts(1)]).toEqual([1, 0]);
    expect(log.of('turn-notice')).toHaveLength(1);
    expect(log.text()).toBe('A note where the picture was.');
  });

  it('a model that takes images gets them as they are, with no notice', async () => {
    fake.script([{ text: 'A red pixel.' }]);
    const conversation = await store.create({ model: VISION });
    await (
      await engine({ takesImages: (model) => model !== TEXT_ONLY }).send(conversation.id, 'Look', {
        attachments: [attachment],
      })
    ).done;
    expect(fake.requests).toHaveLength(1);
    expect(imageParts(0)).toBe(1);
    expect(log.of('turn-notice')).toEqual([]);
  });
});
