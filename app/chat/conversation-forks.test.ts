import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/domain/chat';
import { versionMarks } from '../../shared/domain/chat-versions';
import { ConversationStore } from './conversation-store';
import { MAX_VERSIONS } from './conversation-forks';
import { previewConversation } from './results/result-preview';

function message(role: 'user' | 'assistant', text: string): ChatMessage {
  return { id: `${role}-${text}`, role, createdAt: 1, content: [{ type: 'text', text }] };
}
const texts = (messages: readonly ChatMessage[]): string[] =>
  messages.map((one) => (one.content[0]?.type === 'text' ? one.content[0].text : '?'));

describe('conversation branches and versions (ConversationStore)', () => {
  let dir: string;
  let stores: ConversationStore[] = [];
  async function open(): Promise<ConversationStore> {
    const store = await ConversationStore.open({ dir });
    stores.push(store);
    return store;
  }
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-forks-'));
  });
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.flushIndex()));
    stores = [];
    await rm(dir, { recursive: true, force: true });
  });

  /** q1 a1 q2 a2 q3 a3 */
  async function threeTurns(store: ConversationStore): Promise<string> {
    const { id } = await store.create({ model: 'claude-a' });
    for (const turn of ['1', '2', '3']) {
      await store.appendMessage(id, message('user', `q${turn}`));
      await store.appendMessage(id, message('assistant', `a${turn}`));
    }
    return id;
  }

  it('branches at an earlier message, keeps the old tail, and switching back restores it exactly', async () => {
    const store = await open();
    const id = await threeTurns(store);
    const before = await store.get(id);
    const branched = await store.branchAt(id, 'user-q2');
    expect(texts(branched.messages)).toEqual(['q1', 'a1']);
    await store.appendMessage(id, message('user', 'q2 edited'));
    const edited = await store.appendMessage(id, message('assistant', 'a2 new'));
    expect(versionMarks(edited).get('user-q2 edited')).toEqual({ after: 'assistant-a1', active: 1, count: 2 });

    const back = await store.switchVersion(id, 'assistant-a1', 0);
    expect(back.messages).toEqual(before.messages);
    expect(versionMarks(back).get('user-q2')).toEqual({ after: 'assistant-a1', active: 0, count: 2 });
    const again = await store.switchVersion(id, 'assistant-a1', 1);
    expect(texts(again.messages)).toEqual(['q1', 'a1', 'q2 edited', 'a2 new']);
  });

  it('keeps forks nested inside a tail through a switch, and everything after a reload from disk', async () => {
    const store = await open();
    const id = await threeTurns(store);
    // A regenerated a3 inside the first version of position q2.
    await store.branchAt(id, 'assistant-a3');
    await store.appendMessage(id, message('assistant', 'a3 again'));
    await store.branchAt(id, 'user-q2');
    await store.appendMessage(id, message('user', 'q2 other'));
    await store.switchVersion(id, 'assistant-a1', 0);
    const restored = await store.get(id);
    expect(texts(restored.messages)).toEqual(['q1', 'a1', 'q2', 'a2', 'q3', 'a3 again']);
    expect(versionMarks(restored).get('assistant-a3 again')).toEqual({ after: 'user-q3', active: 1, count: 2 });

    const reopened = await open();
    const read = await reopened.get(id);
    expect(read.messages).toEqual(restored.messages);
    expect(read.forks).toEqual(restored.forks);
    const older = await reopened.switchVersion(id, 'user-q3', 0);
    expect(texts(older.messages)).toEqual(['q1', 'a1', 'q2', 'a2', 'q3', 'a3']);
    const other = await reopened.switchVersion(id, 'assistant-a1', 1);
    expect(texts(other.messages)).toEqual(['q1', 'a1', 'q2 other']);
    // The nested fork went back into its tail: not listed while another version is live.
    expect(versionMarks(other).size).toBe(1);
  });

  it('refuses a version past the cap, and a switch to a version that is not there, with coded errors', async () => {
    const store = await open();
    const id = await threeTurns(store);
    for (let made = 1; made < MAX_VERSIONS; made += 1) {
      await store.branchAt(id, (await store.get(id)).messages[5]!.id);
      await store.appendMessage(id, message('assistant', `a3 v${made}`));
    }
    expect(versionMarks(await store.get(id)).get(`assistant-a3 v${MAX_VERSIONS - 1}`)?.count).toBe(MAX_VERSIONS);
    await expect(store.branchAt(id, `assistant-a3 v${MAX_VERSIONS - 1}`)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining(`${MAX_VERSIONS} versions`),
    });
    await expect(store.switchVersion(id, 'user-q3', MAX_VERSIONS)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.switchVersion(id, 'nobody', 0)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(texts((await store.get(id)).messages).at(-1)).toBe(`a3 v${MAX_VERSIONS - 1}`);
  });

  it('drops a version whose turn saved nothing when switching away, and the versions of a position a retry replaced', async () => {
    const store = await open();
    const id = await threeTurns(store);
    await store.branchAt(id, 'assistant-a3');
    const empty = await store.get(id);
    expect(versionMarks(empty).get('user-q3')).toEqual({ after: 'user-q3', active: 1, count: 2 });
    const back = await store.switchVersion(id, 'user-q3', 0);
    expect(back.forks).toEqual([]);
    expect(texts(back.messages).at(-1)).toBe('a3');

    await store.branchAt(id, 'assistant-a2');
    await store.appendMessage(id, message('assistant', 'a2 again'));
    const cut = await store.replaceMessages(id, (await store.get(id)).messages.slice(0, 2));
    expect(cut.forks).toBeUndefined();
    expect(await readFile(join(dir, 'conversations', `${id}.json`), 'utf8')).not.toContain('a2 again');
  });

  it('writes a big tool result of a stored version beside the file, and brings it back whole after a reload', async () => {
    const big = 'line of a long log\n'.repeat(100_000);
    const store = await open();
    const id = await threeTurns(store);
    await store.appendMessage(id, {
      id: 'result',
      role: 'user',
      createdAt: 1,
      content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: [{ type: 'text', text: big }], isError: false }],
    });
    await store.branchAt(id, 'user-q2');
    await store.appendMessage(id, message('user', 'q2 other'));
    const file = join(dir, 'conversations', `${id}.json`);
    expect((await stat(file)).size).toBeLessThan(64 * 1024);

    const back = await (await open()).switchVersion(id, 'assistant-a1', 0);
    const block = back.messages.at(-1)?.content[0];
    expect(block?.type === 'tool_result' ? block.content : undefined).toEqual([{ type: 'text', text: big }]);
    expect(previewConversation(back).forks?.[0]?.versions[1]?.messages).toEqual([message('user', 'q2 other')]);
  });

  it('an old conversation file without versions reads and saves as before', async () => {
    const store = await open();
    const id = await threeTurns(store);
    const file = await readFile(join(dir, 'conversations', `${id}.json`), 'utf8');
    expect(file).not.toContain('forks');
    const read = await (await open()).get(id);
    expect(read.forks).toBeUndefined();
    expect(versionMarks(read).size).toBe(0);
  });
});
