import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatEvent } from '../../shared/domain/chat';
import { ChatEventPump } from './chat-event-pump';

describe('ChatEventPump', () => {
  let delivered: ChatEvent[];
  let pump: ChatEventPump;

  beforeEach(() => {
    vi.useFakeTimers();
    delivered = [];
    pump = new ChatEventPump((event) => delivered.push(event), 34);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('batches many tokens into one text-delta per interval per conversation', () => {
    for (let index = 0; index < 100; index += 1) pump.text('c1', 't1', `${index} `);
    pump.text('c2', 't9', 'other');
    expect(delivered).toEqual([]);
    vi.advanceTimersByTime(34);
    expect(delivered).toHaveLength(2);
    expect(delivered[0]).toEqual({
      type: 'text-delta',
      conversationId: 'c1',
      turnId: 't1',
      text: Array.from({ length: 100 }, (_, index) => `${index} `).join(''),
    });
    expect(delivered[1]).toEqual({ type: 'text-delta', conversationId: 'c2', turnId: 't9', text: 'other' });
    // One second of steady tokens: at most ~30 events.
    for (let ms = 0; ms < 1_000; ms += 5) {
      pump.text('c1', 't1', 'x');
      vi.advanceTimersByTime(5);
    }
    expect(delivered.length - 2).toBeLessThanOrEqual(30);
  });

  it('keeps only the latest progress per tool call between flushes', () => {
    const progress = (value: number, toolUseId = 'u1'): ChatEvent & { type: 'tool-progress' } => ({
      type: 'tool-progress',
      conversationId: 'c1',
      turnId: 't1',
      toolUseId,
      progress: value,
      total: 10,
    });
    pump.progress(progress(1));
    pump.progress(progress(2));
    pump.progress(progress(5, 'u2'));
    vi.advanceTimersByTime(34);
    expect(delivered).toEqual([progress(2), progress(5, 'u2')]);
  });

  it('flushes buffered text before any other event of the same conversation, so order holds', () => {
    pump.text('c1', 't1', 'partial ');
    pump.emit({ type: 'turn-finished', conversationId: 'c1', turnId: 't1', stopReason: 'end_turn' });
    expect(delivered.map((event) => event.type)).toEqual(['text-delta', 'turn-finished']);
    vi.advanceTimersByTime(100);
    expect(delivered).toHaveLength(2);
  });
});
