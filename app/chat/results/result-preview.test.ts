import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatToolResultBlock } from '../../../shared/domain/chat';
import { wholeResultText } from '../../../shared/domain/result-text';
import { PREVIEW_TEXT_CHARS, RESULT_PREVIEW_CHARS, previewChatEvent, previewResult } from './result-preview';

const result = (
  content: ChatToolResultBlock['content'],
  more: Partial<ChatToolResultBlock> = {},
): ChatToolResultBlock => ({
  type: 'tool_result',
  toolUseId: 'toolu_1',
  content,
  isError: false,
  ...more,
});

describe('result previews', () => {
  it('leaves a result under the bound as it is', () => {
    const small = result([{ type: 'text', text: 'x'.repeat(RESULT_PREVIEW_CHARS - 1_000) }]);
    expect(previewResult(small)).toBe(small);
  });

  it('keeps the start of a big text, its length and block count, and what else fits', () => {
    const big = result(
      [
        { type: 'text', text: `${'a'.repeat(5_000_000)}` },
        { type: 'image', data: 'b'.repeat(3_000_000), mimeType: 'image/png' },
        { type: 'text', text: 'the end' },
      ],
      { structuredContent: { rows: 'c'.repeat(400_000) }, capped: { limitTokens: 10, shownChars: 40, totalChars: 9 } },
    );
    const preview = previewResult(big);
    expect(preview.content).toEqual([
      { type: 'text', text: 'a'.repeat(PREVIEW_TEXT_CHARS) },
      { type: 'text', text: '[image (image/png): 3,000,200 characters, too big for the preview]' },
      { type: 'text', text: 'the end' },
    ]);
    expect(preview.structuredContent).toBeUndefined();
    expect(preview.capped).toEqual(big.capped);
    expect(preview.whole).toEqual({ chars: wholeResultText(big).length, blocks: 3 });
    expect(JSON.stringify(preview).length).toBeLessThan(RESULT_PREVIEW_CHARS);
    // A preview is not previewed again.
    expect(previewResult(preview)).toBe(preview);
  });

  it('bounds many blocks to the card’s hundred, and never cuts inside a surrogate pair', () => {
    const many = result(Array.from({ length: 5_000 }, () => ({ type: 'text' as const, text: '😀'.repeat(100) })));
    const preview = previewResult(many);
    expect(preview.content).toHaveLength(100);
    expect(preview.whole?.blocks).toBe(5_000);
    const pair = result([{ type: 'text', text: `${'a'.repeat(PREVIEW_TEXT_CHARS - 1)}😀${'b'.repeat(300_000)}` }]);
    expect(previewResult(pair).content[0]).toEqual({ type: 'text', text: 'a'.repeat(PREVIEW_TEXT_CHARS - 1) });
  });

  it('previews a finished call’s result and a saved message in chat events', () => {
    const big = result([{ type: 'text', text: 'x'.repeat(1_000_000) }]);
    const base = { conversationId: 'c', turnId: 't' };
    const finished = previewChatEvent({
      type: 'tool-call-finished',
      ...base,
      toolUseId: 'toolu_1',
      isError: false,
      denied: false,
      result: big,
    }) as Extract<ChatEvent, { type: 'tool-call-finished' }>;
    expect(finished.result?.whole?.chars).toBe(1_000_000);
    const saved = previewChatEvent({
      type: 'message-saved',
      ...base,
      message: { id: 'm', role: 'user', createdAt: 0, content: [big] },
    }) as Extract<ChatEvent, { type: 'message-saved' }>;
    expect(JSON.stringify(saved).length).toBeLessThan(RESULT_PREVIEW_CHARS);
    const text: ChatEvent = { type: 'text-delta', ...base, text: 'hi' };
    expect(previewChatEvent(text)).toBe(text);
  });
});
