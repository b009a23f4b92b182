import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { ChatEngine } from '../../app/chat/chat-engine';
import type { AvailableTool } from '../../app/chat/chat-engine';
import { ChatEventLog, ScriptedGate } from '../../app/chat/chat-test-support';
import { ConversationStore } from '../../app/chat/conversation-store';
import { OpenAiCompatibleClient } from '../../app/providers/openai-compatible';
import { reasoningRequest, reasoningSupport } from '../../shared/domain/reasoning';
import type { ReasoningLevel } from '../../shared/domain/reasoning';

// OpenAI-compatible reasoning through the chat engine and the real client: `reasoning_effort` in,
// `reasoning_content` / `reasoning` deltas or a leading `<think>` out, kept as the reply's thinking
// block and never sent back (the fake refuses `reasoning_content` in the input, as DeepSeek does).

const search: AvailableTool = {
  server: 'web',
  tool: { name: 'search', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
};

describe('OpenAI-compatible reasoning through the chat engine', () => {
  let dir: string;
  let fake: FakeOpenAi;
  let store: ConversationStore;
  let log: ChatEventLog;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-openai-reasoning-'));
    fake = await FakeOpenAi.start({ models: ['gpt-5', 'llama3.1:8b'] });
    store = await ConversationStore.open({ dir });
    log = new ChatEventLog();
  });
  afterEach(async () => {
    await fake.close();
    await store.flushIndex();
    await rm(dir, { recursive: true, force: true });
  });

  function engine(level: ReasoningLevel): ChatEngine {
    return new ChatEngine({
      provider: new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => [search],
      gate: new ScriptedGate(),
      runner: { callTool: async () => ({ content: [{ type: 'text', text: 'found it' }] }) },
      onEvent: log.onEvent,
      reasoning: (conversation) => reasoningRequest(level, reasoningSupport(conversation.model, false)),
    });
  }

  it('sends reasoning_effort, keeps the streamed reasoning_content as thinking, and never sends it back', async () => {
    fake.script([
      { reasoning: 'They want a search first.', toolUses: [{ name: 'web__search', input: { q: 'berth' } }] },
      { reasoning: 'The tool found it.', reasoningAs: 'reasoning', text: 'It was found.' },
    ]);
    const conversation = await store.create({ model: 'gpt-5' });
    const handle = await engine('high').send(conversation.id, 'Find berth');
    expect(await handle.done).toEqual({ status: 'finished', stopReason: 'end_turn' });

    expect(fake.requests[0]?.body).toMatchObject({ reasoning_effort: 'high' });
    const thinking = log.of('thinking-delta').map((event) => event.text);
    expect(thinking.join('')).toBe('They want a search first.The tool found it.');
    expect(log.text()).toBe('It was found.');
    // The follow-up has the call and its result, and nothing of the reasoning.
    expect(JSON.stringify(fake.requests[1]?.body?.messages)).not.toContain('They want a search first');
    const saved = await store.get(conversation.id);
    expect(saved.messages[1]?.content[0]).toMatchObject({ type: 'thinking', thinking: 'They want a search first.' });
    expect(saved.messages[1]?.content[0]).not.toHaveProperty('signature');
    expect(saved.messages[3]?.content).toMatchObject([
      { type: 'thinking', thinking: 'The tool found it.' },
      { type: 'text', text: 'It was found.' },
    ]);
    expect(saved.messages[3]?.usage?.reasoningTokens).toBeGreaterThan(0);
  });

  it('reads a local model’s leading <think> as its reasoning, without asking for any', async () => {
    fake.script([{ reasoning: 'Two and two make four.', reasoningAs: 'think-tag', text: 'It is 4.' }, { text: 'ok' }]);
    const conversation = await store.create({ model: 'llama3.1:8b' });
    const chat = engine('high');
    expect(await (await chat.send(conversation.id, '2+2?')).done).toMatchObject({ status: 'finished' });
    // Berth has no word on this model: it does not ask (most servers refuse the field), but shows what comes.
    expect(fake.requests[0]?.body).not.toHaveProperty('reasoning_effort');
    expect(log.text()).toBe('It is 4.');
    const saved = await store.get(conversation.id);
    expect(saved.messages[1]?.content).toEqual([
      { type: 'thinking', thinking: '\nTwo and two make four.\n', durationMs: expect.any(Number) },
      { type: 'text', text: 'It is 4.' },
    ]);
    await (
      await chat.send(conversation.id, 'thanks')
    ).done;
    expect(fake.requests[1]?.body?.messages[1]).toEqual({ role: 'assistant', content: 'It is 4.' });
  });

  it('asks for no reasoning when the conversation has it off', async () => {
    fake.script([{ reasoning: 'unasked', text: 'Plain.' }]);
    const conversation = await store.create({ model: 'gpt-5' });
    await (
      await engine('off').send(conversation.id, 'hi')
    ).done;
    expect(fake.requests[0]?.body).not.toHaveProperty('reasoning_effort');
    expect((await store.get(conversation.id)).messages[1]?.content).toEqual([{ type: 'text', text: 'Plain.' }]);
  });
});
