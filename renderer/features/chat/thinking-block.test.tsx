// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatEvent } from '../../../shared/domain/chat';
import { reduceLiveTurn } from '../../store';
import { ThinkingBlock } from './thinking-block';
import { renderWithBerth as render } from '../../test-support/render-with-berth';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ThinkingBlock', () => {
  it('is open while the reasoning streams, counting the seconds, and folds when the answer starts', () => {
    vi.useFakeTimers();
    const { rerender } = render(<ThinkingBlock text="Let me see" streaming />);
    expect(screen.getByRole('button', { name: /Thinking… 0 s/ }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('region', { name: 'The model’s reasoning' }).textContent).toContain('Let me see');
    act(() => vi.advanceTimersByTime(3_200));
    expect(screen.getByRole('button', { name: /Thinking… 3 s/ })).toBeTruthy();

    rerender(<ThinkingBlock text="Let me see what the file holds." streaming={false} />);
    expect(screen.getByRole('button', { name: 'Thought for 3 s' }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region')).toBeNull();
    // Once saved, the host's measure is the title.
    rerender(<ThinkingBlock text="Let me see what the file holds." durationMs={12_400} />);
    expect(screen.getByRole('button', { name: 'Thought for 12 s' })).toBeTruthy();
  });

  it('starts folded when saved, and opens and folds again from the keyboard', () => {
    render(<ThinkingBlock text="Plan: read, then answer." durationMs={2_000} />);
    const button = screen.getByRole('button', { name: 'Thought for 2 s' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('region').textContent).toContain('Plan: read, then answer.');
    fireEvent.click(button);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('says the provider hid a redacted block', () => {
    render(<ThinkingBlock text="" redacted durationMs={4_000} />);
    fireEvent.click(screen.getByRole('button', { name: /Thought for 4 s/ }));
    expect(screen.getByRole('button').textContent).toContain('Thought for 4 s· hidden by the provider');
    expect(screen.getByRole('region').textContent).toContain(
      'The provider hid this reasoning. Berth keeps it, encrypted, and sends it back to the model, but cannot show it.',
    );
  });
});

describe('the live turn and reasoning', () => {
  const base = { conversationId: 'c', turnId: 't' };
  it('gathers thinking deltas, marks the thinking done when text starts, and drops it once the reply is saved', () => {
    const events: ChatEvent[] = [
      { type: 'turn-started', ...base, model: 'm', toolCount: 0 },
      { type: 'thinking-delta', ...base, text: 'Hmm, ' },
      { type: 'thinking-delta', ...base, text: 'let me think.' },
    ];
    let turn = events.reduce(reduceLiveTurn, undefined as never);
    expect(turn.thinking).toEqual({ text: 'Hmm, let me think.', done: false });
    turn = reduceLiveTurn(turn, { type: 'thinking-delta', ...base, text: '', redacted: true });
    expect(turn.thinking).toEqual({ text: 'Hmm, let me think.', redacted: true, done: false });
    turn = reduceLiveTurn(turn, { type: 'text-delta', ...base, text: 'Answer' });
    expect(turn.thinking?.done).toBe(true);
    turn = reduceLiveTurn(turn, {
      type: 'message-saved',
      ...base,
      message: { id: 'a', role: 'assistant', createdAt: 0, content: [] },
    });
    expect(turn.thinking).toBeUndefined();
  });
});
