import { describe, expect, it } from 'vitest';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { takesPrefill } from '../providers/anthropic-prefill';
import { CONTINUE_TEXT, continuation } from './continuation';
import { PartialReply } from './partial-reply';

const asked: MessageParam = { role: 'user', content: [{ type: 'text', text: 'Count' }] };
const partial: MessageParam = { role: 'assistant', content: [{ type: 'text', text: 'One two three ' }] };

describe('continuation', () => {
  it('sends the unfinished reply as the last assistant message without its trailing space where the model prefills', () => {
    expect(continuation([asked, partial], true)).toEqual([
      asked,
      { role: 'assistant', content: [{ type: 'text', text: 'One two three' }] },
    ]);
  });

  it('else asks the model to continue in a short user turn after it', () => {
    expect(continuation([asked, partial], false)).toEqual([
      asked,
      partial,
      { role: 'user', content: [{ type: 'text', text: CONTINUE_TEXT }] },
    ]);
  });

  it('leaves a request that does not end with a reply as it is (the reply held only thinking)', () => {
    expect(continuation([asked], true)).toEqual([asked]);
    expect(continuation([asked], false)).toEqual([asked]);
  });
});

describe('takesPrefill', () => {
  it('is true for Claude models before 4.6 and false from 4.6 on, and for ids it cannot read', () => {
    for (const model of ['claude-3-5-sonnet-20241022', 'claude-3-haiku-20240307', 'claude-opus-4-20250514'])
      expect(takesPrefill(model)).toBe(true);
    for (const model of ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5', 'claude-opus-4-1'])
      expect(takesPrefill(model)).toBe(true);
    for (const model of ['claude-opus-4-6', 'claude-sonnet-4-7', 'claude-opus-5', 'claude-fable-5-1', 'gpt-5', 'x'])
      expect(takesPrefill(model)).toBe(false);
  });
});

describe('PartialReply', () => {
  it('keeps streamed text and thinking (unsigned), dropping a redacted block and blank pieces; a tool call splits the text', () => {
    const reply = new PartialReply();
    reply.thinking('Let me ');
    reply.thinking('count.');
    reply.thinking('', true);
    reply.text('One ');
    reply.text('two.');
    reply.toolUse();
    reply.text('  ');
    reply.toolUse();
    reply.text('Three');
    expect(reply.content()).toEqual([
      { type: 'thinking', thinking: 'Let me count.' },
      { type: 'text', text: 'One two.' },
      { type: 'text', text: 'Three' },
    ]);
  });
});
