import { copyFile, mkdir, mkdtemp, open, readFile, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/domain/chat';
import { ConversationStore } from './conversation-store';

function userMessage(text: string): ChatMessage {
  return { id: `m-${text}`, role: 'user', createdAt: 1, content: [{ type: 'text', text }] };
}

describe('the conversations index', () => {
  let dir: string;
  let clock: number;
  let notices: string[];
  const now = (): number => clock;
  const conversationsDir = (): string => join(dir, 'conversations');
  const indexPath = (): string => join(conversationsDir(), 'index.v1.json');
  const fileOf = (id: string): string => join(conversationsDir(), `${id}.json`);
  let opened: ConversationStore[] = [];
  const openStore = async (): Promise<ConversationStore> => {
    const store = await ConversationStore.open({ dir, now, onNotice: (message) => notices.push(message) });
    opened.push(store);
    return store;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-chat-index-'));
    clock = 1_000;
    notices = [];
  });
  afterEach(async () => {
    // Index writes still running belong to this test, not the next one.
    await Promise.all(opened.map((store) => store.flushIndex()));
    opened = [];
    await rm(dir, { recursive: true, force: true });
  });

  /** Three conversations after a rename, a message, a delete and a restore; the index flushed. */
  async function populated(): Promise<{ store: ConversationStore; ids: string[] }> {
    const store = await openStore();
    const ids: string[] = [];
    for (const title of ['One', 'Two', 'Three', 'Four']) {
      clock += 1_000;
      ids.push((await store.create({ model: 'claude-a', title })).id);
    }
    clock += 1_000;
    await store.rename(ids[0]!, 'One renamed');
    await store.appendMessage(ids[1]!, userMessage('hello'));
    await store.delete(ids[2]!);
    await store.delete(ids[3]!);
    await store.restore(ids[3]!);
    await store.flushIndex();
    notices = [];
    return { store, ids };
  }

  it('stays consistent with every save, rename, delete and restore, is private, and is what the next start uses', async () => {
    const { store, ids } = await populated();
    const index = JSON.parse(await readFile(indexPath(), 'utf8')) as { entries: { summary: { id: string; title: string; messageCount: number } }[] };
    const indexed = index.entries.map((entry) => entry.summary).sort((a, b) => a.title.localeCompare(b.title));
    expect(indexed).toEqual([...store.list()].sort((a, b) => a.title.localeCompare(b.title)));
    expect(indexed.map((summary) => summary.id)).not.toContain(ids[2]);
    expect((await stat(indexPath())).mode & 0o777).toBe(0o600);

    // Overwrite one file in place with garbage of the same size and put its mtime back: only a start
    // that trusts the index (and does not read the file) still lists it with its title.
    // (A whole-second mtime first, which utimes can put back exactly; the next start re-indexes it.)
    const path = fileOf(ids[0]!);
    await utimes(path, 1_700_000_000, 1_700_000_000);
    await (await openStore()).flushIndex();
    const before = await stat(path);
    const handle = await open(path, 'r+');
    await handle.write(Buffer.alloc(before.size, 'x'), 0, before.size, 0);
    await handle.close();
    await utimes(path, 1_700_000_000, 1_700_000_000);
    notices = [];
    const reopened = await openStore();
    expect(reopened.list()).toEqual(store.list());
    expect(notices).toEqual([]);
  });

  it('rebuilds a missing index and a corrupt one from the files, saying so', async () => {
    const { store } = await populated();
    const expected = store.list();
    await unlink(indexPath());
    const first = await openStore();
    expect(first.list()).toEqual(expected);
    expect(notices).toEqual([expect.stringMatching(/Rebuilt the conversations index from 3 files: there is no index yet/)]);
    await first.flushIndex();

    await writeFile(indexPath(), '{"version":1,"entr');
    notices = [];
    const rebuilt = await openStore();
    expect(rebuilt.list()).toEqual(expected);
    expect(notices).toEqual([expect.stringMatching(/Rebuilt .* not valid JSON/)]);
    await rebuilt.flushIndex();
    notices = [];
    await openStore();
    expect(notices).toEqual([]);
  });

  it('notices files edited, added or removed behind its back', async () => {
    const { store, ids } = await populated();
    // Edited by hand: the title changes and so does the file's size and mtime.
    const edited = JSON.parse(await readFile(fileOf(ids[1]!), 'utf8')) as { title: string };
    await writeFile(fileOf(ids[1]!), JSON.stringify({ ...edited, title: 'Edited by hand' }));
    // Added: a copy under a new id.
    const addedId = '0b2c5a8e-1111-4222-8333-944445555666';
    const copy = JSON.parse(await readFile(fileOf(ids[0]!), 'utf8')) as object;
    await writeFile(fileOf(addedId), JSON.stringify({ ...copy, id: addedId, title: 'Copied in' }));
    // Removed.
    await unlink(fileOf(ids[3]!));

    const reopened = await openStore();
    const titles = reopened.list().map((summary) => summary.title).sort();
    expect(titles).toEqual(['Copied in', 'Edited by hand', 'One renamed']);
    expect(notices).toEqual([expect.stringMatching(/out of date \(2 files new or changed outside Berth, 1 gone\)/)]);
    expect(store.list()).toHaveLength(3);
  });

  it('can never make a conversation disappear: an index from before a crash still lists every file', async () => {
    const store = await openStore();
    const early = (await store.create({ model: 'claude-a', title: 'Early' })).id;
    await store.flushIndex();
    await copyFile(indexPath(), join(dir, 'old-index.json'));
    clock += 1_000;
    const late = (await store.create({ model: 'claude-a', title: 'Late' })).id;
    clock += 1_000;
    await store.appendMessage(early, userMessage('after the old index'));
    await store.flushIndex();
    // The crash: the conversation files were written, the index on disk is the old one.
    await copyFile(join(dir, 'old-index.json'), indexPath());

    const reopened = await openStore();
    expect(reopened.list().map((summary) => [summary.id, summary.messageCount])).toEqual([
      [early, 1],
      [late, 0],
    ]);
  });

  it('says so when the index cannot be written, keeps the conversation, and repairs the index at the next start', async () => {
    // A folder where the index file should be: every write of it fails.
    await mkdir(indexPath(), { recursive: true });
    const store = await openStore();
    const saved = await store.create({ model: 'claude-a', title: 'Kept anyway' });
    await store.flushIndex();
    expect(notices).toEqual([expect.stringMatching(/^The conversations index could not be written \(.+\); it will be rebuilt at the next start$/)]);
    expect(JSON.parse(await readFile(fileOf(saved.id), 'utf8'))).toMatchObject({ title: 'Kept anyway' });

    await rm(indexPath(), { recursive: true });
    notices = [];
    expect((await openStore()).list().map((summary) => summary.title)).toEqual(['Kept anyway']);
    expect(notices).toEqual([expect.stringMatching(/Rebuilt the conversations index from 1 files/)]);
  });
});
