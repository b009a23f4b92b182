import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatEvent } from '../../shared/domain/chat';
import { ChatEventPump } from './chat-event-pump';

describe('ChatEventPump: reasoning', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('coalesces thinking deltas like text, and delivers them before the text of the same interval', () => {
    const delivered: ChatEvent[] = [];
    const pump = new ChatEventPump((event) => delivered.push(event), 34);
    pump.thinking('c', 't', 'Let me ');
    pump.thinking('c', 't', 'think.');
    pump.text('c', 't', 'Answer');
    pump.thinking('c', 't', '');
    expect(delivered).toEqual([]);
    vi.advanceTimersByTime(34);
    expect(delivered).toEqual([
      { type: 'thinking-delta', conversationId: 'c', turnId: 't', text: 'Let me think.' },
      { type: 'text-delta', conversationId: 'c', turnId: 't', text: 'Answer' },
    ]);
  });
});
