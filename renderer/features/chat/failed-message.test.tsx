// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import { chatError } from '../../../shared/domain/chat-error';
import { ok } from '../../../shared/result';
import type { LiveTurn } from '../../store';
import { activateLocale } from '../../i18n/i18n';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { mockElementSizes } from '../../test-support/element-sizes';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { shownToasts } from '../../test-support/shown-toasts';
import { MessageList } from './message-list';
import { forgetScrollPositions } from './scroll-memory';

// A message of the person's that got no reply is shown as its own, marked with why (in their language), with Retry,
// Edit and Discard (Undo in the toast).

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

const refused = chatError('chat-error.api-model-not-found', {
  status: 404,
  detail: 'model: claude-gone',
  model: 'claude-gone',
});
const failedMessage: ChatMessage = {
  id: 'u1',
  role: 'user',
  createdAt: 1,
  content: [{ type: 'text', text: 'First, refused' }],
  failed: { reason: refused.text, reasonMessage: refused.message },
};
const later: ChatMessage[] = [
  { id: 'u2', role: 'user', createdAt: 2, content: [{ type: 'text', text: 'Second' }] },
  { id: 'a2', role: 'assistant', createdAt: 3, model: 'claude-a', content: [{ type: 'text', text: 'Answer.' }] },
];
const conversation = (messages: ChatMessage[]): Conversation => ({
  id: 'c1',
  title: 'Refused',
  createdAt: 1,
  updatedAt: 3,
  model: 'claude-a',
  messages,
  disabledServers: [],
  disabledTools: [],
});
const handlers = {
  'chat.retry': () => ok({ accepted: true as const }),
  'chat.editAndResend': () => ok({ accepted: true as const }),
  'chat.get': () => ok(conversation(later)),
  'chat.discardFailed': () => ok(conversation(later)),
  'chat.restoreFailed': () => ok(conversation([failedMessage, ...later])),
};

function markOf(messageId: string): HTMLElement {
  const mark = document.querySelector<HTMLElement>(`[data-failed-message="${messageId}"]`);
  if (mark === null) throw new Error(`no failed mark for ${messageId}`);
  return mark;
}

describe('a message that got no reply', () => {
  it('is marked with its reason above later messages; Retry, Edit and Discard (with Undo) act on it alone', async () => {
    const view = renderWithBerth(
      <MessageList conversation={conversation([failedMessage, ...later])} live={undefined} />,
      {
        handlers,
      },
    );
    await screen.findByText('No reply to this message');
    const mark = markOf('u1');
    // The reason as the catalog words its code: the status and the model refused.
    expect(mark.textContent).toMatch(/404.*claude-gone|claude-gone.*404/);
    expect(within(mark).getByText('Not sent with later messages until you retry it.')).toBeTruthy();
    expect(screen.getByText('Second')).toBeTruthy();

    await act(async () => void fireEvent.click(within(mark).getByRole('button', { name: 'Retry' })));
    expect(view.transport.calls.find((call) => call.method === 'chat.retry')?.input).toEqual({
      id: 'c1',
      messageId: 'u1',
    });

    await act(async () => void fireEvent.click(within(markOf('u1')).getByRole('button', { name: 'Discard' })));
    expect(view.transport.calls.find((call) => call.method === 'chat.discardFailed')?.input).toEqual({
      id: 'c1',
      messageId: 'u1',
    });
    const [toast] = shownToasts(view.store);
    expect(toast).toMatchObject({ title: 'Discarded the message that got no reply', action: { label: 'Undo' } });
    await act(async () => toast!.action!.run());
    await vi.waitFor(() =>
      expect(view.transport.calls.find((call) => call.method === 'chat.restoreFailed')?.input).toEqual({
        id: 'c1',
        messageId: 'u1',
      }),
    );

    await act(async () => void fireEvent.click(within(markOf('u1')).getByRole('button', { name: 'Edit' })));
    const input = screen.getByRole('textbox', { name: 'Edit your message' });
    expect((input as HTMLTextAreaElement).value).toBe('First, refused');
    fireEvent.change(input, { target: { value: 'First, again' } });
    await act(async () => void fireEvent.keyDown(input, { key: 'Enter' }));
    expect(view.transport.calls.find((call) => call.method === 'chat.editAndResend')?.input).toEqual({
      id: 'c1',
      text: 'First, again',
      messageId: 'u1',
    });
  });

  it('ending the conversation, its mark replaces the failure banner and the retry bar', async () => {
    const live: LiveTurn = {
      turnId: 't1',
      running: false,
      draft: '',
      toolCalls: {},
      error: refused.text,
      errorMessage: refused.message,
    };
    renderWithBerth(<MessageList conversation={conversation([...later, failedMessage])} live={live} />, { handlers });
    await screen.findByText('No reply to this message');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Retry' })).toHaveLength(1);
    // A message with a reply has no such mark.
    expect(document.querySelectorAll('[data-failed-message]')).toHaveLength(1);
  });

  it('reads in the person’s language: the mark, its reason and its buttons in Chinese', async () => {
    await activateLocale('zh-CN');
    renderWithBerth(<MessageList conversation={conversation([failedMessage, ...later])} live={undefined} />, {
      handlers,
    });
    await screen.findByText('此消息没有收到回复');
    const mark = markOf('u1');
    expect(mark.textContent).not.toContain(refused.text);
    expect(mark.textContent).toContain('claude-gone');
    for (const name of ['重试', '编辑', '丢弃']) expect(within(mark).getByRole('button', { name })).toBeTruthy();
  });
});
