import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import type { Conversation } from '../../shared/domain/chat';
import type { ServerState, ToolInfo } from '../../shared/domain/server';
import { AnthropicProvider } from '../providers/llm-provider';
import { ChatEngine } from './chat-engine';
import type { AvailableTool } from './chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, openChatStore } from './chat-test-support';
import type { ConversationStore } from './conversation-store';
import { enabledDefinitionTokens, offerTools, tokensOf } from './tool-offer';
import { toolDefinitions } from './api-messages';
import { ReadyToolLists, ToolSetCache } from './tool-set-cache';

const info = (name: string, description = `${name} things`): ToolInfo => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
});

/** Every ready server's tools as the supervisor hands them to the engine: new wrappers at each call, the servers' own tool objects. */
function available(lists: ReadonlyMap<string, readonly ToolInfo[]>): AvailableTool[] {
  return [...lists].flatMap(([server, tools]) => tools.map((tool) => ({ server, tool })));
}

const conversation = (extra: Partial<Conversation> = {}): Conversation => ({
  id: 'c1',
  title: 'Test',
  model: 'claude-test-1',
  createdAt: 0,
  updatedAt: 0,
  messages: [],
  disabledServers: [],
  disabledTools: [],
  ...extra,
});

const offer = (tools: AvailableTool[], toolSets?: ToolSetCache, extra: Partial<Conversation> = {}) =>
  offerTools({
    conversation: conversation(extra),
    available: tools,
    hostTools: undefined,
    contextWindow: 200_000,
    limits: { countAt: 40, shareAt: 0.5 },
    ...(toolSets !== undefined ? { toolSets } : {}),
  });

describe('the tool lists’ names, definitions and estimate, kept while the lists stay the same', () => {
  const lists = new Map<string, readonly ToolInfo[]>([
    ['files', [info('read_file'), info('write_file')]],
    ['web', [info('search')]],
  ]);

  it('reuses them for a request whose enabled tools are the same objects, though in a new list', () => {
    const cache = new ToolSetCache();
    const first = offer(available(lists), cache);
    const second = offer(available(lists), cache);
    expect(second.names).toBe(first.names);
    expect(second.enabled).toBe(first.enabled);
    second.definitions.forEach((definition, index) => expect(definition).toBe(first.definitions[index]));
    // Shared by every request, so no provider may change one in place.
    expect(first.definitions.every((definition) => Object.isFrozen(definition))).toBe(true);
    // Without the engine's cache nothing is kept.
    expect(offer(available(lists)).names).not.toBe(first.names);
  });

  it('builds afresh for the very next request when a tool is renamed, added or removed, or a list is replaced', () => {
    const cache = new ToolSetCache();
    const before = offer(available(lists), cache);
    const names = (tools: AvailableTool[]) => offer(tools, cache).definitions.map((definition) => definition.name);

    const renamed = new Map(lists).set('files', [info('read_file'), info('save_file')]);
    expect(names(available(renamed))).toEqual(['files__read_file', 'files__save_file', 'web__search']);
    expect(offer(available(renamed), cache).names.resolve('files__write_file')).toBeUndefined();
    const added = new Map(lists).set('web', [info('search'), info('fetch')]);
    expect(names(available(added))).toEqual(['files__read_file', 'files__write_file', 'web__search', 'web__fetch']);
    const removed = new Map(lists).set('files', [info('read_file')]);
    expect(names(available(removed))).toEqual(['files__read_file', 'web__search']);
    // A server stopped: its tools are no longer among the ready ones.
    const stopped = new Map(lists);
    stopped.delete('web');
    expect(names(available(stopped))).toEqual(['files__read_file', 'files__write_file']);
    // A server renamed in the config: the same tool objects under another server.
    const moved = new Map([...lists].map(([server, tools]) => [server === 'web' ? 'search' : server, tools]));
    expect(names(available(moved))).toEqual(['files__read_file', 'files__write_file', 'search__search']);
    // A list read again (tools/list_changed) brings new objects: a changed description is sent at once.
    const relisted = new Map(lists).set('web', [info('search', 'Search the web, now with images')]);
    const after = offer(available(relisted), cache);
    expect(after.names).not.toBe(before.names);
    expect(after.definitions[2]?.description).toMatch(/^Search the web, now with images/);
    expect(enabledDefinitionTokens(after.enabled, after.names)).toBe(
      tokensOf(toolDefinitions(available(relisted), after.names)),
    );
  });

  it('keeps a set per combination of switches, and the host tools’ reserved names are part of it', () => {
    const cache = new ToolSetCache();
    const all = offer(available(lists), cache);
    const fewer = offer(available(lists), cache, { disabledTools: ['files/write_file'] });
    expect(fewer.definitions.map((definition) => definition.name)).toEqual(['files__read_file', 'web__search']);
    expect(offer(available(lists), cache).names).toBe(all.names);
    expect(offer(available(lists), cache, { disabledTools: ['files/write_file'] }).names).toBe(fewer.names);
    expect(cache.for(available(lists), ['files__read_file']).names).not.toBe(all.names);
  });

  it('answers the estimate of every enabled tool from the set, and computes it for any other list', () => {
    const cache = new ToolSetCache();
    const tools = available(lists);
    const set = cache.for(tools);
    const expected = tokensOf(toolDefinitions(tools, set.names));
    expect(set.definitionTokens()).toBe(expected);
    expect(enabledDefinitionTokens(set.tools, set.names)).toBe(expected);
    expect(enabledDefinitionTokens(tools.slice(0, 1), set.names)).toBe(
      tokensOf(toolDefinitions(tools.slice(0, 1), set.names)),
    );
  });
});

