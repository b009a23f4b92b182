import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/domain/chat';
import { toApiMessages } from './api-messages';

const person = (text: string): ChatMessage => ({
  id: text,
  role: 'user',
  createdAt: 0,
  content: [{ type: 'text', text }],
});

describe('toApiMessages and reasoning', () => {
  it('sends Anthropic thinking back first and unchanged, redacted blocks too, and never unsigned reasoning', () => {
    const messages: ChatMessage[] = [
      person('go'),
      {
        id: 'a1',
        role: 'assistant',
        createdAt: 0,
        content: [
          { type: 'thinking', thinking: 'plan', signature: 'sig-1', durationMs: 1200 },
          { type: 'thinking', thinking: '', redacted: 'opaque==' },
          { type: 'tool_use', id: 't1', server: 's', tool: 'x', apiName: 's__x', input: {} },
        ],
      },
      {
        id: 'r1',
        role: 'user',
        createdAt: 0,
        content: [{ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'ok' }], isError: false }],
      },
      {
        id: 'a2',
        role: 'assistant',
        createdAt: 0,
        content: [
          { type: 'thinking', thinking: 'from a local model', durationMs: 10 },
          { type: 'text', text: 'done' },
        ],
      },
    ];
    const api = toApiMessages(messages);
    expect(api[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'plan', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque==' },
        { type: 'tool_use', id: 't1', name: 's__x', input: {} },
      ],
    });
    expect(api[3]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
  });
});
