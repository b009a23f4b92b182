// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import { ok } from '../../../shared/result';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';
import { buildTimeline } from './chat-model';
import { rowIndexOf } from './message-focus';
import { setUpChatViewTests } from '../../test-support/chat-view-tests';
import { shellHandlers } from '../../test-support/shell-handlers';

setUpChatViewTests();

// 200 messages: the one found is far above the end, so it is not rendered until the list scrolls to it.
const MESSAGES: ChatMessage[] = Array.from({ length: 200 }, (_, n) => ({
  id: `m${n}`,
  role: n % 2 === 0 ? 'user' : 'assistant',
  createdAt: n,
  content: [{ type: 'text', text: n === 20 ? 'When does the Kiel ferry leave?' : `Message ${n}` }],
}));
const CONVERSATION: Conversation = {
  id: 'c1',
  title: 'Trip',
  createdAt: 1,
  updatedAt: 2,
  model: 'claude-a',
  messages: MESSAGES,
  disabledServers: [],
  disabledTools: [],
};

function mount() {
  return renderAppWithBerth({
    handlers: {
      ...shellHandlers(),
      'consent.policies': () => ok([]),
      'sampling.policies': () => ok({}),
      'chat.list': () =>
        ok([{ id: 'c1', title: 'Trip', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: 200 }]),
      'chat.get': () => ok(CONVERSATION),
      'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
      'chat.search': () =>
        ok({
          hits: [
            {
              id: 'c1',
              title: 'Trip',
              updatedAt: 2,
              snippet: {
                text: 'When does the Kiel ferry leave?',
                cutStart: false,
                cutEnd: false,
                role: 'user',
                messageId: 'm20',
                highlights: [{ start: 19, end: 24 }],
              },
            },
          ],
          total: 1,
          complete: true,
        }),
    },
    prepare: (store) => store.getState().showView('chat'),
  });
}

describe('a search hit lands on its message', () => {
  it('opens the conversation scrolled to the message found, focused and highlighted for a moment', async () => {
    const { store } = mount();
    await screen.findByRole('list', { name: 'Conversations' });
    // What the conversation list does with a hit in a message (conversation-list.test.tsx checks it asks so).
    await act(() => store.getState().openConversationAt('c1', 'm20'));
    const found = await waitFor(() => {
      const row = document.querySelector<HTMLElement>('[data-message="m20"]');
      expect(row?.dataset.found).toBe('true');
      return row!;
    });
    expect(found.textContent).toContain('When does the Kiel ferry leave?');
    expect(document.activeElement).toBe(found);
    // Only the one message is marked.
    expect(document.querySelectorAll('[data-found]')).toHaveLength(1);
  });

  it('finds the row of a tool result’s message: the card of the call before it', () => {
    const messages: ChatMessage[] = [
      { id: 'u', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'look it up' }] },
      {
        id: 'a',
        role: 'assistant',
        createdAt: 2,
        content: [{ type: 'tool_use', id: 't', server: 's', tool: 'web', apiName: 's__web', input: {} }],
      },
      {
        id: 'r',
        role: 'user',
        createdAt: 3,
        content: [{ type: 'tool_result', toolUseId: 't', isError: false, content: [{ type: 'text', text: 'ferry' }] }],
      },
    ];
    const items = buildTimeline(messages);
    expect(rowIndexOf(items, messages, 'r')).toBe(items.findIndex((item) => item.message.id === 'a'));
    expect(rowIndexOf(items, messages, 'nowhere')).toBe(-1);
  });
});
