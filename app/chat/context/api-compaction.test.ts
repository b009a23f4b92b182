import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../shared/domain/chat';
import { API_COMPACT_AT, apiContextManagement, apiCut } from './api-compaction';

const conversation = (extra: Partial<Conversation> = {}): Conversation => ({
  id: 'c1',
  title: 't',
  createdAt: 1,
  updatedAt: 1,
  model: 'claude-sonnet-5',
  messages: [
    { id: 'm1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Hello' }] },
    { id: 'm2', role: 'assistant', createdAt: 2, content: [{ type: 'text', text: 'Hi' }] },
    { id: 'm3', role: 'user', createdAt: 3, content: [{ type: 'text', text: 'More' }] },
  ],
  disabledServers: [],
  disabledTools: [],
  ...extra,
});

const block = { content: 'The user greeted.', signature: 'sig', encryptedContent: 'enc' };

describe("when a conversation uses the provider's own context management", () => {
  it('asks with a trigger at 3/4 of the room, below where Berth would compact', () => {
    expect(
      apiContextManagement({ conversation: conversation(), takes: true, window: 200_000, maxTokens: 4_096 }),
    ).toEqual({ triggerTokens: Math.floor((200_000 - 4_096) * API_COMPACT_AT) });
    // An unknown window: the API's own default trigger.
    expect(
      apiContextManagement({ conversation: conversation(), takes: true, window: undefined, maxTokens: 1 }),
    ).toEqual({});
  });

  it('not for a model that does not take it, a conversation set to drop or ask, or a window under the API’s least trigger', () => {
    const input = { conversation: conversation(), takes: true, window: 200_000, maxTokens: 4_096 };
    expect(apiContextManagement({ ...input, takes: false })).toBeUndefined();
    expect(apiContextManagement({ ...input, conversation: conversation({ contextPolicy: 'drop' }) })).toBeUndefined();
    expect(apiContextManagement({ ...input, conversation: conversation({ contextPolicy: 'ask' }) })).toBeUndefined();
    expect(apiContextManagement({ ...input, window: 32_000 })).toBeUndefined();
  });

  it("its compaction becomes the conversation's cut after the last message, and is sent back while that message is there", () => {
    const before = conversation();
    const cut = apiCut({ conversation: before, compaction: block, tokensBefore: 150_000.4, tokensAfter: 900 });
    expect(cut).toMatchObject({
      kind: 'compact',
      throughMessageId: 'm3',
      summary: 'The user greeted.',
      messageCount: 3,
      tokensBefore: 150_000,
      tokensAfter: 900,
      api: { signature: 'sig', encryptedContent: 'enc' },
    });
    const input = { takes: true, window: 200_000, maxTokens: 4_096 };
    expect(apiContextManagement({ ...input, conversation: { ...before, contextCut: cut } })?.compaction).toEqual(block);
    // Berth's own cut (no block) sends none; a cut whose message was removed no longer applies.
    const own = cut === undefined ? undefined : { ...cut, api: undefined };
    expect(
      apiContextManagement({ ...input, conversation: { ...before, contextCut: own } })?.compaction,
    ).toBeUndefined();
    const edited = { ...before, messages: before.messages.slice(0, 2), contextCut: cut };
    expect(apiContextManagement({ ...input, conversation: edited })?.compaction).toBeUndefined();
  });
});
