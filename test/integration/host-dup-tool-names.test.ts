import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LONG_DAILY, LONG_WEEKLY } from '../../e2e/fixtures/servers/dup-names.mjs';
import type { Conversation } from '../../shared/domain/chat';
import type { LogEntry } from '../../shared/domain/log';
import type { PendingRequestOf } from '../../shared/domain/pending';
import type { ServerState } from '../../shared/domain/server';
import { serverTools } from '../../shared/domain/server-state-read';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import {
  cleanEnv,
  eventAfter,
  newConversation,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import { hostPerTest } from './host-harness';
import type { HostHarness } from './host-harness';

// A server listing two tools named `search` (and names that only collide once Berth rewrites them for the
// model API) through the whole host, a real server and the fake Messages API, which refuses repeated tool
// names with the API's own 400: every turn failed before Berth gave each tool a name of its own.

const DUP_NAMES = join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'servers', 'dup-names.mjs');

const DUP_CONFIG = { command: process.execPath, args: [DUP_NAMES] };

let world: ChatWorld | undefined;
let openai: FakeOpenAi | undefined;
const openaiHost = hostPerTest('berth-host-dup-openai-');
afterEach(async () => {
  await world?.close();
  world = undefined;
  await openai?.close();
  openai = undefined;
});

type ToolPrompt = PendingRequestOf<'tool-call'>;

/**
 * Runs one turn to its end, answering each tool consent as it opens with `decide(prompt)`; returns the prompts
 * in the order they opened and how the turn ended.
 */
