// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import { chatError } from '../../../shared/domain/chat-error';
import type { LiveTurn } from '../../store';
import { activateLocale } from '../../i18n/i18n';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { mockElementSizes } from '../../test-support/element-sizes';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { MessageList } from './message-list';
import { forgetScrollPositions } from './scroll-memory';

// A chat error carries its way out as a button: a refused key opens Settings, a refused model asks for the model
// picker; a failure Retry answers gets no extra button.

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

const question: ChatMessage = { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Hello' }] };
const answer: ChatMessage = {
  id: 'a1',
  role: 'assistant',
  createdAt: 2,
  model: 'claude-a',
  content: [{ type: 'text', text: 'Hi.' }],
};
const conversation = (messages: ChatMessage[]): Conversation => ({
  id: 'c1',
  title: 'Errors',
  createdAt: 1,
  updatedAt: 2,
  model: 'claude-a',
  messages,
  disabledServers: [],
  disabledTools: [],
});

function failedWith(failure: { text: string; message: LiveTurn['errorMessage'] }): ChatMessage {
  return {
    ...question,
    failed: { reason: failure.text, ...(failure.message ? { reasonMessage: failure.message } : {}) },
  };
}

describe('a chat error’s action', () => {
  it('opens Settings from a message whose key was refused', async () => {
    const refused = chatError('chat-error.api-key-rejected', { status: 401, detail: 'invalid x-api-key' });
    const { store } = renderWithBerth(
      <MessageList conversation={conversation([failedWith(refused)])} live={undefined} />,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Open Settings' }));
    expect(store.getState().view).toBe('settings');
    expect(screen.queryByRole('button', { name: 'Pick another model' })).toBeNull();
  });

  it('asks for the model picker when the provider refused the model, in Japanese', async () => {
    await activateLocale('ja');
    const gone = chatError('chat-error.api-model-not-found', { status: 404, detail: 'model: x', model: 'x' });
    const { store } = renderWithBerth(<MessageList conversation={conversation([failedWith(gone)])} live={undefined} />);
    const before = store.getState().modelPickerRequests;
    fireEvent.click(await screen.findByRole('button', { name: '別のモデルを選ぶ' }));
    expect(store.getState().modelPickerRequests).toBe(before + 1);
  });

  it('puts the action in the error under a reply, and none for a rate limit (Retry is there)', async () => {
    const refused = chatError('chat-error.provider-key-rejected', {
      provider: 'OpenAI',
      status: 401,
      detail: 'Incorrect API key provided.',
    });
    const live = (failure: { text: string; message: LiveTurn['errorMessage'] }): LiveTurn => ({
      turnId: 't1',
      running: false,
      draft: '',
      toolCalls: {},
      error: failure.text,
      ...(failure.message ? { errorMessage: failure.message } : {}),
    });
    const view = renderWithBerth(<MessageList conversation={conversation([question, answer])} live={live(refused)} />);
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('button')?.textContent).toBe('Open Settings');
    const limited = chatError('chat-error.api-rate-limited', { status: 429, detail: 'slow down', retryAfter: 4 });
    view.rerender(<MessageList conversation={conversation([question, answer])} live={live(limited)} />);
    expect((await screen.findByRole('alert')).querySelector('button')).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
