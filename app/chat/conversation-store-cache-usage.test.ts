import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/domain/chat';
import { conversationUsage } from '../../shared/domain/chat-usage';
import { ConversationStore } from './conversation-store';

// What the prompt cache saved is kept with each reply; conversations saved before Berth counted it still open.

const reply = (id: string, usage: ChatMessage['usage']): ChatMessage => ({
  id,
  role: 'assistant',
  createdAt: 2,
  content: [{ type: 'text', text: id }],
  ...(usage !== undefined ? { usage } : {}),
});

describe('the prompt cache in saved conversations', () => {
  let dir: string;
  const stores: ConversationStore[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-cache-usage-'));
  });
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.flushIndex()));
    stores.length = 0;
    await rm(dir, { recursive: true, force: true });
  });
  const open = async () => {
    const store = await ConversationStore.open({ dir });
    stores.push(store);
    return store;
  };

  it('keeps a reply’s saving (negative too) across a reopen, and reads replies saved without one', async () => {
    const store = await open();
    const conversation = await store.create({ model: 'claude-a' });
    await store.appendMessage(conversation.id, {
      id: 'u1',
      role: 'user',
      createdAt: 1,
      content: [{ type: 'text', text: 'hi' }],
    });
    await store.appendMessage(
      conversation.id,
      reply('a1', { inputTokens: 3, outputTokens: 5, cacheWriteTokens: 4_000, cacheSavedTokens: -1_000 }),
    );
    // A reply as an older Berth saved it: cache counts, no saving.
    const file = join(dir, 'conversations', `${conversation.id}.json`);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { messages: unknown[] };
    saved.messages.push(reply('a0', { inputTokens: 10, outputTokens: 1, cacheReadTokens: 4_000 }));
    await writeFile(file, JSON.stringify(saved));

    const read = await (await open()).get(conversation.id);
    expect(read.messages.map((message) => message.usage?.cacheSavedTokens)).toEqual([undefined, -1_000, undefined]);
    expect(conversationUsage(read.messages)).toMatchObject({ cacheReadTokens: 4_000, cacheSavedTokens: -1_000 });
  });
});
