import { copyFile, mkdir, mkdtemp, open, readFile, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ConversationSummary } from '../../shared/domain/chat';
import { INDEX_FILE_NAME, IndexWriter, type FileIdentity, type IndexEntry } from './conversation-index';
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
    const index = JSON.parse(await readFile(indexPath(), 'utf8')) as {
      entries: { summary: { id: string; title: string; messageCount: number } }[];
    };
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
    expect(notices).toEqual([
      expect.stringMatching(/Rebuilt the conversations index from 3 files: there is no index yet/),
    ]);
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

  it('sets aside an index of the wrong shape, saying which entry is wrong, and rebuilds it', async () => {
    const { store } = await populated();
    const expected = store.list();
    const index = JSON.parse(await readFile(indexPath(), 'utf8')) as {
      entries: Array<{ summary: Record<string, unknown> }>;
    };
    index.entries[1]!.summary.messageCount = 'many';
    await writeFile(indexPath(), JSON.stringify(index));

    const rebuilt = await openStore();
    expect(rebuilt.list()).toEqual(expected);
    expect(notices).toEqual([
      `Rebuilt the conversations index from 3 files: the index does not have the expected shape (entry 1: summary.messageCount is not a count)`,
    ]);
    await rebuilt.flushIndex();
    notices = [];
    await openStore();
    expect(notices).toEqual([]);
  });

  it('takes file identities already seen at this start instead of stat-ing the files again', async () => {
    const { store, ids } = await populated();
    const expected = store.list();
    const identityOf = async (id: string): Promise<FileIdentity> => {
      const found = await stat(fileOf(id));
      return { size: found.size, mtimeMs: found.mtimeMs, ino: found.ino };
    };
    // Seen as it was, then edited: trusted as seen (its entry still describes the file that was seen).
    const seenBeforeEdit = await identityOf(ids[0]!);
    const edited = JSON.parse(await readFile(fileOf(ids[0]!), 'utf8')) as { title: string };
    await writeFile(fileOf(ids[0]!), JSON.stringify({ ...edited, title: 'Edited after it was seen' }));
    // Seen with another identity than the index's: read again.
    const seen = new Map([
      [`${ids[0]!}.json`, seenBeforeEdit],
      [`${ids[1]!}.json`, { ...(await identityOf(ids[1]!)), mtimeMs: 1 }],
    ]);
    const opened = await ConversationStore.open({
      dir,
      now,
      onNotice: (message) => notices.push(message),
      seenFiles: seen,
    });
    await opened.flushIndex();
    expect(opened.list()).toEqual(expected);
    expect(notices).toEqual([expect.stringMatching(/out of date \(1 files new or changed outside Berth, 0 gone\)/)]);
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
    const titles = reopened
      .list()
      .map((summary) => summary.title)
      .sort();
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
    expect(notices).toEqual([
      expect.stringMatching(
        /^The conversations index could not be written \(.+\); it will be rebuilt at the next start$/,
      ),
    ]);
    expect(JSON.parse(await readFile(fileOf(saved.id), 'utf8'))).toMatchObject({ title: 'Kept anyway' });

    await rm(indexPath(), { recursive: true });
    notices = [];
    expect((await openStore()).list().map((summary) => summary.title)).toEqual(['Kept anyway']);
    expect(notices).toEqual([expect.stringMatching(/Rebuilt the conversations index from 1 files/)]);
  });
});

describe('IndexWriter', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-index-writer-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  /** A summary whose title counts how often it is serialized. */
  function countedSummary(id: string, title: string, reads: Map<string, number>): ConversationSummary {
    const summary = { id, createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: 0 } as ConversationSummary;
    Object.defineProperty(summary, 'title', {
      enumerable: true,
      get: () => {
        reads.set(id, (reads.get(id) ?? 0) + 1);
        return title;
      },
    });
    return summary;
  }

  it('writes what JSON.stringify would, re-serializing only the entries that changed since the last write', async () => {
    const reads = new Map<string, number>();
    const file = (size: number): FileIdentity => ({ size, mtimeMs: 5, ino: 7 });
    let entries: IndexEntry[] = ['a', 'b', 'c'].map((id) => ({
      file: file(1),
      summary: countedSummary(id, `Title ${id}`, reads),
    }));
    const errors: string[] = [];
    const writer = new IndexWriter(
      join(dir, INDEX_FILE_NAME),
      () => entries,
      (message) => errors.push(message),
    );
    const written = async (): Promise<string> => readFile(join(dir, INDEX_FILE_NAME), 'utf8');

    writer.schedule();
    await writer.settled();
    expect(await written()).toBe(JSON.stringify({ version: 1, entries }));
    reads.clear();

    // b renamed (a new summary object), c's file saved again (a new identity), a untouched.
    entries = [
      entries[0]!,
      { file: entries[1]!.file, summary: countedSummary('b', 'Renamed', reads) },
      { file: file(2), summary: entries[2]!.summary },
    ];
    writer.schedule();
    await writer.settled();
    expect(Object.fromEntries(reads)).toEqual({ b: 1, c: 1 });
    reads.clear();
    expect(JSON.parse(await written())).toEqual(JSON.parse(JSON.stringify({ version: 1, entries })));
    expect(errors).toEqual([]);
  });

  it('writes a burst of changes once, after a quiet delay, and at once when settled', async () => {
    const path = join(dir, INDEX_FILE_NAME);
    let built = 0;
    const writer = new IndexWriter(
      path,
      () => {
        built += 1;
        return [];
      },
      () => undefined,
      60,
    );
    const exists = async (): Promise<boolean> =>
      stat(path).then(
        () => true,
        () => false,
      );

    writer.schedule();
    writer.schedule();
    await new Promise((resolve) => setTimeout(resolve, 20));
    writer.schedule();
    expect(await exists()).toBe(false);
    for (let waited = 0; !(await exists()) && waited < 5_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await exists()).toBe(true);
    expect(built).toBe(1);

    writer.schedule();
    await writer.settled(); // shutdown does not wait out the delay
    expect(built).toBe(2);
    await writer.settled();
    expect(built).toBe(2);
  });
});
