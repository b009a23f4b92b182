import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/generators/real-tool-corpus';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { conversationUsage, promptTokens } from '../../shared/domain/chat-usage';
import { OpenAiCompatibleClient } from '../providers/openai-compatible';
import { ChatEngine } from './chat-engine';
import { ChatEventLog, ScriptedGate } from './chat-test-support';
import { ConversationStore } from './conversation-store';
import { buildSystemPrompt } from './system-prompt';

// OpenAI-compatible providers cache a prompt's beginning on their own when it is byte-identical to
// a recent one's: every request of a conversation must start with the previous request, unchanged
// (the same tools in the same order, the same system prompt, the earlier messages as they were).

const MODEL = 'gpt-test';
const TOOLS = generateCorpus(40).map(({ server, tool }) => ({ server, tool }));

describe('an OpenAI-compatible conversation keeps its prompt prefix byte-stable', () => {
  let dir: string;
  let fake: FakeOpenAi;
  let store: ConversationStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-openai-prefix-'));
    fake = await FakeOpenAi.start({ models: [MODEL] });
    store = await ConversationStore.open({ dir });
  });
  afterEach(async () => {
    await fake.close();
    await store.flushIndex();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends each request as the previous one plus what came after it, so the provider reads the rest from its cache', async () => {
    const chat = new ChatEngine({
      provider: new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => TOOLS,
      system: (offered) =>
        buildSystemPrompt(offered.map((server) => ({ server, instructions: `Use ${server} for its workspace.` }))),
      gate: new ScriptedGate(),
      runner: { callTool: async (_server, tool) => ({ content: [{ type: 'text', text: `${tool} done` }] }) },
      onEvent: new ChatEventLog().onEvent,
    });
    const conversation = await store.create({ model: MODEL });
    for (let turn = 0; turn < 3; turn += 1) {
      fake.script([
        (request) => ({ toolUses: [{ name: request.body?.tools?.[turn]?.function.name ?? '', input: { turn } }] }),
        { text: `Done with turn ${turn + 1}.` },
      ]);
      await (
        await chat.send(conversation.id, `Run tool ${turn + 1}.`)
      ).done;
    }
    const bodies = fake.requests.map((request) => request.body);
    expect(bodies).toHaveLength(6);
    for (let index = 1; index < bodies.length; index += 1) {
      const before = bodies[index - 1];
      const after = bodies[index];
      expect(JSON.stringify(after?.tools)).toBe(JSON.stringify(before?.tools));
      const earlier = (before?.messages ?? []).map((message) => JSON.stringify(message));
      const now = (after?.messages ?? []).map((message) => JSON.stringify(message));
      expect(now.length).toBeGreaterThan(earlier.length);
      expect(now.slice(0, earlier.length)).toEqual(earlier);
    }
    // The fake's automatic cache (e2e/fake-llm/openai-prompt-cache.ts) then serves most of each prompt.
    const total = conversationUsage((await store.get(conversation.id)).messages);
    expect((total?.cacheReadTokens ?? 0) / promptTokens(total ?? { inputTokens: 1, outputTokens: 0 })).toBeGreaterThan(
      0.7,
    );
  });
});
