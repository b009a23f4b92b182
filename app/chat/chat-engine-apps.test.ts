import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import type { ServerState } from '../../shared/domain/server';
import { readyTools } from './chat-service';
import { ChatEngine } from './chat-engine';
import type { ChatApps } from './chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, openChatStore } from './chat-test-support';
import { ConversationStore } from './conversation-store';
import { AnthropicProvider } from '../providers/llm-provider';

// MCP Apps in the chat engine: the app a tool names travels with the call's
// events and its saved result; context apps added goes with the next request.

const schema = { type: 'object', properties: {} };
const STATES = [
  {
    name: 'basic',
    status: 'ready',
    tools: [
      { name: 'get-time', inputSchema: schema, ui: { resourceUri: 'ui://get-time/app.html' } },
      { name: 'refresh', inputSchema: schema, ui: { visibility: ['app'] } },
      { name: 'plain', inputSchema: schema },
    ],
  },
] as unknown as ServerState[];

describe('ChatEngine with MCP Apps', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let store: ConversationStore;
  let log: ChatEventLog;
  let context: string | undefined;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-unit' });
    ({ dir, store, log } = await openChatStore('berth-chat-apps-'));
    context = undefined;
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore({ dir, store });
  });

  const apps: ChatApps = {
    toolApp: (server, tool) => {
      const state = STATES.find((candidate) => candidate.name === server);
      const tools = state?.status === 'ready' ? state.tools : [];
      const app = tools.find((entry) => entry.name === tool && entry.ui?.resourceUri !== undefined);
      return app === undefined ? undefined : { resourceUri: 'ui://get-time/app.html' };
    },
    turnContext: () => context,
  };
  const engine = () =>
    new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => readyTools(STATES),
      gate: new ScriptedGate(),
      runner: { callTool: async (_server, tool) => ({ content: [{ type: 'text', text: `${tool} ran` }] }) },
      apps,
      onEvent: log.onEvent,
    });

  it('never offers an app-only tool to the model', async () => {
    fake.script([{ text: 'ok' }]);
    const conversation = await store.create({ model: 'm' });
    await (
      await engine().send(conversation.id, 'hi')
    ).done;
    expect(fake.requests[0]?.body?.tools?.map((tool) => tool.name)).toEqual(['basic__get-time', 'basic__plain']);
  });

  it('puts the app on tool-call-started and on the saved result, and only for a tool that has one', async () => {
    fake.script([
      {
        toolUses: [
          { name: 'basic__get-time', input: {} },
          { name: 'basic__plain', input: {} },
        ],
      },
      { text: 'Done.' },
    ]);
    const conversation = await store.create({ model: 'm' });
    await (
      await engine().send(conversation.id, 'What time is it?')
    ).done;
    const started = log.of('tool-call-started');
    expect(started.map((event) => [event.tool, event.app])).toEqual([
      ['get-time', { resourceUri: 'ui://get-time/app.html' }],
      ['plain', undefined],
    ]);
    const saved = await store.get(conversation.id);
    const results = saved.messages
      .flatMap((message) => message.content)
      .filter((block) => block.type === 'tool_result');
    expect(results.map((block) => block.app)).toEqual([{ resourceUri: 'ui://get-time/app.html' }, undefined]);
    expect(results[0]).toMatchObject({ content: [{ type: 'text', text: 'get-time ran' }] });
  });

  it('appends what apps added to the last user message of each request, labelled, and saves none of it', async () => {
    fake.script([{ text: 'First.' }, { text: 'Second.' }]);
    const conversation = await store.create({ model: 'm' });
    await (
      await engine().send(conversation.id, 'one')
    ).done;
    expect(JSON.stringify(fake.requests[0]?.body?.messages)).not.toContain('Context from');
    context = 'Context from the basic app (card tu1), not written by the user:\nThe clock shows 12:00';
    await (
      await engine().send(conversation.id, 'two')
    ).done;
    expect(fake.requests[1]?.body?.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        // The prompt cache's mark goes before the context, which the next request does not repeat here.
        { type: 'text', text: 'two', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: context },
      ],
    });
    const saved = await store.get(conversation.id);
    expect(JSON.stringify(saved.messages)).not.toContain('Context from');
  });

  it('keeps the conversation read from the prompt cache while an app adds context to each turn', async () => {
    fake.script([{ text: 'First.' }, { text: 'Second.' }, { text: 'Third.' }]);
    const conversation = await store.create({ model: 'm' });
    // Long enough to be cached (the API caches prefixes from 1,024 tokens).
    const long = 'Here is the harbour log to keep in mind for the rest of this chat. '.repeat(200);
    const first12 = 'Context from the basic app (card tu1), not written by the user:\nThe clock shows 12:00';
    context = first12;
    await (
      await engine().send(conversation.id, long)
    ).done;
    context = 'Context from the basic app (card tu1), not written by the user:\nThe clock shows 12:01';
    await (
      await engine().send(conversation.id, 'And now?')
    ).done;
    await (
      await engine().send(conversation.id, 'And after that?')
    ).done;
    // Each request still ends in the app's context as it was then, after the block the cache mark is on.
    const contexts = fake.requests.map((request) => {
      const last = request.body?.messages.at(-1)?.content;
      return Array.isArray(last) ? last.at(-1)?.text : undefined;
    });
    expect(contexts).toEqual([first12, context, context]);
    const usages = (await store.get(conversation.id)).messages.flatMap((message) =>
      message.role === 'assistant' && message.usage !== undefined ? [message.usage] : [],
    );
    expect(usages).toHaveLength(3);
    // Each turn reads the whole conversation the previous one sent (the app's context aside) from the cache.
    const [first, second, third] = usages;
    expect(first?.cacheWriteTokens).toBeGreaterThan(1_024);
    expect(second?.cacheReadTokens).toBe(first?.cacheWriteTokens);
    expect(third?.cacheReadTokens).toBe((second?.cacheReadTokens ?? 0) + (second?.cacheWriteTokens ?? 0));
    expect(third?.cacheReadTokens).toBeGreaterThan(second?.cacheReadTokens ?? 0);
  });
});