async function turn(
  harness: HostHarness,
  id: string,
  text: string,
  decide: (prompt: ToolPrompt) => string,
): Promise<{ asked: ToolPrompt[]; end: string }> {
  const mark = harness.events.length;
  await harness.call('chat.send', { id, text });
  const asked: ToolPrompt[] = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const later = harness.events.slice(mark);
    for (const event of later) {
      if (event.topic !== 'pending.changed') continue;
      const { change } = event.payload as { change: { type: string; request?: ToolPrompt } };
      const request = change.request;
      if (change.type !== 'opened' || request?.kind !== 'tool-call' || asked.includes(request)) continue;
      asked.push(request);
      await harness.call('pending.answer', { id: request.id, response: { decision: decide(request) } });
    }
    const end = later.find(
      (event) =>
        event.topic === 'chat.event' &&
        (event.payload as { conversationId: string; type: string }).conversationId === id &&
        ['turn-finished', 'turn-failed'].includes((event.payload as { type: string }).type),
    );
    if (end !== undefined) return { asked, end: (end.payload as { type: string }).type };
    if (Date.now() > deadline) throw new Error('the turn did not end within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function hostLog(harness: HostHarness): Promise<string> {
  const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', { server: 'dup', sources: ['host'] });
  return entries.map((entry) => entry.text).join('\n');
}

describe('host: a server whose tool names repeat', () => {
  it('offers unique names, routes each call to its own tool, asks consent per twin, and says what list_changed renamed', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    let mark = harness.events.length;
    await harness.call('servers.add', { name: 'dup', config: DUP_CONFIG });
    const ready = await eventAfter(
      harness,
      mark,
      'servers.changed',
      (state) => state.name === 'dup' && state.status === 'ready',
    );
    // Berth's names, in the server's order; the twin remembers the name it goes to the server under.
    expect(serverTools(ready).map((tool) => [tool.name, tool.listedName])).toEqual([
      ['search', undefined],
      ['get.item', undefined],
      ['get_item', undefined],
      ['search_2', 'search'],
      [LONG_DAILY, undefined],
      [LONG_WEEKLY, undefined],
      ['forget_notes_search', undefined],
    ]);
    expect(await hostLog(harness)).toContain(
      "2 tools share the name 'search': the second is offered to the model as 'search_2'",
    );

    // A first turn: the request the fake (the real API's rule) would refuse with a 400 goes through.
    const { id } = await newConversation(harness);
    fake.script([{ text: 'Hello.' }]);
    expect((await turn(harness, id, 'hi', () => 'deny')).end).toBe('turn-finished');
    const offered = (fake.requests[0]?.body?.tools ?? []).map((tool) => tool.name);
    expect(offered).toHaveLength(7);
    expect(new Set(offered).size).toBe(7);
    for (const name of offered) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(offered).toEqual(expect.arrayContaining(['dup__search', 'dup__search_2', 'dup__get_item']));
    const described = (needle: string): string => {
      const tool = fake.requests[0]?.body?.tools?.find((entry) => entry.description?.includes(needle));
      if (tool === undefined) throw new Error(`no tool described as ${needle}`);
      return tool.name;
    };
    expect(described('Search the files')).toBe('dup__search_2');
    const dotted = described('(dotted name)');
    const daily = described('daily summary');
    const weekly = described('weekly summary');
    expect(dotted).not.toBe('dup__get_item');
    expect(daily).not.toBe(weekly);

    // Each twin and each rewritten name reaches its own tool. "Always allow search" does not cover search_2:
    // the twin is another tool (another schema, another description), so it is asked about on its own.
    fake.script([
      {
        toolUses: [
          { name: 'dup__search', input: { query: 'milk' } },
          { name: 'dup__search_2', input: { pattern: '*.txt' } },
          { name: dotted, input: { id: '7' } },
          { name: 'dup__get_item', input: { id: '8' } },
          { name: daily, input: {} },
          { name: weekly, input: {} },
        ],
      },
      { text: 'Found them.' },
    ]);
    const first = await turn(harness, id, 'find things', (prompt) =>
      prompt.payload.tool === 'search' ? 'always-tool' : 'allow-once',
    );
    expect(first.end).toBe('turn-finished');
    expect(first.asked.map((prompt) => prompt.payload.tool).sort()).toEqual(
      ['get.item', 'get_item', 'search', 'search_2', LONG_DAILY, LONG_WEEKLY].sort(),
    );
    expect(first.asked.find((prompt) => prompt.payload.tool === 'search_2')?.payload).toMatchObject({
      listedName: 'search',
      description: 'Search the files by glob pattern',
      inputSchema: { required: ['pattern'] },
    });
    const results = toolResultTexts(fake, fake.requests.length - 1);
    expect(results).toContain('notes matching "milk": groceries.md');
    expect(results).toContain('files matching "*.txt": report.txt');
    expect(results).toContain('item 7 from get.item');
    expect(results).toContain('item 8 from get_item');
    expect(results).toContain('daily summary');
    expect(results).toContain('weekly summary');
    const conversation = await harness.call<Conversation>('chat.get', { id });
    expect(JSON.stringify(conversation)).not.toContain('"isError":true');

    // The server drops the first `search`: the twin is `search` again, its old name is gone, and the log says so.
    fake.script([{ toolUses: [{ name: 'dup__forget_notes_search', input: {} }] }, { text: 'Forgotten.' }]);
    mark = harness.events.length;
    expect((await turn(harness, id, 'forget the notes search', () => 'allow-once')).end).toBe('turn-finished');
    const changed = await eventAfter(
      harness,
      mark,
      'servers.changed',
      (state: ServerState) => state.name === 'dup' && !serverTools(state).some((tool) => tool.name === 'search_2'),
    );
    expect(serverTools(changed).find((tool) => tool.name === 'search')).toMatchObject({
      description: 'Search the files by glob pattern',
    });
    expect(serverTools(changed).some((tool) => tool.listedName !== undefined)).toBe(false);
    expect(await hostLog(harness)).toContain(
      "tools that share a name changed: now none (before: 2 tools share the name 'search': the second is offered to the model as 'search_2'); 'search_2' is gone",
    );
    // `search` now is the files search: its definition changed, so the "always" given to the notes search asks again.
    fake.script([{ toolUses: [{ name: 'dup__search', input: { pattern: '*.md' } }] }, { text: 'Done.' }]);
    const after = await turn(harness, id, 'search files', () => 'allow-once');
    expect(after.end).toBe('turn-finished');
    expect(after.asked.map((prompt) => prompt.payload.tool)).toEqual(['search']);
    expect(after.asked[0]?.payload.approvalChanged).toBeDefined();
    expect(toolResultTexts(fake, fake.requests.length - 1)).toContain('files matching "*.md": report.txt');
    expect(fake.requests.at(-1)?.body?.tools?.map((tool) => tool.name)).not.toContain('dup__search_2');
  });

  it('an OpenAI-compatible provider (fake Ollama, which refuses repeated function names) gets unique names and each twin’s own result', async () => {
    const model = 'llama3.1:8b';
    openai = await FakeOpenAi.start({ models: [model] });
    const harness = await openaiHost.start({ env: cleanEnv({}) });
    await harness.call('providers.add', {
      provider: { id: 'ollama', label: 'Ollama', preset: 'ollama', baseUrl: openai.url, models: [{ id: model }] },
    });
    const mark = harness.events.length;
    await harness.call('servers.add', { name: 'dup', config: DUP_CONFIG });
    await eventAfter(harness, mark, 'servers.changed', (state) => state.name === 'dup' && state.status === 'ready');
    openai.script([
      {
        toolUses: [
          { name: 'dup__search', input: { query: 'milk' } },
          { name: 'dup__search_2', input: { pattern: '*.txt' } },
        ],
      },
      { text: 'Found.' },
    ]);
    const conversation = await harness.call<Conversation>('chat.create', { model: `ollama:${model}` });
    expect((await turn(harness, conversation.id, 'find', () => 'allow-once')).end).toBe('turn-finished');
    const names = (openai.requests[0]?.body?.tools ?? []).map((definition) => definition.function.name);
    expect(names).toHaveLength(7);
    expect(new Set(names).size).toBe(7);
    const answers = (openai.requests[1]?.body?.messages ?? []).filter((message) => message.role === 'tool');
    expect(answers.map((message) => message.content)).toEqual([
      expect.stringContaining('notes matching "milk": groceries.md'),
      expect.stringContaining('files matching "*.txt": report.txt'),
    ]);
  });
});
