// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import { chatError } from '../../../shared/domain/chat-error';
import { ok } from '../../../shared/result';
import type { LiveTurn } from '../../store';
import { activateLocale } from '../../i18n/i18n';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { mockElementSizes } from '../../test-support/element-sizes';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { MessageList } from './message-list';
import { forgetScrollPositions } from './scroll-memory';

// A reply that did not finish keeps its text, says why under it (in the person's language), and offers Continue
// and Retry, both reachable from the keyboard.

beforeAll(() => stubResizeObserver());
let restoreSizes: () => void;
beforeEach(() => {
  restoreSizes = mockElementSizes({ scrollerSelector: '.message-scroller', viewportHeight: 600, rowHeight: () => 100 });
});
afterEach(async () => {
  cleanup();
  restoreSizes();
  forgetScrollPositions();
  await activateLocale('en');
});

const dropped = chatError('chat-error.api-unreachable-detail', { url: 'https://api.example', detail: 'terminated' });
const person: ChatMessage = { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Count' }] };
const reply = (partial: ChatMessage['partial']): ChatMessage => ({
  id: 'a1',
  role: 'assistant',
  createdAt: 2,
  model: 'claude-a',
  content: [{ type: 'text', text: 'One two three' }],
  ...(partial !== undefined ? { partial } : {}),
});
const conversation = (messages: ChatMessage[]): Conversation => ({
  id: 'c1',
  title: 'Count',
  createdAt: 1,
  updatedAt: 2,
  model: 'claude-a',
  messages,
  disabledServers: [],
  disabledTools: [],
});
const failedTurn: LiveTurn = {
  turnId: 't1',
  running: false,
  draft: '',
  toolCalls: {},
  error: dropped.text,
  errorMessage: dropped.message,
};

describe('a reply that did not finish', () => {
  it('shows its text with "Cut off: <reason>" instead of the failure banner, and Continue calls chat.continue', async () => {
    const view = renderWithBerth(
      <MessageList
        conversation={conversation([
          person,
          reply({ cause: 'cut-off', reason: dropped.text, reasonMessage: dropped.message }),
        ])}
        live={failedTurn}
      />,
      { handlers: { 'chat.continue': () => ok({ accepted: true as const }) } },
    );
    expect(screen.getByText('One two three')).toBeTruthy();
    expect(await screen.findByText(`Cut off: ${dropped.text}`)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    const go = screen.getByRole('button', { name: 'Continue' });
    expect(go.getAttribute('title')).toBe('Ask the model to go on from where this reply stopped');
    go.focus();
    expect(document.activeElement).toBe(go);
    await act(async () => void fireEvent.click(go));
    expect(view.transport.calls.filter((call) => call.method === 'chat.continue')).toEqual([
      { method: 'chat.continue', input: { id: 'c1' } },
    ]);
    expect(screen.getByRole('button', { name: 'Retry' }).getAttribute('title')).toBe(
      'Replace this reply with a new one',
    );
  });

  it('says "Stopped by you" in the person\'s language, without the old "You stopped this reply." note', async () => {
    await activateLocale('ko');
    renderWithBerth(
      <MessageList
        conversation={conversation([person, reply({ cause: 'stopped' })])}
        live={{ turnId: 't1', running: false, draft: '', toolCalls: {}, stopReason: 'stopped' }}
      />,
    );
    expect(await screen.findByText('사용자가 중지함')).toBeTruthy();
    expect(screen.queryByText('이 답변을 중지했습니다.')).toBeNull();
    expect(screen.getByRole('button', { name: '계속' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '다시 시도' })).toBeTruthy();
  });

  it('offers no Continue under a reply that finished, nor while a reply runs', () => {
    const { rerender } = renderWithBerth(
      <MessageList conversation={conversation([person, reply(undefined)])} live={undefined} />,
    );
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    rerender(
      <MessageList
        conversation={conversation([person, reply({ cause: 'stopped' })])}
        live={{ turnId: 't2', running: true, draft: '', toolCalls: {} }}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });
});
