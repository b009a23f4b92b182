import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateCorpus } from '../../bench/generators/real-tool-corpus';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { lastToolResultText } from '../../e2e/fake-llm/turns';
import { DEFAULT_TOOL_SEARCH_THRESHOLDS } from '../../shared/domain/tool-search';
import { AnthropicProvider } from '../providers/llm-provider';
import type { LlmProvider } from '../providers/llm-provider';
import { OpenAiCompatibleClient } from '../providers/openai-compatible';
import { ChatEngine } from './chat-engine';
import type { AvailableTool } from './chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, openChatStore } from './chat-test-support';
import type { ConversationStore } from './conversation-store';
import { HostToolRegistry } from './host-tools/host-tool-registry';
import { buildSystemPrompt } from './system-prompt';
import { ToolSearch } from './tool-search/tool-search-provider';

// The bodies Berth sends for a fixed set of tools and scripted turns, byte for byte, against a file
// written by the code before the tool lists' names, definitions and estimates were cached
// (tool-set-cache.ts): caching what depends only on the tool lists must not change one byte a
// provider receives. The bodies are taken from fetch as the SDKs hand them over.

const MODEL = 'claude-test-1';
const GPT = 'gpt-test';

const tool = (server: string, name: string, extra: Partial<AvailableTool['tool']> = {}): AvailableTool => ({
  server,
  tool: {
    name,
    description: `${name} for ${server}`,
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Where.' } } },
    ...extra,
  },
});

/** Names that take every path of the naming rules: readable, hashed, sanitised alike, too long, disabled. */
const EDGE_TOOLS: AvailableTool[] = [
  tool('files', 'read_file', { title: 'Read a file' }),
  tool('files', 'write_file', { description: undefined }),
  tool('web', 'search'),
  tool('docs', 'search'),
  tool('My Server', 'get.weather'),
  tool('a b', 'x'),
  tool('a.b', 'x'),
  tool('a_b', 'x'),
  tool('café', '搜索'),
  tool('long', 'a_very_long_tool_name_that_goes_on_and_on_past_the_sixty_four_characters_the_api_takes'),
  tool('off', 'never_sent'),
  tool('files', 'delete_file'),
];

const corpus = (count: number): AvailableTool[] => generateCorpus(count).map(({ server, tool }) => ({ server, tool }));

describe('the request bodies are the same bytes with the tool lists cached', () => {
  let dir: string;
  let store: ConversationStore;
  let anthropic: FakeAnthropic;
  let openai: FakeOpenAi;
  const bodies: string[] = [];

  beforeEach(async () => {
    ({ dir, store } = await openChatStore('berth-request-bytes-'));
    anthropic = await FakeAnthropic.start({ apiKey: 'sk-unit' });
    openai = await FakeOpenAi.start({ models: [GPT] });
    bodies.length = 0;
    // A spy that passes every call on to the real fetch, keeping the body each SDK serialized.
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      if (typeof init?.body === 'string') bodies.push(init.body);
      return realFetch(input, init);
    });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await anthropic.close();
    await openai.close();
    await closeChatStore({ dir, store });
  });

  function engine(provider: LlmProvider, tools: AvailableTool[]): ChatEngine {
    return new ChatEngine({
      provider,
      store,
      tools: () => tools,
      gate: new ScriptedGate(),
      runner: { callTool: async (server, name) => ({ content: [{ type: 'text', text: `${server}/${name} done` }] }) },
      hostTools: new HostToolRegistry([new ToolSearch({ store, thresholds: () => DEFAULT_TOOL_SEARCH_THRESHOLDS })]),
      system: (servers) => buildSystemPrompt(servers.map((server) => ({ server, instructions: `About ${server}.` }))),
      contextWindow: () => 200_000,
      onEvent: new ChatEventLog().onEvent,
    });
  }

  it('sends every enabled tool (tool search off), through Anthropic and an OpenAI-compatible provider', async () => {
    const claude = engine(new AnthropicProvider({ apiKey: 'sk-unit', baseURL: anthropic.url, maxRetries: 0 }), [
      ...EDGE_TOOLS,
    ]);
    const gpt = engine(new OpenAiCompatibleClient({ baseURL: openai.url, maxRetries: 0 }), [...EDGE_TOOLS]);
    for (const [chat, model] of [
      [claude, MODEL],
      [gpt, GPT],
    ] as const) {
      const conversation = await store.create({ model });
      await store.updateSettings(conversation.id, {
        toolSearch: 'off',
        disabledServers: ['off'],
        disabledTools: ['files/delete_file'],
      });
      if (model === MODEL)
        anthropic.script([{ toolUses: [{ name: 'files__read_file', input: { path: 'a.txt' } }] }, { text: 'Read.' }]);
      else openai.script([{ toolUses: [{ name: 'files__read_file', input: { path: 'a.txt' } }] }, { text: 'Read.' }]);
      expect(await (await chat.send(conversation.id, 'read a.txt')).done).toMatchObject({ status: 'finished' });
      // Twice more: the second and third turns are the ones a cache would answer.
      for (const text of ['and again', 'once more']) {
        (model === MODEL ? anthropic : openai).script([{ text: 'Fine.' }]);
        expect(await (await chat.send(conversation.id, text)).done).toMatchObject({ status: 'finished' });
      }
    }
    expect(bodies).toHaveLength(8);
    await expect(`${bodies.join('\n')}\n`).toMatchFileSnapshot('./__golden__/request-bodies-all-tools.txt');
  });

  it('sends the host tools and the loaded ones (tool search on, 300 tools): search, load, call, answer', async () => {
    const chat = engine(
      new AnthropicProvider({ apiKey: 'sk-unit', baseURL: anthropic.url, maxRetries: 0 }),
      corpus(300),
    );
    let found = '';
    anthropic.script([
      { toolUses: [{ name: 'search_tools', input: { query: 'read a text file' } }] },
      (request) => {
        found = /^- (\S+)/m.exec(lastToolResultText(request.body))?.[1] ?? '';
        return { toolUses: [{ name: 'load_tools', input: { names: [found] } }] };
      },
      () => ({ toolUses: [{ name: found, input: { path: 'notes.txt' } }] }),
      { text: 'Done.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    expect(await (await chat.send(conversation.id, 'read notes.txt')).done).toMatchObject({ status: 'finished' });
    anthropic.script([{ text: 'Still here.' }]);
    expect(await (await chat.send(conversation.id, 'thanks')).done).toMatchObject({ status: 'finished' });
    expect(bodies).toHaveLength(5);
    await expect(`${bodies.join('\n')}\n`).toMatchFileSnapshot('./__golden__/request-bodies-tool-search.txt');
  });
});
