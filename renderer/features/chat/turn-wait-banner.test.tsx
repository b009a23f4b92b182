// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import { chatError } from '../../../shared/domain/chat-error';
import { ok } from '../../../shared/result';
import type { LiveTurn, LiveWait } from '../../store';
import { reduceLiveTurn } from '../../store/chat-slice';
import { activateLocale } from '../../i18n/i18n';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { mockElementSizes } from '../../test-support/element-sizes';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { MessageList } from './message-list';
import { forgetScrollPositions } from './scroll-memory';

// A reply waiting to ask the model again shows why, a countdown that goes down each second, the attempt, and
// Retry now and Stop, instead of typing dots; waiting for the network, the browser's `online` asks at once.

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

beforeAll(() => stubResizeObserver());
let restoreSizes: () => void;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(NOW);
  restoreSizes = mockElementSizes({ scrollerSelector: '.message-scroller', viewportHeight: 600, rowHeight: () => 100 });
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  restoreSizes();
  forgetScrollPositions();
  await activateLocale('en');
});

const question: ChatMessage = { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Hello?' }] };
const conversation: Conversation = {
  id: 'c1',
  title: 'Busy',
  createdAt: 1,
  updatedAt: 1,
  model: 'openrouter:some-model',
  messages: [question],
  disabledServers: [],
  disabledTools: [],
};
const handlers = {
  'chat.retryNow': () => ok({ retrying: true }),
  'chat.stop': () => ok({ stopped: true }),
};
const limited = chatError('chat-error.provider-rate-limited', {
  provider: 'OpenRouter',
  status: 429,
  detail: 'Rate limit exceeded: free-models-per-min.',
  retryAfter: 12,
});

function waitingTurn(waiting: LiveWait): LiveTurn {
  return { turnId: 't1', running: true, draft: '', toolCalls: {}, waiting };
}

function banner(): HTMLElement {
  const found = document.querySelector<HTMLElement>('.turn-wait');
  if (found === null) throw new Error('no wait banner');
  return found;
}

describe('a reply waiting out a rate limit or a network drop', () => {
  it('counts down each second with the provider and the attempt; Retry now and Stop call the host', async () => {
    const live = waitingTurn({
      reason: 'rate-limit',
      until: NOW + 12_000,
      attempt: 2,
      maxAttempts: 5,
      provider: 'OpenRouter',
      cause: limited.message,
    });
    const view = renderWithBerth(<MessageList conversation={conversation} live={live} />, { handlers });
    await screen.findByText('Rate limited by OpenRouter — retrying in 12 s (attempt 2 of 5)');
    // The provider's own words, without its "try again in…" that the countdown replaces.
    expect(banner().textContent).toContain('Rate limit exceeded: free-models-per-min.');
    expect(banner().textContent).not.toContain('Try again');
    expect(document.querySelector('.dots')).toBeNull();

    await act(async () => void vi.advanceTimersByTime(1_000));
    expect(screen.getByText('Rate limited by OpenRouter — retrying in 11 s (attempt 2 of 5)')).toBeTruthy();
    await act(async () => void vi.advanceTimersByTime(11_000));
    expect(screen.getByText('Retrying now…')).toBeTruthy();

    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Retry now' })));
    expect(view.transport.calls.filter((call) => call.method === 'chat.retryNow').map((call) => call.input)).toEqual([
      { id: 'c1' },
    ]);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Stop' })));
    expect(view.transport.calls.filter((call) => call.method === 'chat.stop').map((call) => call.input)).toEqual([
      { id: 'c1' },
    ]);
  });

  it('an overloaded Anthropic API (no provider name): "The API is overloaded"', async () => {
    const live = waitingTurn({ reason: 'overloaded', until: NOW + 3_000, attempt: 3, maxAttempts: 5 });
    renderWithBerth(<MessageList conversation={conversation} live={live} />, { handlers });
    await screen.findByText('The API is overloaded — retrying in 3 s (attempt 3 of 5)');
  });

  it('offline: says it will retry when the connection is back, with why; the browser going online asks at once', async () => {
    const refused = chatError('chat-error.api-refused', { url: 'https://api.anthropic.com' });
    const live = waitingTurn({
      reason: 'network',
      giveUpAt: NOW + 300_000,
      attempt: 2,
      maxAttempts: 5,
      cause: refused.message,
    });
    const view = renderWithBerth(<MessageList conversation={conversation} live={live} />, { handlers });
    await screen.findByText('Offline — will retry when the connection is back');
    expect(banner().textContent).toContain('Could not reach https://api.anthropic.com');
    expect(view.transport.calls.some((call) => call.method === 'chat.retryNow')).toBe(false);
    await act(async () => void window.dispatchEvent(new Event('online')));
    expect(view.transport.calls.filter((call) => call.method === 'chat.retryNow')).toHaveLength(1);
  });

  it('reads in the person’s language (Japanese)', async () => {
    await activateLocale('ja');
    const live = waitingTurn({ reason: 'rate-limit', until: NOW + 5_000, attempt: 2, maxAttempts: 5 });
    renderWithBerth(<MessageList conversation={conversation} live={live} />, { handlers });
    await screen.findByText('API のレート制限中です — 5 秒後に再試行します（2 / 5 回目）');
    expect(screen.getByRole('button', { name: '今すぐ再試行' })).toBeTruthy();
  });

  it('the live turn holds the wait from turn-waiting until turn-resumed, and drops it when the turn ends', () => {
    const base = { conversationId: 'c1', turnId: 't1' };
    const started = reduceLiveTurn(undefined, { type: 'turn-started', ...base, model: 'm', toolCount: 0 });
    const waiting = reduceLiveTurn(started, {
      type: 'turn-waiting',
      ...base,
      reason: 'rate-limit',
      until: NOW + 1_000,
      attempt: 2,
      maxAttempts: 5,
    });
    expect(waiting.waiting).toEqual({ reason: 'rate-limit', until: NOW + 1_000, attempt: 2, maxAttempts: 5 });
    expect(reduceLiveTurn(waiting, { type: 'turn-resumed', ...base }).waiting).toBeUndefined();
    expect(reduceLiveTurn(waiting, { type: 'turn-finished', ...base, stopReason: 'stopped' }).waiting).toBeUndefined();
    expect(reduceLiveTurn(waiting, { type: 'turn-failed', ...base, message: 'x' }).waiting).toBeUndefined();
  });
});
