import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusByServer } from '../../bench/generators/real-tool-corpus';
import { lastToolResultText } from '../../e2e/fake-llm/turns';
import type { ChatToolsView, LoadedToolsChange } from '../../shared/contract/chat';
import { estimateTokens } from '../../shared/domain/chat-usage';
import { visibleTools } from '../../app/providers/deferred-tools';
import type { Conversation } from '../../shared/domain/chat';
import { MAX_LOADED_TOOLS, TOOL_SEARCH_TOKEN_BUDGET } from '../../shared/domain/tool-search';
import type { ServerState } from '../../shared/domain/server';
import { newConversation, pendingAfter, startChatWorld, TEST_API_KEY, turnEndAfter } from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

// 2,000 tools from fixture servers of ours (e2e/fixtures/servers/corpus-tools.mjs listing the real
// tool definitions of the npm servers, varied: bench/generators/real-tool-corpus.ts), through the
// whole host: every request of a turn that searches, loads (past the loaded-tools cap) and calls
// stays under the fixed tool budget.

const CORPUS_SERVER = join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'servers', 'corpus-tools.mjs');

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Writes each workspace server's tools to a file and adds the servers; resolves when all are ready. */
async function addCorpusServers(world: ChatWorld, count = 2_000): Promise<number> {
  const { harness } = world;
  const folder = join(world.dir, 'corpus');
  await mkdir(folder, { recursive: true });
  const servers = [...corpusByServer(count)];
  for (const [name, tools] of servers) {
    const file = join(folder, `${name}.json`);
    await writeFile(file, JSON.stringify(tools));
    await harness.call('servers.add', {
      name,
      config: { command: process.execPath, args: [CORPUS_SERVER], env: { BERTH_CORPUS_TOOLS: file } },
    });
  }
  const ready = async (): Promise<number> =>
    (await harness.call<ServerState[]>('servers.list', {}))
      .filter((state) => state.status === 'ready')
      .reduce((sum, state) => sum + state.tools.length, 0);
  const deadline = Date.now() + 60_000;
  while ((await ready()) < count) {
    if (Date.now() > deadline) throw new Error(`only ${await ready()} of ${count} tools ready after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return servers.length;
}

describe('tool search through the host, 2,000 tools', () => {
  it(
    'keeps every request of a search → load → call turn under the tool budget, and asks before the call',
    { timeout: 120_000 },
    async () => {
      world = await startChatWorld();
      const { harness, fake } = world;
      await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
      expect(await addCorpusServers(world)).toBe(14);
      const conversation = await newConversation(harness);
      const view = await harness.call<ChatToolsView>('chat.tools', { id: conversation.id });
      expect(view.tools).toHaveLength(2_000);
      expect(view.toolSearch).toMatchObject({ mode: 'auto', active: true, loaded: [] });
      expect(view.toolSearch?.fullTokensEstimate).toBeGreaterThan(100_000);

      let target = '';
      const many = (request: Parameters<typeof lastToolResultText>[0]): string[] =>
        [...lastToolResultText(request).matchAll(/^- (\S+)/gm)].map((match) => match[1] ?? '');
      fake.script([
        { toolUses: [{ name: 'search_tools', input: { query: 'list directory', limit: 20 } }] },
        // More than the cap, in three loads: with deferred loading (Anthropic) all stay loaded, each where it was loaded.
        (request) => ({
          toolUses: [
            { name: 'load_tools', input: { names: many(request.body).slice(0, 10) } },
            { name: 'search_tools', input: { query: 'knowledge graph entities', limit: 20 } },
          ],
        }),
        (request) => ({
          toolUses: [
            { name: 'load_tools', input: { names: many(request.body).slice(0, 10) } },
            { name: 'search_tools', input: { query: 'read a text file' } },
          ],
        }),
        (request) => {
          target = many(request.body)[0] ?? '';
          return { toolUses: [{ name: 'load_tools', input: { names: [target] } }] };
        },
        () => ({ toolUses: [{ name: target, input: { path: 'notes.txt' } }] }),
        { text: 'Read it.' },
      ]);
      const mark = harness.events.length;
      await harness.call('chat.send', { id: conversation.id, text: 'Read notes.txt' });
      const prompt = await pendingAfter(harness, mark, 'tool-call');
      expect(prompt).toMatchObject({
        kind: 'tool-call',
        payload: expect.objectContaining({ tool: expect.stringMatching(/read.?text.?file/i) }),
      });
      await harness.call('pending.answer', { id: prompt.id, response: { decision: 'allow-once' } });
      expect(await turnEndAfter(harness, mark, conversation.id)).toMatchObject({ type: 'turn-finished' });

      expect(fake.requests).toHaveLength(6);
      // What the model reads of the tool list: the deferred tools only once loaded (the fake bills the same).
      const sizes = fake.requests.map((request) =>
        estimateTokens(JSON.stringify(visibleTools(request.body?.tools, request.body?.messages ?? []))),
      );
      // The list itself is the same in every request: loading adds to the conversation only.
      const lists = new Set(fake.requests.map((request) => JSON.stringify(request.body?.tools)));
      expect(lists.size).toBe(1);
      for (const size of sizes) expect(size).toBeLessThanOrEqual(TOOL_SEARCH_TOKEN_BUDGET);
      expect(Math.max(...sizes)).toBeLessThan((view.toolSearch?.fullTokensEstimate ?? 0) / 10);
      expect(lastToolResultText(fake.requests[5]?.body)).toMatch(/ran with \{"path":"notes.txt"\}/);

      const saved = await harness.call<Conversation>('chat.get', { id: conversation.id });
      // No budget unloads the oldest: their definitions are part of the cached conversation.
      expect(saved.loadedTools?.length).toBe(21);
      expect(saved.loadedTools?.length).toBeGreaterThan(MAX_LOADED_TOOLS);
      expect(saved.loadedTools?.at(-1)).toMatch(/read.?text.?file/i);
      const after = await harness.call<ChatToolsView>('chat.tools', { id: conversation.id });
      expect(after.toolSearch?.loaded.length).toBe(saved.loadedTools?.length);
      // The renderer learns each change from its event (no chat.tools per message): one per load, the last one the list as saved.
      const changes = harness.events
        .slice(mark)
        .filter((event) => event.topic === 'chat.loadedToolsChanged')
        .map((event) => event.payload as LoadedToolsChange);
      expect(changes).toHaveLength(3);
      expect(changes.at(-1)).toEqual({ id: conversation.id, loadedTools: saved.loadedTools });
      const removed = saved.loadedTools?.[0] ?? '';
      const unloadMark = harness.events.length;
      await harness.call('chat.unloadTools', { id: conversation.id, tools: [removed] });
      const unloaded = harness.events.slice(unloadMark).find((event) => event.topic === 'chat.loadedToolsChanged')
        ?.payload as LoadedToolsChange | undefined;
      expect(unloaded?.loadedTools).toEqual(saved.loadedTools?.slice(1));
    },
  );
});
