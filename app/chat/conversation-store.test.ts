import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONVERSATION_TITLE } from '../../shared/domain/chat';
import type { ChatMessage } from '../../shared/domain/chat';
import { ConversationStore } from './conversation-store';
import type { ConversationProblem, ConversationStoreOptions } from './conversation-store';

function userMessage(text: string, id = `m-${text}`): ChatMessage {
  return { id, role: 'user', createdAt: 1, content: [{ type: 'text', text }] };
}

describe('ConversationStore', () => {
  let dir: string;
  let clock: number;
  const now = (): number => clock;

  let opened: ConversationStore[] = [];
  /** Every store a test opens; its background index writes are awaited before the folder is removed. */
  async function openStore(options: ConversationStoreOptions): Promise<ConversationStore> {
    const store = await ConversationStore.open(options);
    opened.push(store);
    return store;
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-chat-store-'));
    clock = 1_000;
  });
  afterEach(async () => {
    await Promise.all(opened.map((store) => store.flushIndex()));
    opened = [];
    await rm(dir, { recursive: true, force: true });
  });

  it('pins a conversation first in the list without changing its time, and keeps it pinned after a restart', async () => {
    const store = await openStore({ dir, now });
    const older = await store.create({ model: 'claude-a', title: 'Older' });
    clock = 2_000;
    const newer = await store.create({ model: 'claude-a', title: 'Newer' });
    clock = 3_000;
    const pinned = await store.setPinned(older.id, true);
    expect(pinned).toMatchObject({ pinned: true, updatedAt: 1_000 });
    expect(store.list().map((summary) => [summary.title, summary.pinned])).toEqual([
      ['Older', true],
      ['Newer', undefined],
    ]);
    await store.flushIndex();

    // From the index, and from the file alone (no index).
    const reopened = await openStore({ dir, now });
    expect(reopened.list().map((summary) => summary.title)).toEqual(['Older', 'Newer']);
    await rm(join(dir, 'conversations', 'index.v1.json'));
    const fromFiles = await openStore({ dir, now });
    expect(fromFiles.list()[0]).toMatchObject({ id: older.id, pinned: true });

    await fromFiles.setPinned(older.id, false);
    expect(fromFiles.list().map((summary) => summary.id)).toEqual([newer.id, older.id]);
    const file = await readFile(join(dir, 'conversations', `${older.id}.json`), 'utf8');
    expect(file).not.toContain('pinned');
  });

  it('creates, lists newest first, renames, and survives a reopen from the files alone', async () => {
    const changes: string[][] = [];
    const store = await openStore({
      dir,
      now,
      onChange: (delta) => changes.push(delta.changed.map((summary) => summary.title)),
    });
    const first = await store.create({ model: 'claude-a' });
    clock = 2_000;
    const second = await store.create({ model: 'claude-b', title: 'Second' });
    expect(first.title).toBe(DEFAULT_CONVERSATION_TITLE);
    expect(store.list().map((summary) => summary.id)).toEqual([second.id, first.id]);
    clock = 3_000;
    await store.rename(first.id, '  Renamed  ');
    // Renaming keeps the conversation's time and its place in the list.
    expect(store.list().map((summary) => summary.id)).toEqual([second.id, first.id]);
    expect(store.list()[1]).toMatchObject({ id: first.id, title: 'Renamed', updatedAt: 1_000, messageCount: 0 });
    await expect(store.rename(first.id, ' ')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(changes).toEqual([[DEFAULT_CONVERSATION_TITLE], ['Second'], ['Renamed']]);

    const reopened = await openStore({ dir, now });
    expect(reopened.list()).toEqual(store.list());
    expect(await reopened.get(second.id)).toEqual(second);
    const mode = (await stat(join(dir, 'conversations', `${first.id}.json`))).mode & 0o777;
    expect(mode).toBe(0o600);
  });

  it('appends messages (the first names the conversation) and replaces them for edit-and-resend', async () => {
    const store = await openStore({ dir, now });
    const conversation = await store.create({ model: 'claude-a' });
    await store.appendMessage(
      conversation.id,
      userMessage('What is the weather like in Lisbon this week, and should I pack an umbrella?'),
    );
    await store.appendMessage(conversation.id, {
      id: 'a1',
      role: 'assistant',
      createdAt: 2,
      content: [{ type: 'text', text: 'Sunny.' }],
      model: 'claude-a',
      stopReason: 'end_turn',
    });
    let loaded = await store.get(conversation.id);
    expect(loaded.title).toBe('What is the weather like in Lisbon this week, and should I…');
    expect(loaded.messages.map((message) => message.id)).toEqual([
      'm-What is the weather like in Lisbon this week, and should I pack an umbrella?',
      'a1',
    ]);
    await store.replaceMessages(conversation.id, [userMessage('Different question')]);
    loaded = await store.get(conversation.id);
    expect(loaded.messages).toEqual([userMessage('Different question')]);
    expect(loaded.title).toBe('What is the weather like in Lisbon this week, and should I…');
    // What get() returns is a copy: changing it changes nothing stored.
    loaded.messages.length = 0;
    expect((await store.get(conversation.id)).messages).toHaveLength(1);
  });

  it('serializes concurrent writes to one conversation: no append is lost', async () => {
    const store = await openStore({ dir, now });
    const conversation = await store.create({ model: 'claude-a' });
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => store.appendMessage(conversation.id, userMessage(`n${index}`))),
    );
    const reopened = await openStore({ dir, now });
    expect((await reopened.get(conversation.id)).messages.map((message) => message.id)).toEqual(
      Array.from({ length: 20 }, (_, index) => `m-n${index}`),
    );
  });

  it('keeps per-conversation tool settings and the model', async () => {
    const store = await openStore({ dir, now });
    const conversation = await store.create({ model: 'claude-a' });
    await store.updateSettings(conversation.id, {
      model: 'claude-b',
      disabledServers: ['web', 'web'],
      disabledTools: ['fs/write_file'],
    });
    expect(await store.get(conversation.id)).toMatchObject({
      model: 'claude-b',
      disabledServers: ['web'],
      disabledTools: ['fs/write_file'],
    });
    await expect(store.updateSettings(conversation.id, { model: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('deletes into the trash and restores from it', async () => {
    const store = await openStore({ dir, now });
    const conversation = await store.create({ model: 'claude-a' });
    await store.appendMessage(conversation.id, userMessage('keep me'));
    await store.delete(conversation.id);
    expect(store.list()).toEqual([]);
    await expect(store.get(conversation.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `No conversation with id ${conversation.id}`,
      hostMessage: { code: 'conversation-errors.not-found', params: { id: conversation.id } },
    });
    expect(await readdir(join(dir, 'conversations', 'trash'))).toEqual([`${conversation.id}.json`]);
    expect((await store.listTrash()).map((summary) => summary.id)).toEqual([conversation.id]);
    // A restart in between: the trash is on disk, not in memory.
    const reopened = await openStore({ dir, now });
    expect(reopened.list()).toEqual([]);
    await reopened.restore(conversation.id);
    expect((await reopened.get(conversation.id)).messages).toEqual([userMessage('keep me')]);
    await expect(reopened.restore(conversation.id)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(reopened.restore('missing-id')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      hostMessage: { code: 'conversation-errors.not-deleted', params: { id: 'missing-id' } },
    });
  });

  it('moves a corrupt file aside, reports it, and never overwrites it', async () => {
    const setup = await openStore({ dir, now });
    const good = await setup.create({ model: 'claude-a' });
    const bad = await setup.create({ model: 'claude-a' });
    const badPath = join(dir, 'conversations', `${bad.id}.json`);
    await writeFile(badPath, '{"id": "truncated');
    const wrongShape = join(dir, 'conversations', 'other-id.json');
    await writeFile(wrongShape, JSON.stringify({ id: 'other-id', title: 5 }));

    const problems: ConversationProblem[] = [];
    const store = await openStore({ dir, now, onProblem: (problem) => problems.push(problem) });
    expect(store.list().map((summary) => summary.id)).toEqual([good.id]);
    expect(problems.map((problem) => problem.id).sort()).toEqual([bad.id, 'other-id'].sort());
    const badProblem = problems.find((problem) => problem.id === bad.id);
    expect(badProblem?.message).toMatch(/not valid JSON/);
    expect(problems.find((problem) => problem.id === 'other-id')?.message).toMatch(/title/);
    expect(await readFile(badProblem?.movedTo ?? '', 'utf8')).toBe('{"id": "truncated');
    expect(store.problems()).toEqual(problems);
    await expect(store.get(bad.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a file that goes bad while running is moved aside when next read, and the error says so', async () => {
    const store = await openStore({ dir, now });
    const conversation = await store.create({ model: 'claude-a' });
    const reopened = await openStore({ dir, now });
    await writeFile(join(dir, 'conversations', `${conversation.id}.json`), 'garbage');
    await expect(reopened.appendMessage(conversation.id, userMessage('x'))).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringMatching(/could not be read \(not valid JSON \(.+\)\); it was kept as .*corrupt-/),
      hostMessage: {
        code: 'conversation-errors.file-kept-aside',
        params: {
          id: conversation.id,
          problem: 'notJson',
          detail: expect.stringContaining('JSON'),
          movedTo: expect.stringContaining(`${conversation.id}.json.corrupt-`),
        },
      },
    });
    const names = await readdir(join(dir, 'conversations'));
    expect(names.some((name) => name.startsWith(`${conversation.id}.json.corrupt-`))).toBe(true);
    expect(names).not.toContain(`${conversation.id}.json`);
  });

  it('rejects ids that are not plain names', async () => {
    const store = await openStore({ dir, now });
    await expect(store.get('../config')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'Not a conversation id: "../config"',
      hostMessage: { code: 'conversation-errors.bad-id', params: { id: '"../config"' } },
    });
    await expect(store.delete('a/b')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(store.create({ model: ' ' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('reports a corrupt file it cannot move aside, leaves it alone, and still opens the others', async () => {
    const setup = await openStore({ dir, now });
    const good = await setup.create({ model: 'claude-a' });
    const bad = await setup.create({ model: 'claude-a' });
    const badPath = join(dir, 'conversations', `${bad.id}.json`);
    await writeFile(badPath, '{"id": "cut');
    // Something already sits where the corrupt copy would go, so the move fails.
    const blocker = `${badPath}.corrupt-${new Date(clock).toISOString().replace(/[:.]/g, '-')}`;
    await mkdir(join(blocker, 'occupied'), { recursive: true });

    const problems: ConversationProblem[] = [];
    const store = await openStore({ dir, now, onProblem: (problem) => problems.push(problem) });
    expect(store.list().map((summary) => summary.id)).toEqual([good.id]);
    expect(problems).toEqual([
      { id: bad.id, message: expect.stringMatching(/not valid JSON.*could not be moved aside.*left as it is/) },
    ]);
    await expect(store.appendMessage(bad.id, userMessage('x'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await readFile(badPath, 'utf8')).toBe('{"id": "cut');
  });

  it('removes temp files a crash left, but not those of a write still running', async () => {
    const store = await openStore({ dir, now });
    const conversation = await store.create({ model: 'claude-a' });
    const conversations = join(dir, 'conversations');
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const crashed = `.${conversation.id}.json.${dead}.0a1b2c.tmp`;
    const running = `.${conversation.id}.json.${process.pid}.0a1b2c.tmp`;
    await writeFile(join(conversations, crashed), '{"half');
    await writeFile(join(conversations, running), '{"half');
    const reopened = await openStore({ dir, now });
    expect(reopened.list().map((summary) => summary.id)).toEqual([conversation.id]);
    const names = await readdir(conversations);
    expect(names).not.toContain(crashed);
    expect(names).toContain(running);
  });

  it('reads a file written before tool search (no toolSearch, no loadedTools) and keeps two loads made at once', async () => {
    const store = await openStore({ dir, now });
    const conversation = await store.create({ model: 'claude-a' });
    const file = join(dir, 'conversations', `${conversation.id}.json`);
    const old = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    delete old.toolSearch;
    delete old.loadedTools;
    await writeFile(file, JSON.stringify(old));
    const reopened = await openStore({ dir, now });
    const read = await reopened.get(conversation.id);
    expect(read.toolSearch).toBeUndefined();
    expect(read.loadedTools).toBeUndefined();
    await Promise.all([
      reopened.changeLoadedTools(conversation.id, (loaded) => [...loaded, 'a/x']),
      reopened.changeLoadedTools(conversation.id, (loaded) => [...loaded, 'b/y']),
    ]);
    await reopened.updateSettings(conversation.id, { toolSearch: 'on' });
    expect(await reopened.get(conversation.id)).toMatchObject({ toolSearch: 'on', loadedTools: ['a/x', 'b/y'] });
    await reopened.flushIndex();
  });

  it('tells each real change of the loaded tools with the whole list, and nothing when the list stayed the same', async () => {
    const told: unknown[] = [];
    const store = await openStore({ dir, now, onLoadedToolsChange: (change) => told.push(change) });
    const { id } = await store.create({ model: 'claude-a' });
    await store.changeLoadedTools(id, (loaded) => [...loaded, 'a/x']);
    await store.changeLoadedTools(id, (loaded) => [...loaded, 'a/x']);
    await store.updateSettings(id, { toolSearch: 'on' });
    await store.updateSettings(id, { loadedTools: ['a/x', 'b/y'] });
    await store.changeLoadedTools(id, (loaded) => loaded.filter((key) => key !== 'a/x'));
    expect(told).toEqual([
      { id, loadedTools: ['a/x'] },
      { id, loadedTools: ['a/x', 'b/y'] },
      { id, loadedTools: ['b/y'] },
    ]);
    await store.flushIndex();
  });
});
