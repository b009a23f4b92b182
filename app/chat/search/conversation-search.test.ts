import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../shared/domain/chat';
import { ConversationSchema } from '../../../shared/domain/chat';
import { ConversationStore } from '../conversation-store';
import { ConversationSearch, parseQuery, SEARCH_INDEX_FILE_NAME } from './conversation-search';
import { FullTextIndex } from './full-text-index';
import { TOOL_TEXT_CAP } from './search-text';

function said(role: 'user' | 'assistant', text: string, id = `m-${Math.random()}`): ChatMessage {
  return { id, role, createdAt: 1, content: [{ type: 'text', text }] };
}

function toolResult(text: string): ChatMessage {
  return {
    id: `r-${Math.random()}`,
    role: 'user',
    createdAt: 1,
    content: [{ type: 'tool_result', toolUseId: 'call-1', isError: false, content: [{ type: 'text', text }] }],
  };
}

describe('ConversationSearch', () => {
  let dir: string;
  let clock: number;
  let logged: string[];
  const opened: ConversationSearch[] = [];

  async function open(): Promise<{ store: ConversationStore; search: ConversationSearch }> {
    const store = await ConversationStore.open({ dir, now: () => clock });
    const search = new ConversationSearch({
      conversationsDir: store.conversationsDir,
      store,
      log: (level, text) => logged.push(`${level}: ${text}`),
    });
    opened.push(search);
    await search.caughtUp;
    return { store, search };
  }

  async function conversation(store: ConversationStore, title: string, messages: ChatMessage[]): Promise<string> {
    clock += 1_000;
    const created = await store.create({ model: 'claude-a', title });
    for (const message of messages) await store.appendMessage(created.id, message);
    return created.id;
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-search-'));
    clock = 1_000;
    logged = [];
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((search) => search.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('finds every word in any message (the person’s, the model’s, a tool’s), title first, then newest', async () => {
    const { store, search } = await open();
    const ferry = await conversation(store, 'Trip', [
      said('user', 'When does the Kiel ferry leave?'),
      said('assistant', 'The ferry to Oslo leaves Kiel at 14:00.'),
    ]);
    const tool = await conversation(store, 'Schedules', [
      said('user', 'Look it up'),
      toolResult('{"route":"Kiel–Oslo","vessel":"Color Fantasy","ferry":true}'),
    ]);
    const titled = await conversation(store, 'Kiel ferry notes', [said('user', 'nothing here')]);
    await conversation(store, 'Other', [said('user', 'Only Kiel, no boat')]);

    const result = await search.search('kiel FERRY', 20);
    expect(result.complete).toBe(true);
    expect(result.total).toBe(3);
    // The title holding both words first, then the newest of the rest.
    expect(result.hits.map((hit) => hit.id)).toEqual([titled, tool, ferry]);
    expect(result.hits[0]!.snippet).toBeUndefined();
    expect(result.hits[1]!.snippet).toMatchObject({ role: 'tool' });
    const snippet = result.hits[2]!.snippet!;
    expect(snippet).toMatchObject({ role: 'user', text: 'When does the Kiel ferry leave?', cutStart: false });
    expect(snippet.highlights.map(({ start, end }) => snippet.text.slice(start, end))).toEqual(['Kiel', 'ferry']);
    expect((await search.search('kiel ferry oslo vessel', 20)).hits.map((hit) => hit.id)).toEqual([tool]);
    expect((await search.search('submarine', 20)).total).toBe(0);
  });

  it('finds Chinese, Japanese and Korean text without spaces, and accents either way', async () => {
    const { store, search } = await open();
    const chinese = await conversation(store, '备份', [said('assistant', '请先备份数据库，然后再升级服务器。')]);
    const korean = await conversation(store, '서버', [said('user', '서버를 다시 시작했어요')]);
    const french = await conversation(store, 'Café', [said('user', 'Le CAFÉ est fermé à Zürich')]);

    const found = await search.search('数据库', 10);
    expect(found.hits.map((hit) => hit.id)).toEqual([chinese]);
    const { text, highlights } = found.hits[0]!.snippet!;
    expect(highlights.map(({ start, end }) => text.slice(start, end))).toEqual(['数据库']);
    expect((await search.search('数据表', 10)).total).toBe(0);
    // One character: every bigram holding it.
    expect((await search.search('库', 10)).hits.map((hit) => hit.id)).toEqual([chinese]);
    expect((await search.search('시작', 10)).hits.map((hit) => hit.id)).toEqual([korean]);
    expect((await search.search('ferme zurich', 10)).hits.map((hit) => hit.id)).toEqual([french]);
  });

  it('matches the word being typed as a prefix, the ones before it whole', async () => {
    expect(parseQuery('Kiel fer')).toEqual([
      { term: 'kiel', prefix: false },
      { term: 'fer', prefix: true },
    ]);
    expect(parseQuery('kiel ferry ')).toEqual([
      { term: 'kiel', prefix: false },
      { term: 'ferry', prefix: false },
    ]);
    const { store, search } = await open();
    const id = await conversation(store, 'Trip', [said('user', 'the Kiel ferry')]);
    expect((await search.search('kiel fer', 10)).hits.map((hit) => hit.id)).toEqual([id]);
    expect((await search.search('kie ferry', 10)).total).toBe(0);
  });

  it('follows edits, deletes and restores as they are saved', async () => {
    const { store, search } = await open();
    const id = await conversation(store, 'Trip', [said('user', 'the Kiel ferry')]);
    expect((await search.search('ferry', 10)).total).toBe(1);
    await store.replaceMessages(id, [said('user', 'the Oslo train')]);
    expect((await search.search('ferry', 10)).total).toBe(0);
    expect((await search.search('train', 10)).hits.map((hit) => hit.id)).toEqual([id]);
    await store.delete(id);
    expect((await search.search('train', 10)).total).toBe(0);
    await store.restore(id);
    expect((await search.search('train', 10)).hits.map((hit) => hit.id)).toEqual([id]);
  });

  it('indexes only the beginning of a huge tool result', async () => {
    const { store, search } = await open();
    const huge = `early words ${'lorem ipsum '.repeat(200_000)} buried treasure`;
    const id = await conversation(store, 'Big', [said('user', 'dump it'), toolResult(huge)]);
    expect((await search.search('early', 10)).hits.map((hit) => hit.id)).toEqual([id]);
    expect((await search.search('treasure', 10)).total).toBe(0);
    await search.flush();
    const size = (await stat(join(store.conversationsDir, SEARCH_INDEX_FILE_NAME))).size;
    expect(size).toBeLessThan(TOOL_TEXT_CAP);
  });

  it('is saved beside the conversations and loaded at the next start without reading them again', async () => {
    const first = await open();
    const id = await conversation(first.store, 'Trip', [said('user', 'the Kiel ferry')]);
    const other = await conversation(first.store, 'Other', [said('user', 'a quiet harbour')]);
    await first.search.close();
    const saved = FullTextIndex.parse(await readFile(join(first.store.conversationsDir, SEARCH_INDEX_FILE_NAME)));
    expect(typeof saved === 'string' ? saved : saved.documentIds().sort()).toEqual([id, other].sort());

    logged = [];
    const reads: string[] = [];
    const store = await ConversationStore.open({ dir, now: () => clock });
    const watched = Object.assign(Object.create(store) as ConversationStore, {
      readForSearch: (conversationId: string) => {
        reads.push(conversationId);
        return store.readForSearch(conversationId);
      },
      readForSnippet: (conversationId: string) => {
        reads.push(`snippet ${conversationId}`);
        return store.readForSnippet(conversationId);
      },
    });
    const search = new ConversationSearch({
      conversationsDir: store.conversationsDir,
      store: watched,
      log: (level, line) => logged.push(`${level}: ${line}`),
    });
    opened.push(search);
    await search.caughtUp;
    expect(logged).toEqual([]);
    expect(reads).toEqual([]);
    expect((await search.search('ferry', 10)).hits.map((hit) => hit.id)).toEqual([id]);
    // Only the hit is read, for its snippet.
    expect(reads).toEqual([`snippet ${id}`]);
    expect((await search.search('harbour', 10)).hits.map((hit) => hit.id)).toEqual([other]);
  });

  it('indexes again a conversation changed behind Berth’s back, and drops one removed', async () => {
    const first = await open();
    const id = await conversation(first.store, 'Trip', [said('user', 'the Kiel ferry')]);
    const gone = await conversation(first.store, 'Other', [said('user', 'a quiet harbour')]);
    await first.search.close();
    const path = join(first.store.conversationsDir, `${id}.json`);
    const saved = JSON.parse(await readFile(path, 'utf8')) as { messages: ChatMessage[] };
    saved.messages = [said('user', 'edited by hand: a lighthouse')];
    await writeFile(path, JSON.stringify(saved));
    await rm(join(first.store.conversationsDir, `${gone}.json`));

    logged = [];
    const { search } = await open();
    expect(logged).toEqual([
      'info: The search index was out of date (1 conversations new or changed, 1 gone); updating it',
    ]);
    expect((await search.search('lighthouse', 10)).hits.map((hit) => hit.id)).toEqual([id]);
    expect((await search.search('ferry', 10)).total).toBe(0);
    expect((await search.search('harbour', 10)).total).toBe(0);
  });

  it('rebuilds a corrupt index file with a log line, and writes a good one', async () => {
    const first = await open();
    const id = await conversation(first.store, 'Trip', [said('user', 'the Kiel ferry')]);
    await first.search.close();
    const file = join(first.store.conversationsDir, SEARCH_INDEX_FILE_NAME);
    const good = await readFile(file);
    const wrongNumber = Buffer.from(good);
    wrongNumber.writeUInt32LE(0xffffffff, wrongNumber.length - 4);
    for (const broken of [Buffer.from('{"version":1}'), good.subarray(0, good.length / 2), wrongNumber]) {
      await writeFile(file, broken);
      logged = [];
      const { search } = await open();
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(
        /^warning: Rebuilding search over 1 conversations: the search index file .* could not be used: /,
      );
      expect((await search.search('ferry', 10)).hits.map((hit) => hit.id)).toEqual([id]);
      await search.close();
      const rebuilt = FullTextIndex.parse(await readFile(file));
      expect(typeof rebuilt === 'string' ? rebuilt : rebuilt.documentIds()).toEqual([id]);
    }
  });

  it('reads a hit’s snippet from its file without checking the whole conversation against the schema', async () => {
    const first = await open();
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1)
      ids.push(
        await conversation(first.store, `Trip ${n}`, [
          said('user', `leg ${n}`),
          said('assistant', 'the Kiel ferry leaves at nine'),
        ]),
      );
    await first.search.close();
    // A fresh start: nothing is in memory, so each snippet comes from its file.
    const { search } = await open();
    const parse = vi.spyOn(ConversationSchema, 'safeParse');
    try {
      const result = await search.search('ferry', 50);
      expect(result.hits.map((hit) => hit.id).sort()).toEqual([...ids].sort());
      for (const hit of result.hits)
        expect(hit.snippet).toMatchObject({ text: 'the Kiel ferry leaves at nine', role: 'assistant' });
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });
});
