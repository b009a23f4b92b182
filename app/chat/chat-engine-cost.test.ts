import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { conversationUsage, estimateTokens, turnUsages } from '../../shared/domain/chat-usage';
import { ChatEngine } from './chat-engine';
import type { ChatEngineOptions } from './chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, offeredTool as tool, openChatStore } from './chat-test-support';
import { ConversationStore } from './conversation-store';
import { AnthropicProvider } from '../providers/llm-provider';

// What a turn sends besides the messages (the system prompt of the offered servers) and what it costs.

const MODEL = 'claude-test-1';

describe('ChatEngine: system prompt, usage and the tools’ share', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let store: ConversationStore;
  let log: ChatEventLog;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-unit' });
    ({ dir, store, log } = await openChatStore('berth-chat-cost-'));
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore({ dir, store });
  });

  function engine(overrides: Partial<ChatEngineOptions> = {}): ChatEngine {
    return new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => [tool('web', 'search'), tool('docs', 'lookup')],
      gate: new ScriptedGate(),
      runner: { callTool: async () => ({ content: [{ type: 'text', text: 'found' }] }) },
      onEvent: log.onEvent,
      ...overrides,
    });
  }

  it('asks for the system prompt with the servers whose tools the request offers, and sends none when it has nothing', async () => {
    const asked: Array<readonly string[]> = [];
    fake.script([{ text: 'one' }, { text: 'two' }]);
    const conversation = await store.create({ model: MODEL });
    await store.updateSettings(conversation.id, { disabledServers: ['web'], disabledTools: [] });
    const chat = engine({
      system: (servers) => {
        asked.push(servers);
        return servers.includes('docs') ? 'Use docs wisely.' : undefined;
      },
    });
    await (
      await chat.send(conversation.id, 'hi')
    ).done;
    expect(asked).toEqual([['docs']]);
    expect(fake.requests[0]?.body).toMatchObject({ system: 'Use docs wisely.' });

    await store.updateSettings(conversation.id, { disabledServers: ['web', 'docs'], disabledTools: [] });
    await (
      await chat.send(conversation.id, 'again')
    ).done;
    expect(asked[1]).toEqual([]);
    expect(fake.requests[1]?.body).not.toHaveProperty('system');
  });

  it('saves each request’s usage with the cache counts and the tools’ estimate, and sums the turn on turn-finished', async () => {
    fake.script([
      {
        toolUses: [{ name: 'web__search', input: { q: 'x' } }],
        usage: {
          input_tokens: 100,
          output_tokens: 20,
          cache_read_input_tokens: 1_000,
          cache_creation_input_tokens: 50,
        },
      },
      { text: 'done', usage: { input_tokens: 300, output_tokens: 7, cache_read_input_tokens: 1_000 } },
    ]);
    const conversation = await store.create({ model: MODEL });
    const chat = engine();
    await (
      await chat.send(conversation.id, 'search')
    ).done;

    // The definitions as Berth made them, without the cache breakpoint the provider adds to the last one.
    const sentTools = fake.requests[0]?.body?.tools?.map(({ cache_control: _mark, ...tool }) => tool);
    const toolTokens = estimateTokens(JSON.stringify(sentTools));
    expect(toolTokens).toBeGreaterThan(10);
    const replies = (await store.get(conversation.id)).messages.filter((message) => message.role === 'assistant');
    // As the API says: input outside the cache, the cache counts beside it.
    expect(replies.map((message) => message.usage)).toEqual([
      {
        inputTokens: 100,
        outputTokens: 20,
        cacheReadTokens: 1_000,
        cacheWriteTokens: 50,
        // Anthropic's cache prices: reads at 0.1× the input price save 900, writes at 1.25× cost 12.5 more.
        cacheSavedTokens: 888,
        toolTokensEstimate: toolTokens,
      },
      {
        inputTokens: 300,
        outputTokens: 7,
        cacheReadTokens: 1_000,
        cacheSavedTokens: 900,
        toolTokensEstimate: toolTokens,
      },
    ]);
    expect(log.of('turn-finished')[0]?.usage).toEqual({
      inputTokens: 400,
      outputTokens: 27,
      cacheReadTokens: 2_000,
      cacheWriteTokens: 50,
      cacheSavedTokens: 1_788,
      toolTokensEstimate: 2 * toolTokens,
      requests: 2,
    });
  });

  it('saves an empty answer (no text, no calls) with its usage, so the conversation’s total keeps it after a reopen, and never sends it back', async () => {
    fake.script([
      { toolUses: [{ name: 'web__search', input: { q: 'x' } }], usage: { input_tokens: 100, output_tokens: 20 } },
      { usage: { input_tokens: 130, output_tokens: 1 } },
      { text: 'second', usage: { input_tokens: 140, output_tokens: 2 } },
    ]);
    const conversation = await store.create({ model: MODEL });
    const chat = engine();
    await (
      await chat.send(conversation.id, 'search')
    ).done;
    const finished = log.of('turn-finished')[0];
    expect(finished).toMatchObject({
      stopReason: 'end_turn',
      usage: { inputTokens: 230, outputTokens: 21, requests: 2 },
    });
    const empty = log
      .of('message-saved')
      .map((event) => event.message)
      .at(-1);
    expect(empty).toMatchObject({
      role: 'assistant',
      content: [],
      stopReason: 'end_turn',
      usage: { inputTokens: 130, outputTokens: 1 },
    });

    await store.flushIndex();
    const reopened = await ConversationStore.open({ dir });
    const saved = (await reopened.get(conversation.id)).messages;
    expect(saved.at(-1)).toEqual(empty);
    // The turn's total as the chat shows it after a reload is the total the turn reported.
    expect(turnUsages(saved).get(empty?.id ?? '')).toEqual(finished?.usage);
    expect(conversationUsage(saved)).toEqual(finished?.usage);

    // The next request carries no empty assistant message (Anthropic refuses one).
    await (
      await chat.send(conversation.id, 'again')
    ).done;
    const messages = fake.requests[2]?.body?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(messages)).toContain('again');
  });

  it('leaves the tools’ estimate out when no tool is offered', async () => {
    fake.script([{ text: 'plain', usage: { input_tokens: 9, output_tokens: 3 } }]);
    const conversation = await store.create({ model: MODEL });
    await (
      await engine({ tools: () => [] }).send(conversation.id, 'hi')
    ).done;
    expect((await store.get(conversation.id)).messages[1]?.usage).toEqual({ inputTokens: 9, outputTokens: 3 });
  });

  it('warns on turn-started and in the tools view when the tool definitions exceed the share of the model’s context window, and not for an unknown model', async () => {
    const big = Array.from({ length: 3 }, (_, index) => tool('bulk', `t${index}`, 'x'.repeat(4_000)));
    const conversation = await store.create({ model: MODEL });
    const windows: Record<string, number> = { [MODEL]: 10_000 };
    const chat = engine({ tools: () => big, contextWindow: (model) => windows[model] });
    const view = await chat.toolsView(conversation.id);
    expect(view.warning).toMatch(
      /^The tool definitions alone take about 3,\d{3} tokens \(an estimate: 4 characters a token\), 3\d% of this model's 10,000-token context/,
    );
    expect(view.warning).not.toMatch(/tools are offered/);

    fake.script([{ text: 'ok' }]);
    await (
      await chat.send(conversation.id, 'hi')
    ).done;
    expect(log.of('turn-started')[0]?.toolCountWarning).toBe(view.warning);

    const unknown = await store.create({ model: 'claude-unknown' });
    expect((await chat.toolsView(unknown.id)).warning).toBeUndefined();
    // A larger window: under the share, no warning.
    windows[MODEL] = 200_000;
    expect((await chat.toolsView(conversation.id)).warning).toBeUndefined();
  });
});
