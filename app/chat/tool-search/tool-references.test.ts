import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../../e2e/fake-llm/fake-anthropic';
import { lastToolResultText } from '../../../e2e/fake-llm/turns';
import type { MessagesRequestBody } from '../../../e2e/fake-llm/validate-request';
import { generateCorpus } from '../../../bench/generators/real-tool-corpus';
import { DEFAULT_TOOL_SEARCH_THRESHOLDS } from '../../../shared/domain/tool-search';
import type { ChatUsage } from '../../../shared/domain/chat';
import { promptTokens } from '../../../shared/domain/chat-usage';
import { ChatEngine } from '../chat-engine';
import type { AvailableTool } from '../chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, openChatStore } from '../chat-test-support';
import { ConversationStore } from '../conversation-store';
import { HostToolRegistry } from '../host-tools/host-tool-registry';
import { AnthropicProvider } from '../../providers/llm-provider';
import { ToolSearch } from './tool-search-provider';

// Tool search with Anthropic's deferred loading, through the engine and the fake Messages API
// (which strips deferred tools from the prompt until a tool_reference loads them, as the API does).

const MODEL = 'claude-test-1';
// A system prompt long enough to be cached (the API caches prefixes from 1,024 tokens).
const SYSTEM = 'Answer as the harbour master would, briefly and with care for the berths. '.repeat(120);

/** The tool list as the model's prompt starts with it, without the cache marks. */
const toolList = (body: MessagesRequestBody | undefined): string =>
  JSON.stringify(body?.tools ?? [], (key, value: unknown) => (key === 'cache_control' ? undefined : value));

describe('tool search with deferred loading', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let store: ConversationStore;
  let log: ChatEventLog;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-unit' });
    ({ dir, store, log } = await openChatStore('berth-tool-references-'));
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore({ dir, store });
  });

  const tools: AvailableTool[] = generateCorpus(300).map(({ server, tool }) => ({ server, tool }));
  function engine(gate = new ScriptedGate()): { engine: ChatEngine; calls: string[] } {
    const calls: string[] = [];
    const chat = new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 }),
      defersTools: () => true,
      store,
      tools: () => tools,
      gate,
      runner: {
        callTool: async (server, tool) => {
          calls.push(`${server}/${tool}`);
          return { content: [{ type: 'text', text: 'hello from the file' }] };
        },
      },
      hostTools: new HostToolRegistry([new ToolSearch({ store, thresholds: () => DEFAULT_TOOL_SEARCH_THRESHOLDS })]),
      system: () => SYSTEM,
      contextWindow: () => 200_000,
      onEvent: log.onEvent,
    });
    return { engine: chat, calls };
  }

  it('keeps the tool list as it was across a load, loads the tool where load_tools answered, and reads the prompt before it from the cache', async () => {
    const { engine: chat, calls } = engine();
    const searchAndUse = { searchAndUse: { query: 'read a text file', input: { path: 'notes.txt' } } };
    fake.script([searchAndUse, searchAndUse, searchAndUse, searchAndUse]);
    const conversation = await store.create({ model: MODEL });
    expect(await (await chat.send(conversation.id, 'read notes.txt')).done).toMatchObject({ status: 'finished' });

    const bodies = fake.requests.map((request) => request.body);
    expect(bodies).toHaveLength(4);
    // Search and load first, then every enabled tool, deferred: the same list in every request.
    const first = bodies[0]?.tools ?? [];
    expect(first.slice(0, 2).map((tool) => [tool.name, tool.defer_loading])).toEqual([
      ['search_tools', undefined],
      ['load_tools', undefined],
    ]);
    expect(first.slice(2)).toHaveLength(300);
    expect(first.slice(2).every((tool) => tool.defer_loading === true)).toBe(true);
    for (const body of bodies) expect(toolList(body)).toBe(toolList(bodies[0]));

    // load_tools answered with a reference to the tool it loaded; the model then called it, and it ran.
    const loaded = bodies[2]?.messages.at(-1)?.content;
    const result = Array.isArray(loaded) ? loaded.find((block) => block.type === 'tool_result') : undefined;
    const called = String(
      (bodies[2]?.messages.at(-2)?.content as Array<{ input?: { names?: string[] } }>)[0]?.input?.names?.[0],
    );
    expect(result?.content).toContainEqual({ type: 'tool_reference', tool_name: called });
    expect(calls).toHaveLength(1);
    expect(lastToolResultText(bodies[3])).toBe('hello from the file');
    // The next request still carries the same reference at the same place: the history does not change.
    expect(JSON.stringify(bodies[3]?.messages.slice(0, 5))).toContain(`"tool_reference","tool_name":"${called}"`);

    // Each request read the whole previous prompt from the cache, the load included.
    const usages = (await store.get(conversation.id)).messages.flatMap((message): ChatUsage[] =>
      message.role === 'assistant' && message.usage !== undefined ? [message.usage] : [],
    );
    expect(usages).toHaveLength(4);
    for (let index = 1; index < usages.length; index += 1)
      expect(usages[index]?.cacheReadTokens).toBe(promptTokens(usages[index - 1] as ChatUsage));
    // Only what the model reads is billed: the 300 deferred tools are not, the loaded one is.
    expect(promptTokens(usages[0] as ChatUsage)).toBeLessThan(5_000);
  });

  it('takes a tool’s reference out once the person unloaded it, so the model no longer sees it', async () => {
    const { engine: chat } = engine();
    const searchAndUse = { searchAndUse: { query: 'read a text file', input: { path: 'notes.txt' } } };
    fake.script([searchAndUse, searchAndUse, searchAndUse, searchAndUse, { text: 'Fine.' }]);
    const conversation = await store.create({ model: MODEL });
    await (
      await chat.send(conversation.id, 'read notes.txt')
    ).done;
    const saved = await store.get(conversation.id);
    expect(saved.loadedTools).toHaveLength(1);
    await store.changeLoadedTools(conversation.id, () => []);
    await (
      await chat.send(conversation.id, 'thanks')
    ).done;
    const last = fake.requests.at(-1)?.body;
    expect(JSON.stringify(last?.messages)).not.toContain('tool_reference');
    expect(toolList(last)).toBe(toolList(fake.requests[0]?.body));
  });

  it('sends no reference to a loaded tool the person switched off, which the API would refuse as unresolved', async () => {
    const { engine: chat } = engine();
    const searchAndUse = { searchAndUse: { query: 'read a text file', input: { path: 'notes.txt' } } };
    fake.script([searchAndUse, searchAndUse, searchAndUse, searchAndUse, { text: 'Fine.' }]);
    const conversation = await store.create({ model: MODEL });
    await (
      await chat.send(conversation.id, 'read notes.txt')
    ).done;
    const loaded = (await store.get(conversation.id)).loadedTools ?? [];
    expect(loaded).toHaveLength(1);
    await store.updateSettings(conversation.id, { disabledTools: loaded });
    expect(await (await chat.send(conversation.id, 'thanks')).done).toMatchObject({ status: 'finished' });
    const last = fake.requests.at(-1)?.body;
    expect(last?.tools).toHaveLength(301);
    expect(JSON.stringify(last?.messages)).not.toContain('tool_reference');
  });
});
