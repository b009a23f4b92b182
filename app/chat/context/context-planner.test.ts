import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/domain/chat';
import { planCut } from './context-planner';

let next = 0;
const person = (text: string): ChatMessage => ({
  id: `m${(next += 1)}`,
  role: 'user',
  createdAt: 0,
  content: [{ type: 'text', text }],
});
const reply = (text: string): ChatMessage => ({
  id: `m${(next += 1)}`,
  role: 'assistant',
  createdAt: 0,
  content: [{ type: 'text', text }],
});
const call = (id: string): ChatMessage => ({
  id: `m${(next += 1)}`,
  role: 'assistant',
  createdAt: 0,
  content: [{ type: 'tool_use', id, server: 's', tool: 't', apiName: 's__t', input: {} }],
});
const result = (id: string): ChatMessage => ({
  id: `m${(next += 1)}`,
  role: 'user',
  createdAt: 0,
  content: [{ type: 'tool_result', toolUseId: id, content: [{ type: 'text', text: 'r' }], isError: false }],
});

describe('planCut', () => {
  // Turns: [0 person, 1 call, 2 result, 3 reply] [4 person, 5 call, 6 result, 7 reply] [8 person]
  const messages = [
    person('a'),
    call('t1'),
    result('t1'),
    reply('b'),
    person('c'),
    call('t2'),
    result('t2'),
    reply('d'),
    person('e'),
  ];
  const tokens = messages.map(() => 100);

  it('cuts the fewest whole turns that bring the request to the target, only before a person’s message', () => {
    expect(planCut(messages, tokens, 50, 2_000)).toEqual({ through: 3, tokensAfter: 550, fits: true });
    expect(planCut(messages, tokens, 50, 550)).toEqual({ through: 3, tokensAfter: 550, fits: true });
    expect(planCut(messages, tokens, 50, 549)).toEqual({ through: 7, tokensAfter: 150, fits: true });
  });

  it('never cuts between a tool_use and its tool_result, whatever the tokens say', () => {
    // The results are huge: cutting right after them would be cheapest, but it would split the turns.
    const heavy = messages.map((message) => (message.content[0]?.type === 'tool_result' ? 5_000 : 10));
    for (let target = 0; target < 12_000; target += 500) {
      const plan = planCut(messages, heavy, 0, target);
      expect([3, 7]).toContain(plan?.through);
    }
  });

  it('keeps the newest turn, says when even it does not fit, and has nothing to cut in a one-turn conversation', () => {
    expect(planCut(messages, tokens, 50, 10)).toEqual({ through: 7, tokensAfter: 150, fits: false });
    expect(planCut(messages.slice(0, 4), tokens, 0, 10)).toBeUndefined();
  });
});
