import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatToolResultBlock, Conversation } from '../../shared/domain/chat';
import { ConversationStore } from './conversation-store';
import type { ConversationProblem } from './conversation-store';

// Big tool results beside the conversation (app/chat/results/result-files.ts), through the store.

const BIG = 'line of a long log\n'.repeat(100_000);
const resultMessage: ChatMessage = {
  id: 'm-result',
  role: 'user',
  createdAt: 2,
  content: [
    { type: 'tool_result', toolUseId: 'toolu_../../x', content: [{ type: 'text', text: BIG }], isError: false },
  ],
};
const resultOf = (conversation: Conversation): ChatToolResultBlock =>
  conversation.messages[0]?.content[0] as ChatToolResultBlock;

describe('ConversationStore: big tool results', () => {
  let dir: string;
  let stores: ConversationStore[];
  const problems: ConversationProblem[] = [];
  const open = async (): Promise<ConversationStore> => {
    const store = await ConversationStore.open({ dir, onProblem: (problem) => problems.push(problem) });
    stores.push(store);
    return store;
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-store-results-'));
    stores = [];
    problems.length = 0;
  });
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.flushIndex()));
    await rm(dir, { recursive: true, force: true });
  });

  it('stores a big result once beside the file, keeps it whole in memory, and brings it back after a reopen', async () => {
    const store = await open();
    const { id } = await store.create({ model: 'm' });
    const saved = await store.appendMessage(id, resultMessage);
    expect(resultOf(saved).content).toEqual([{ type: 'text', text: BIG }]);
    const file = join(dir, 'conversations', `${id}.json`);
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as Conversation;
    expect(resultOf(onDisk).whole).toEqual({ chars: BIG.length, blocks: 1 });
    expect((await stat(file)).size).toBeLessThan(64 * 1024);
    const [name] = await readdir(join(dir, 'conversations', `${id}.results`));
    // The tool_use id (from the model) never makes a path.
    expect(name).toMatch(/^[0-9a-f]{32}\.json$/);
    const resultFile = join(dir, 'conversations', `${id}.results`, name ?? '');
    const written = await stat(resultFile);
    await store.rename(id, 'Again');
    expect((await stat(resultFile)).mtimeMs).toBe(written.mtimeMs);

    const reopened = await open();
    expect(resultOf(await reopened.get(id))).toEqual(resultOf(saved));
    expect(await reopened.toolResult(id, 'toolu_../../x')).toEqual(resultOf(saved));
    expect(problems).toEqual([]);
  });

  it('a result file gone reads as missing with its preview; delete and restore move the results with the conversation', async () => {
    const store = await open();
    const { id } = await store.create({ model: 'm' });
    await store.appendMessage(id, resultMessage);
    await store.delete(id);
    const trashed = join(dir, 'conversations', 'trash', `${id}.results`);
    expect((await stat(trashed)).isDirectory()).toBe(true);
    await store.restore(id);
    const resultsDir = join(dir, 'conversations', `${id}.results`);
    for (const name of await readdir(resultsDir)) await rm(join(resultsDir, name));

    const loaded = await (await open()).get(id);
    expect(resultOf(loaded).whole).toEqual({ chars: BIG.length, blocks: 1, missing: true });
    expect(resultOf(loaded).content[0]).toMatchObject({ type: 'text', text: BIG.slice(0, 20_000) });
    expect(problems).toEqual([{ id, message: expect.stringContaining('is no longer available (the file is missing') }]);
  });
});
