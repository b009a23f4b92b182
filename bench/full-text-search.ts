import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationStore } from '../app/chat/conversation-store';
import { ConversationSearch } from '../app/chat/search/conversation-search';
import { writeConversations } from './generators/conversations';
import { buildSearchableConversations } from './generators/searchable-conversations';
import type { Measure } from './scale-table';
import { median } from './stats';

export const SEARCH_CONVERSATIONS = 5_000;
/** Each query is asked this many times (the first after the load included). */
const REPEATS = 5;

export const FULL_TEXT_SEARCH_MEASURES: Measure[] = [
  {
    key: 'queryMs',
    label:
      'a query (median of a common word, two words, a rare word, a word being typed, a CJK phrase, one CJK character; 50 hits with snippets), ms',
    target: '< 100 ms',
    pass: (v) => v < 100,
  },
  { key: 'queryMaxMs', label: 'the slowest query, ms', target: '' },
  { key: 'scanMs', label: 'baseline: one scan of every conversation file for a word, ms', target: '' },
  { key: 'queryVsScan', label: 'query / scan', target: '', digits: 3 },
  { key: 'storeOpenMs', label: 'start: the conversation list opened from its index, ms', target: '' },
  {
    key: 'loadMs',
    label: 'start: the search index loaded and checked (after the list, off the ready path), ms',
    target: '',
  },
  { key: 'loadVsOpen', label: 'search index load / list open', target: '', digits: 2 },
  { key: 'rebuildMs', label: 'first start: the index built from every file (in the background), ms', target: '' },
  { key: 'indexMb', label: 'the index file, MB', target: '' },
];

/** One round: 5,000 generated conversations written, indexed once (the first start), then a start and queries timed. */
export async function fullTextSearchRound(): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-bench-search-'));
  try {
    const { conversations, planted } = buildSearchableConversations({ count: SEARCH_CONVERSATIONS });
    await writeConversations(dir, conversations);
    const log = (): void => undefined;
    let store = await ConversationStore.open({ dir });
    let started = performance.now();
    let search = new ConversationSearch({ conversationsDir: store.conversationsDir, store, log });
    await search.caughtUp;
    const rebuildMs = performance.now() - started;
    await search.close();
    await store.flushIndex();

    globalThis.gc?.();
    started = performance.now();
    store = await ConversationStore.open({ dir });
    const storeOpenMs = performance.now() - started;
    started = performance.now();
    search = new ConversationSearch({ conversationsDir: store.conversationsDir, store, log });
    await search.loaded;
    const loadMs = performance.now() - started;
    const indexMb = (await readFile(join(store.conversationsDir, 'search.v1.json'))).length / 1024 / 1024;

    const queries = ['the', 'server error', planted.rare.word, 'kari', planted.cjk.phrase, '数'];
    const times: number[] = [];
    for (let round = 0; round < REPEATS; round += 1)
      for (const query of queries) {
        started = performance.now();
        const result = await search.search(query, 50);
        times.push(performance.now() - started);
        if (query === planted.rare.word && result.total !== planted.rare.ids.length)
          throw new Error(`"${query}" found ${result.total} conversations, expected ${planted.rare.ids.length}`);
      }
    await search.close();

    // What search would cost without an index: every file read and looked through.
    started = performance.now();
    let found = 0;
    for (const { id } of store.list())
      if ((await readFile(join(store.conversationsDir, `${id}.json`), 'utf8')).includes(planted.rare.word)) found += 1;
    const scanMs = performance.now() - started;
    if (found !== planted.rare.ids.length) throw new Error(`the scan found ${found} conversations`);

    const queryMs = median(times);
    return {
      queryMs,
      queryMaxMs: Math.max(...times),
      scanMs,
      queryVsScan: queryMs / scanMs,
      storeOpenMs,
      loadMs,
      loadVsOpen: loadMs / storeOpenMs,
      rebuildMs,
      indexMb,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