describe('the ready servers’ tools, as the engine is handed them at each request', () => {
  const files = [info('read_file'), { ...info('refresh'), ui: { visibility: ['app'] } } as ToolInfo];
  const web = [info('search')];
  /** As the supervisor lists them: fresh state objects and tool arrays each time, the servers' own tool objects. */
  const states = (lists: Array<[string, readonly ToolInfo[], string?]>): ServerState[] =>
    lists.map(([name, tools, status = 'ready']) => ({ name, status, tools: [...tools] })) as unknown as ServerState[];

  it('keeps a server’s entries while it reports the same tool objects, leaving out app-only tools', () => {
    const ready = new ReadyToolLists();
    const first = ready.of(
      states([
        ['files', files],
        ['web', web],
      ]),
    );
    expect(first.map(({ server, tool }) => `${server}/${tool.name}`)).toEqual(['files/read_file', 'web/search']);
    const second = ready.of(
      states([
        ['files', files],
        ['web', web],
      ]),
    );
    second.forEach((entry, index) => expect(entry).toBe(first[index]));
  });

  it('follows a list read again, a server that stops or goes, and one that comes back', () => {
    const ready = new ReadyToolLists();
    const first = ready.of(
      states([
        ['files', files],
        ['web', web],
      ]),
    );
    const relisted = ready.of(
      states([
        ['files', files],
        ['web', [info('search', 'now with images')]],
      ]),
    );
    expect(relisted[0]).toBe(first[0]);
    expect(relisted[1]?.tool.description).toBe('now with images');
    expect(
      ready
        .of(
          states([
            ['files', files],
            ['web', web, 'stopped'],
          ]),
        )
        .map(({ tool }) => tool.name),
    ).toEqual(['read_file']);
    // Back with the same objects: built again, as nothing was kept for a server that was not ready.
    const back = ready.of(
      states([
        ['files', files],
        ['web', web],
      ]),
    );
    expect(back[1]).not.toBe(first[1]);
    expect(back[1]?.tool).toBe(web[0]);
  });
});

describe('a conversation’s requests follow the servers’ tool lists as they change', () => {
  let dir: string;
  let store: ConversationStore;
  let fake: FakeAnthropic;

  beforeEach(async () => {
    ({ dir, store } = await openChatStore('berth-tool-set-cache-'));
    fake = await FakeAnthropic.start({ apiKey: 'sk-unit' });
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore({ dir, store });
  });

  it('sends, and resolves calls by, the names of the lists as they are at each request', async () => {
    let lists = new Map<string, readonly ToolInfo[]>([['files', [info('read_file'), info('write_file')]]]);
    const calls: string[] = [];
    const chat = new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => available(lists),
      gate: new ScriptedGate(),
      runner: {
        callTool: async (server, tool) => {
          calls.push(`${server}/${tool}`);
          return { content: [{ type: 'text', text: 'done' }] };
        },
      },
      onEvent: new ChatEventLog().onEvent,
    });
    const { id } = await store.create({ model: 'claude-test-1' });
    const sentNames = () => fake.requests.at(-1)?.body?.tools?.map((tool) => tool.name);
    const turn = async (text: string, call?: string) => {
      fake.script(call === undefined ? [{ text: 'ok' }] : [{ toolUses: [{ name: call, input: {} }] }, { text: 'ok' }]);
      expect(await (await chat.send(id, text)).done).toMatchObject({ status: 'finished' });
    };

    await turn('hello');
    expect(sentNames()).toEqual(['files__read_file', 'files__write_file']);
    const kept = chat.toolsFor(await store.get(id)).names;
    expect(chat.toolsFor(await store.get(id)).names).toBe(kept);

    // The server renames a tool: the next request offers the new name, and a call of it runs the new tool.
    lists = new Map([['files', [info('read_file'), info('save_file')]]]);
    await turn('save it', 'files__save_file');
    expect(sentNames()).toEqual(['files__read_file', 'files__save_file']);
    expect(calls).toEqual(['files/save_file']);

    // Another server becomes ready with a tool; then the first one stops.
    lists = new Map([...lists, ['web', [info('search')]]]);
    await turn('search');
    expect(sentNames()).toEqual(['files__read_file', 'files__save_file', 'web__search']);
    lists = new Map([['web', lists.get('web') ?? []]]);
    await turn('and now');
    expect(sentNames()).toEqual(['web__search']);
    // A call by a name the lists no longer have reaches no server.
    await turn('old name', 'files__read_file');
    expect(calls).toEqual(['files/save_file']);
  });
});
