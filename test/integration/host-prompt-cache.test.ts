import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusByServer } from '../../bench/generators/real-tool-corpus';
import { FakePromptCache } from '../../e2e/fake-llm/anthropic-prompt-cache';
import type { MessagesRequestBody } from '../../e2e/fake-llm/validate-request';
import { promptView } from '../../e2e/fake-llm/fake-deferred-tools';
import { withCacheBreakpoints } from '../../app/providers/anthropic-cache';
import { withoutDeferral } from '../../app/providers/deferred-tools';
import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { Conversation } from '../../shared/domain/chat';
import { conversationUsage, promptTokens } from '../../shared/domain/chat-usage';
import type { ServerState } from '../../shared/domain/server';
import { newConversation, pendingAfter, startChatWorld, TEST_API_KEY, turnEndAfter } from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

// The prompt cache over a tool-heavy conversation, through the whole host and the fake Messages
// API, which bills its cache by prefix as the real one does (e2e/fake-llm/anthropic-prompt-cache.ts):
// 20 turns, each a tool call and an answer, with 40 real-looking tools enabled.

const CORPUS_SERVER = join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'servers', 'corpus-tools.mjs');
const TOOLS = 40;
const TURNS = 20;
const SEARCH_TOOLS = 200;
/** What the person asks for in each turn of the tool search conversation: each loads another tool. */
const LOAD_QUERIES = [
  'read a text file',
  'list a directory',
  'create knowledge graph entities',
  'search files by name',
  'write a file',
  'create a directory',
  'move a file',
  'get file info',
  'add observations',
  'delete entities',
];

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function addTools(world: ChatWorld, count = TOOLS): Promise<void> {
  const folder = join(world.dir, 'corpus');
  await mkdir(folder, { recursive: true });
  for (const [name, tools] of corpusByServer(count)) {
    const file = join(folder, `${name}.json`);
    await writeFile(file, JSON.stringify(tools));
    await world.harness.call('servers.add', {
      name,
      config: { command: process.execPath, args: [CORPUS_SERVER], env: { BERTH_CORPUS_TOOLS: file } },
    });
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    const states = await world.harness.call<ServerState[]>('servers.list', {});
    const ready = states.filter((state) => state.status === 'ready').reduce((sum, s) => sum + s.tools.length, 0);
    if (ready >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${ready} of ${count} tools ready after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The body without any cache mark: the same requests as a host that does not ask for caching would send. */
function unmarked(body: MessagesRequestBody): MessagesRequestBody {
  return JSON.parse(JSON.stringify(body, (key, value: unknown) => (key === 'cache_control' ? undefined : value)));
}

/** The cached share of the input of these requests, billed afresh by a new cache (as the model reads them). */
function replayedShare(bodies: readonly MessagesRequestBody[]): number {
  const cache = new FakePromptCache();
  let read = 0;
  let all = 0;
  for (const body of bodies) {
    const bill = cache.bill(promptView(body));
    if ('error' in bill) throw new Error(bill.error);
    read += bill.cache_read_input_tokens;
    all += bill.input_tokens + bill.cache_read_input_tokens + bill.cache_creation_input_tokens;
  }
  return read / all;
}

describe('prompt caching through the host', () => {
  it(
    'reads at least 80% of the input of a 20-turn tool conversation from the cache; unmarked, the same requests read none',
    { timeout: 180_000 },
    async () => {
      world = await startChatWorld();
      const { harness, fake } = world;
      await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
      await addTools(world);
      const conversation = await newConversation(harness);
      for (let turn = 0; turn < TURNS; turn += 1) {
        fake.script([
          // Each turn calls another of the 40 tools, then answers with what it said.
          (request) => ({ toolUses: [{ name: request.body?.tools?.[turn % TOOLS]?.name ?? '', input: { turn } }] }),
          { text: `Turn ${turn + 1}: {{lastToolResult}}` },
        ]);
        const mark = harness.events.length;
        await harness.call('chat.send', { id: conversation.id, text: `Please run tool number ${turn + 1}.` });
        const prompt = await pendingAfter(harness, mark, 'tool-call');
        await harness.call('pending.answer', { id: prompt.id, response: { decision: 'allow-once' } });
        expect(await turnEndAfter(harness, mark, conversation.id)).toMatchObject({ type: 'turn-finished' });
      }

      expect(fake.requests).toHaveLength(2 * TURNS);
      const bodies = fake.requests.map((request) => request.body as MessagesRequestBody);
      expect(bodies[0]?.tools).toHaveLength(TOOLS);
      const saved = await harness.call<Conversation>('chat.get', { id: conversation.id });
      const total = conversationUsage(saved.messages);
      if (total === undefined) throw new Error('no usage saved');
      expect(total.requests).toBe(2 * TURNS);
      const share = (total.cacheReadTokens ?? 0) / promptTokens(total);
      expect(share).toBeGreaterThanOrEqual(0.8);
      // What the cache saved at Anthropic's prices, net of the writes: most of the input's price.
      expect(total.cacheSavedTokens ?? 0).toBeGreaterThan(0.6 * promptTokens(total));
      // The fake billed the host's requests as a fresh cache bills them again…
      expect(replayedShare(bodies)).toBeCloseTo(share, 6);
      // …and the same requests without Berth's marks read nothing from the cache.
      expect(replayedShare(bodies.map(unmarked))).toBe(0);
    },
  );

  it(
    'keeps at least 80% of the input cached over a tool search conversation that loads a tool in each of 10 turns',
    { timeout: 180_000 },
    async () => {
      world = await startChatWorld();
      const { harness, fake } = world;
      await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
      // Above tool search's threshold (128): the model searches and loads what it needs.
      await addTools(world, SEARCH_TOOLS);
      const conversation = await newConversation(harness);
      for (const [turn, query] of LOAD_QUERIES.entries()) {
        const step = { searchAndUse: { query, input: { turn } } };
        fake.script([step, step, step, step]);
        const mark = harness.events.length;
        await harness.call('chat.send', { id: conversation.id, text: `Please ${query}.` });
        const prompt = await pendingAfter(harness, mark, 'tool-call');
        await harness.call('pending.answer', { id: prompt.id, response: { decision: 'allow-once' } });
        expect(await turnEndAfter(harness, mark, conversation.id)).toMatchObject({ type: 'turn-finished' });
      }

      const bodies = fake.requests.map((request) => request.body as MessagesRequestBody);
      expect(bodies).toHaveLength(4 * LOAD_QUERIES.length);
      // Every request lists the same tools: search, load, and the 200 deferred.
      expect(new Set(bodies.map((body) => JSON.stringify(body.tools))).size).toBe(1);
      expect(bodies[0]?.tools).toHaveLength(SEARCH_TOOLS + 2);
      const saved = await harness.call<Conversation>('chat.get', { id: conversation.id });
      expect(saved.loadedTools?.length).toBeGreaterThanOrEqual(5);
      const total = conversationUsage(saved.messages);
      if (total === undefined) throw new Error('no usage saved');
      const share = (total.cacheReadTokens ?? 0) / promptTokens(total);
      expect(share).toBeGreaterThanOrEqual(0.8);
      expect(replayedShare(bodies)).toBeCloseTo(share, 6);
      // The same conversation with the loaded tools appended to the list instead (Berth's path for providers
      // without deferred loading), marked as Berth marks it: each load changes the list, and the cache is lost.
      const appended = bodies.map((body) => {
        const plain = unmarked(body) as unknown as { model: string; tools: Tool[]; messages: MessageParam[] };
        return withCacheBreakpoints(withoutDeferral(plain)) as unknown as MessagesRequestBody;
      });
      expect(replayedShare(appended)).toBeLessThan(share - 0.1);
    },
  );
});
