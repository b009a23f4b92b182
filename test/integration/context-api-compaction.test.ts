import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../e2e/fake-llm/fake-anthropic';
import type { ContextFill } from '../../shared/contract/chat';
import type { ProvidersView } from '../../shared/contract/providers';
import type { ChatEvent, ChatMessage, Conversation } from '../../shared/domain/chat';
import { promptTokens } from '../../shared/domain/chat-usage';
import { startChatWorld, TEST_API_KEY, turnEndAfter } from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

// A conversation on a model whose listing says Anthropic manages its context (server-side compaction), driven
// past the trigger with the real host against the fake Messages API: the API compacts, the chat shows it as
// its own compaction, and the requests after it begin with the compaction block instead of what it summarised.

const MODEL = 'claude-sonnet-5';
const WINDOW = 80_000;
/** 3/4 of the room (window less the host's max_tokens of 4,096): app/chat/context/api-compaction.ts. */
const TRIGGER = Math.floor((WINDOW - 4_096) * 0.75);

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** About `tokens` tokens, by the fake's count and Berth's estimate alike (one per three-letter word). */
const words = (word: string, tokens: number): string => `${word} `.repeat(tokens).trim();

type Block = Record<string, unknown>;
const firstMessage = (request: RecordedRequest | undefined) => request?.body?.messages[0];
const blocks = (message: { content: unknown } | undefined): Block[] =>
  Array.isArray(message?.content) ? (message.content as Block[]) : [];

async function compactedWorld() {
  world = await startChatWorld({ fake: { contextWindow: WINDOW } });
  const { harness, fake } = world;
  await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  // The listing says the model compacts (fake-anthropic-models.ts): Settings keeps it with the model.
  const { models } = await harness.call<{ models: unknown[] }>('providers.listModels', { id: 'anthropic' });
  await harness.call<ProvidersView>('providers.update', { id: 'anthropic', changes: { models } });
  const { id } = await harness.call<Conversation>('chat.create', { model: MODEL });
  fake.script([{ text: 'Noted the first.' }, { text: 'Noted the second.' }, { text: 'Noted the third.' }]);
  const send = async (text: string) => {
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text });
    const end = await turnEndAfter(harness, mark, id);
    const notices = harness.events
      .slice(mark)
      .flatMap((event) =>
        event.topic === 'chat.event' && (event.payload as ChatEvent).type === 'turn-notice'
          ? [(event.payload as Extract<ChatEvent, { type: 'turn-notice' }>).message]
          : [],
      );
    return { end, notices };
  };
  // A message stays under 100,000 characters: three of ~20k tokens pass the trigger on the third request.
  await send(`First: ${words('abc', 20_000)}`);
  await send(`Second: ${words('xyz', 20_000)}`);
  const third = await send(`Third: ${words('uvw', 20_000)}`);
  return { harness, fake, id, send, third };
}

describe("Anthropic's own context management", () => {
  it('compacts past the trigger, shows it as a compaction, and the requests after it carry the block, not what it summarised', async () => {
    const { harness, fake, id, send, third } = await compactedWorld();
    expect(third.end).toMatchObject({ type: 'turn-finished' });
    // Asked for on every request of the conversation, with the trigger below the point where Berth would act.
    for (const request of fake.requests) {
      expect(request.headers['anthropic-beta']).toContain('compact-2026-01-12');
      expect(request.body).toMatchObject({
        context_management: {
          edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: TRIGGER } }],
        },
      });
    }
    expect(third.notices.some((notice) => notice.includes('Anthropic compacted its 5 oldest messages'))).toBe(true);

    const saved = await harness.call<Conversation>('chat.get', { id });
    const cut = saved.contextCut;
    expect(cut).toMatchObject({
      kind: 'compact',
      model: MODEL,
      messageCount: 5,
      summary: expect.stringContaining('Summary of the conversation so far'),
      api: { signature: expect.any(String), encryptedContent: expect.any(String) },
    });
    // The cut is after the person's third message: every message stays saved, the reply is after the cut.
    expect(cut?.throughMessageId).toBe(saved.messages[4]?.id);
    expect(saved.messages).toHaveLength(6);
    expect(cut?.tokensBefore).toBeGreaterThan(TRIGGER);
    expect(cut?.tokensAfter).toBeLessThan(2_000);

    fake.script([{ text: 'Fourth answered.' }, { text: 'Fifth answered.' }]);
    await send('Fourth question');
    await send('Fifth question');
    expect(fake.requests).toHaveLength(5);
    for (const request of fake.requests.slice(3)) {
      // The block first, as it came; then the reply it began and the turns after it.
      const first = firstMessage(request);
      expect(first?.role).toBe('assistant');
      expect(blocks(first)).toEqual([
        {
          type: 'compaction',
          content: cut?.summary,
          signature: cut?.api?.signature,
          encrypted_content: cut?.api?.encryptedContent,
        },
        { type: 'text', text: 'Noted the third.' },
      ]);
      // What the block summarised is not sent again (nor billed).
      expect(JSON.stringify(request.body?.messages)).not.toContain(words('abc', 100));
      expect(JSON.stringify(request.body?.messages).length).toBeLessThan(1_500);
    }
    const after = await harness.call<Conversation>('chat.get', { id });
    const billed = after.messages
      .slice(6)
      .filter(
        (message): message is ChatMessage & { usage: NonNullable<ChatMessage['usage']> } => message.usage !== undefined,
      )
      .map((message) => promptTokens(message.usage));
    expect(billed).toHaveLength(2);
    for (const tokens of billed) expect(tokens).toBeLessThan(2_000);
    // The meter agrees: the window is nearly empty again.
    const fill = await harness.call<ContextFill>('chat.context', { id });
    expect(fill.tokens).toBeLessThan(5_000);
    expect(fill.cut?.api).toBeDefined();
    expect(fill.providerCompactsAt).toBe(TRIGGER);
  });

  it('when the API refuses the block it gave (it no longer vouches for it), Berth says so and goes on with the summary as text', async () => {
    const { harness, fake, id, send } = await compactedWorld();
    const summary = (await harness.call<Conversation>('chat.get', { id })).contextCut?.summary ?? '';
    fake.compactions.forget();
    fake.script([{ text: 'Fourth answered.' }, { text: 'Fifth answered.' }]);
    const fourth = await send('Fourth question');
    expect(fourth.end).toMatchObject({ type: 'turn-finished' });
    expect(fourth.notices.some((notice) => notice.includes('`signature` does not verify'))).toBe(true);
    expect(fourth.notices.some((notice) => notice.includes('manages this conversation'))).toBe(true);
    // The refused request, then the same turn without the API's context management: the summary as Berth's preface.
    expect(fake.requests).toHaveLength(5);
    const retried = fake.requests[4];
    expect(retried?.body).not.toHaveProperty('context_management');
    expect(firstMessage(retried)?.role).toBe('user');
    expect(JSON.stringify(blocks(firstMessage(retried))[0])).toContain(JSON.stringify(summary).slice(1, 40));
    expect(JSON.stringify(retried?.body?.messages)).not.toContain('"compaction"');
    // The summary stays, as Berth's own: the refused block is not sent again, in this run or the next.
    const kept = (await harness.call<Conversation>('chat.get', { id })).contextCut;
    expect(kept).toMatchObject({ kind: 'compact', summary });
    expect(kept?.api).toBeUndefined();
    // And from then on in this conversation.
    await send('Fifth question');
    expect(fake.requests[5]?.body).not.toHaveProperty('context_management');
  });
});
