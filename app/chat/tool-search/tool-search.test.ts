import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../../e2e/fake-llm/fake-anthropic';
import { lastToolResultText } from '../../../e2e/fake-llm/turns';
import type { RecordedRequest } from '../../../e2e/fake-llm/turns';
import { generateCorpus } from '../../../bench/generators/real-tool-corpus';
import { DEFAULT_TOOL_SEARCH_THRESHOLDS, MAX_LOADED_TOOLS, toolSearchState } from '../../../shared/domain/tool-search';
import { HOST_TOOL_SERVER } from '../../../shared/domain/host-tools';
import { ChatEngine } from '../chat-engine';
import type { AvailableTool } from '../chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, openChatStore } from '../chat-test-support';
import { ConversationStore } from '../conversation-store';
import { HostToolRegistry } from '../host-tools/host-tool-registry';
import { AnthropicProvider } from '../../providers/llm-provider';
import { ToolSearch, withinLoadBudget } from './tool-search-provider';

const MODEL = 'claude-test-1';
const thresholds = DEFAULT_TOOL_SEARCH_THRESHOLDS;

describe('tool search threshold', () => {
  it('switches on above the count or the context share, and follows the conversation’s own choice', () => {
    const at = (
      count: number,
      tokensEstimate: number,
      contextWindow: number | undefined,
      mode: 'auto' | 'on' | 'off' = 'auto',
    ) => toolSearchState({ mode, count, tokensEstimate, contextWindow, thresholds }).active;
    expect(at(128, 1_000, 200_000)).toBe(false);
    expect(at(129, 1_000, 200_000)).toBe(true);
    expect(at(10, 20_000, 200_000)).toBe(false);
    expect(at(10, 20_001, 200_000)).toBe(true);
    // Unknown context: only the count decides.
    expect(at(10, 1_000_000, undefined)).toBe(false);
    expect(at(1, 10, 200_000, 'on')).toBe(true);
    expect(at(5_000, 10, 200_000, 'off')).toBe(false);
    expect(
      toolSearchState({ mode: 'auto', count: 2_000, tokensEstimate: 1, contextWindow: undefined, thresholds }).reason,
    ).toMatch(/2,000 tools are enabled, more than 128/);
  });

  it('keeps loaded tools within the count and token budget, dropping the ones loaded longest ago', () => {
    const keys = Array.from({ length: MAX_LOADED_TOOLS + 3 }, (_, index) => `s/t${index}`);
    const { loaded, dropped } = withinLoadBudget(keys, new Set(keys.slice(-2)), () => 10);
    expect(loaded).toEqual(keys.slice(3));
    expect(dropped).toEqual(keys.slice(0, 3));
    const heavy = withinLoadBudget(['s/a', 's/b', 's/c'], new Set(['s/c']), () => 4_000);
    expect(heavy).toEqual({ loaded: ['s/b', 's/c'], dropped: ['s/a'] });
  });
});

