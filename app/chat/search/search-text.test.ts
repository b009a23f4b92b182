import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/domain/chat';
import { looseSearchTexts, searchTexts, TOOL_TEXT_CAP } from './search-text';

const messages: ChatMessage[] = [
  { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'find the ferry' }] },
  {
    id: 'a1',
    role: 'assistant',
    createdAt: 2,
    content: [
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 't1', server: 's', tool: 'web', apiName: 's__web', input: {} },
    ],
  },
  {
    id: 'r1',
    role: 'user',
    createdAt: 3,
    content: [
      {
        type: 'tool_result',
        toolUseId: 't1',
        isError: false,
        content: [
          { type: 'text', text: 'x'.repeat(TOOL_TEXT_CAP) },
          { type: 'text', text: 'more' },
        ],
      },
    ],
  },
];

describe('looseSearchTexts', () => {
  it('reads the same texts from a conversation file’s JSON as searchTexts does from checked messages', () => {
    const json: unknown = JSON.parse(JSON.stringify({ id: 'c1', title: 't', messages }));
    expect(looseSearchTexts(json)).toEqual(searchTexts(messages));
  });

  it('skips what does not have the expected shape instead of failing', () => {
    const odd = {
      messages: [
        null,
        { id: 'm1', role: 'system', content: [{ type: 'text', text: 'not a role Berth saves' }] },
        { id: 'm2', role: 'user', content: [{ type: 'text', text: 42 }, 'stray', { type: 'text', text: 'kept' }] },
        { id: 'm3', role: 'assistant', content: 'not a list' },
      ],
    };
    expect(looseSearchTexts(odd)).toEqual([{ messageId: 'm2', role: 'user', text: 'kept' }]);
    expect(looseSearchTexts('nonsense')).toEqual([]);
  });
});
