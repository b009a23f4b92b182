import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConversations } from '../../bench/generators/conversations';
import { buildSearchableConversations } from '../../bench/generators/searchable-conversations';
import type { PlantedWords } from '../../bench/generators/searchable-conversations';
import { ConversationStore } from '../../app/chat/conversation-store';
import { ConversationSearch, SEARCH_INDEX_FILE_NAME } from '../../app/chat/search/conversation-search';

const COUNT = 5_000;

/** Full-text search over a heavy user's 5,000 conversations, built from the files, kept up to date, rebuilt when broken. */
describe('full-text search over 5,000 conversations', () => {
  let dir: string;
  let planted: PlantedWords;
  let store: ConversationStore;
  let search: ConversationSearch;
  const logged: string[] = [];

  async function open(): Promise<void> {
    store = await ConversationStore.open({ dir });
    search = new ConversationSearch({
      conversationsDir: store.conversationsDir,
      store,
      log: (level, text) => logged.push(`${level}: ${text}`),
    });
    await search.caughtUp;
  }

  async function ids(query: string): Promise<string[]> {
    const result = await search.search(query, 100);
    expect(result.complete).toBe(true);
    return result.hits.map((hit) => hit.id);
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-search-5000-'));
    const built = buildSearchableConversations({ count: COUNT });
    planted = built.planted;
    await writeConversations(dir, built.conversations);
    await open();
  }, 240_000);
  afterAll(async () => {
    await search.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('builds the index from the files (with a log line) and finds exactly the conversations holding the words', async () => {
    expect(logged).toEqual([`info: Building the search index over ${COUNT} conversations`]);
    // Generated newest first: the hits come in the same order.
    expect(await ids(planted.rare.word)).toEqual(planted.rare.ids);
    expect(await ids(planted.inTool.word)).toEqual(planted.inTool.ids);
    // More than one answer holds: the first 100, and how many in all.
    expect(planted.cjk.ids.length).toBeGreaterThan(100);
    expect(await ids(planted.cjk.phrase)).toEqual(planted.cjk.ids.slice(0, 100));
    expect((await search.search(planted.cjk.phrase, 100)).total).toBe(planted.cjk.ids.length);
    expect(await ids(`${planted.rare.word} ${planted.inTool.word}`)).toEqual(
      planted.rare.ids.filter((id) => planted.inTool.ids.includes(id)),
    );
    const hit = (await search.search(planted.cjk.phrase, 1)).hits[0]!;
    const { text, highlights } = hit.snippet!;
    expect(highlights.map(({ start, end }) => text.slice(start, end))).toContain(planted.cjk.phrase);
  });

  it('follows an edit and a delete', async () => {
    const [edited, deleted] = planted.rare.ids;
    await store.replaceMessages(edited!, [
      { id: 'm0', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'rewritten: a brandnewword' }] },
    ]);
    await store.delete(deleted!);
    expect(await ids(planted.rare.word)).toEqual(planted.rare.ids.slice(2));
    expect(await ids('brandnewword')).toEqual([edited]);
  });

  it('loads its file at the next start without a log line, and rebuilds a corrupt one', async () => {
    await search.close();
    logged.length = 0;
    await open();
    expect(logged).toEqual([]);
    expect(await ids('brandnewword')).toEqual([planted.rare.ids[0]]);

    await search.close();
    const file = join(store.conversationsDir, SEARCH_INDEX_FILE_NAME);
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await open();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^warning: Rebuilding search over 4999 conversations: .* could not be used: /);
    expect(await ids(planted.rare.word)).toEqual(planted.rare.ids.slice(2));
    expect(await ids(planted.inTool.word)).toEqual(planted.inTool.ids);
  }, 240_000);
});