describe('tool search in a turn', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let store: ConversationStore;
  let log: ChatEventLog;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-unit' });
    ({ dir, store, log } = await openChatStore('berth-tool-search-'));
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore({ dir, store });
  });

  function engine(
    tools: AvailableTool[],
    gate = new ScriptedGate(),
  ): { engine: ChatEngine; calls: string[]; gate: ScriptedGate } {
    const calls: string[] = [];
    const chat = new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => tools,
      gate,
      runner: {
        callTool: async (server, tool) => {
          calls.push(`${server}/${tool}`);
          return { content: [{ type: 'text', text: 'hello from the file' }] };
        },
      },
      hostTools: new HostToolRegistry([new ToolSearch({ store, thresholds: () => thresholds })]),
      contextWindow: () => 200_000,
      onEvent: log.onEvent,
    });
    return { engine: chat, calls, gate };
  }

  const corpus = (count: number): AvailableTool[] =>
    generateCorpus(count).map(({ server, tool }) => ({ server, tool }));

  it('with 2,000 tools: offers only search and load, then the loaded tool, whose call still asks for consent', async () => {
    const { engine: chat, calls, gate } = engine(corpus(2_000));
    let found = '';
    fake.script([
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

    const sent = fake.requests.map((request) => request.body?.tools?.map((tool) => tool.name) ?? []);
    expect(sent[0]).toEqual(['search_tools', 'load_tools']);
    expect(found).toMatch(/read_text_file|readTextFile|read-text-file/);
    expect(sent[2]).toEqual(['search_tools', 'load_tools', found]);
    // Loading is not calling: only the call itself was asked about and ran.
    expect(gate.requests.map((request) => request.tool)).toHaveLength(1);
    expect(calls).toHaveLength(1);

    const saved = await store.get(conversation.id);
    expect(saved.loadedTools).toHaveLength(1);
    const hostResults = saved.messages
      .flatMap((message) => message.content)
      .filter((block) => block.type === 'tool_result' && block.hostSummary !== undefined);
    expect(hostResults.map((block) => (block.type === 'tool_result' ? block.hostSummary : ''))).toEqual([
      expect.stringMatching(/^searched tools for “read a text file”: 8 found$/),
      expect.stringMatching(/^loaded a tool: ws-\d\d › /),
    ]);
    expect(saved.messages[1]?.content[0]).toMatchObject({ server: HOST_TOOL_SERVER, tool: 'search_tools' });
    // What tool search saved: every definition (~2,000 tools) against the two host tools.
    const first = saved.messages[1]?.usage;
    expect(first?.toolTokensFullEstimate).toBeGreaterThan(100_000);
    expect(first?.toolTokensEstimate).toBeLessThan(1_000);
  });

  it('appends each loaded tool after those sent before, so the prompt cache keeps the tool list already sent', async () => {
    const { engine: chat } = engine(corpus(2_000));
    const found: string[] = [];
    const searchThenLoad = (query: string) => [
      { toolUses: [{ name: 'search_tools', input: { query } }] },
      (request: RecordedRequest) => {
        const name = /^- (\S+)/m.exec(lastToolResultText(request.body))?.[1] ?? '';
        found.push(name);
        return { toolUses: [{ name: 'load_tools', input: { names: [name] } }] };
      },
    ];
    fake.script([...searchThenLoad('read a text file'), ...searchThenLoad('create a directory'), { text: 'Both.' }]);
    const conversation = await store.create({ model: MODEL });
    await (
      await chat.send(conversation.id, 'read, then make a folder')
    ).done;
    const names = fake.requests.map((request) => request.body?.tools?.map((tool) => tool.name) ?? []);
    expect(found[0]).not.toBe(found[1]);
    expect(names.at(-1)).toEqual(['search_tools', 'load_tools', ...found]);
    expect(names[2]).toEqual(['search_tools', 'load_tools', found[0]]);
    // The request after the second load starts with the previous request's tool list, byte for byte.
    const tools = (at: number) => fake.requests[at]?.body?.tools?.map(({ cache_control: _mark, ...tool }) => tool);
    // (The API then reads it from the cache from the last tool's breakpoint, once it is long enough to be cached.)
    expect(tools(4)?.slice(0, 3)).toEqual(tools(3));
  });

  it('under the threshold nothing changes: every tool is sent and no host tool is offered', async () => {
    const { engine: chat } = engine(corpus(36));
    fake.script([{ text: 'Hi' }]);
    const conversation = await store.create({ model: MODEL });
    await (
      await chat.send(conversation.id, 'hello')
    ).done;
    const names = fake.requests[0]?.body?.tools?.map((tool) => tool.name) ?? [];
    expect(names).toHaveLength(36);
    expect(names).not.toContain('search_tools');
    expect((await store.get(conversation.id)).messages[1]?.usage?.toolTokensFullEstimate).toBeUndefined();
  });

  it('answers bad input and unknown names with what to fix, and a call of a tool not loaded without running it', async () => {
    const { engine: chat, calls } = engine(corpus(300));
    fake.script([
      {
        toolUses: [
          { name: 'search_tools', input: {} },
          { name: 'load_tools', input: { names: ['nope__nothing'] } },
          { name: 'ws-00__echo', input: { message: 'x' } },
        ],
      },
      { text: 'ok' },
    ]);
    const conversation = await store.create({ model: MODEL });
    await (
      await chat.send(conversation.id, 'go')
    ).done;
    const results = (await store.get(conversation.id)).messages[2]?.content ?? [];
    expect(
      results.map((block) =>
        block.type === 'tool_result' && block.content[0]?.type === 'text' ? [block.isError, block.content[0].text] : [],
      ),
    ).toEqual([
      [true, expect.stringMatching(/Give "query"/)],
      [true, expect.stringMatching(/No enabled tool has the name "nope__nothing"/)],
      [true, expect.stringMatching(/not loaded in this conversation: load it with load_tools first/)],
    ]);
    expect(calls).toEqual([]);
  });

  it('keeps searching only what the switches leave on', async () => {
    const tools = corpus(300);
    const { engine: chat } = engine(tools);
    const conversation = await store.create({ model: MODEL });
    await store.updateSettings(conversation.id, { disabledServers: ['ws-00'] });
    fake.script([
      { toolUses: [{ name: 'search_tools', input: { query: 'read text file', limit: 20 } }] },
      { text: 'ok' },
    ]);
    await (
      await chat.send(conversation.id, 'go')
    ).done;
    const text = lastToolResultText(fake.requests[1]?.body);
    expect(text).toMatch(/ws-01/);
    expect(text).not.toMatch(/server "ws-00"/);
  });
});
