import { afterEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/domain/chat';
import type { ProvidersView } from '../../shared/contract/providers';
import type { SettingsView } from '../../shared/contract/settings';
import { startChatWorld, TEST_API_KEY, turnEndAfter } from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

// What a model can do comes from the provider's model listing first, then Berth's id table: models
// whose listing disagrees with the table are asked (or not) for thinking as the listing says.

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const QUILL = 'claude-3-quill-20270101';
const LUMEN = 'claude-lumen-6';

describe("models as Anthropic's listing describes them", () => {
  it('a model only the listing says thinks gets the reasoning control and thinks; one it says does not, neither', async () => {
    world = await startChatWorld({
      fake: {
        models: [
          // The table says a Claude 3 does not think and an unknown newer Claude thinks adaptively.
          { id: QUILL, display_name: 'Claude Quill', created_at: '2027-01-01T00:00:00Z', thinking: 'adaptive' },
          { id: LUMEN, display_name: 'Claude Lumen 6', created_at: '2026-12-01T00:00:00Z', thinking: 'none' },
        ],
      },
    });
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    const { models } = await harness.call<{ models: Array<Record<string, unknown>> }>('providers.listModels', {
      id: 'anthropic',
    });
    await harness.call<ProvidersView>('providers.update', { id: 'anthropic', changes: { models } });
    const view = await harness.call<SettingsView>('settings.get', {});
    expect(view.models.map((m) => [m.id, m.reasoning])).toEqual([
      [QUILL, 'adaptive'],
      [LUMEN, 'none'],
    ]);

    fake.script([{ thinking: 'Short thought.', text: 'Quill here.' }, { text: 'Lumen here.' }]);
    for (const model of [QUILL, LUMEN]) {
      const conversation = await harness.call<Conversation>('chat.create', { model });
      await harness.call<Conversation>('chat.setReasoning', { id: conversation.id, level: 'medium' });
      const mark = harness.events.length;
      await harness.call('chat.send', { id: conversation.id, text: 'Hello' });
      expect(await turnEndAfter(harness, mark, conversation.id)).toMatchObject({ type: 'turn-finished' });
    }
    expect(fake.requests[0]?.body).toMatchObject({
      model: QUILL,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'medium' },
    });
    expect(fake.requests[1]?.body?.model).toBe(LUMEN);
    expect(fake.requests[1]?.body).not.toHaveProperty('thinking');
    expect(fake.requests[1]?.body).not.toHaveProperty('output_config');
  });
});
