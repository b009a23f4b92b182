import { describe, expect, it } from 'vitest';
import { conversationUsage, estimateTokens, promptTokens, sumUsage, turnUsages } from './chat-usage';

const person = (id: string) => ({ id, role: 'user' as const, content: [{ type: 'text', text: 'q' }] });
const results = (id: string) => ({ id, role: 'user' as const, content: [{ type: 'tool_result' }] });
const reply = (
  id: string,
  usage?: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; toolTokensEstimate?: number },
) => ({
  id,
  role: 'assistant' as const,
  content: [{ type: 'text', text: 'a' }],
  ...(usage !== undefined ? { usage } : {}),
});

describe('chat usage', () => {
  it('estimates a quarter token per character, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('counts the whole prompt as the input outside the cache plus the cache reads and writes', () => {
    expect(promptTokens({ inputTokens: 10, outputTokens: 1 })).toBe(10);
    expect(promptTokens({ inputTokens: 10, outputTokens: 1, cacheReadTokens: 3_000, cacheWriteTokens: 200 })).toBe(
      3_210,
    );
  });

  it('sums usages, counting requests and keeping an optional count only where one was given', () => {
    expect(sumUsage([])).toBeUndefined();
    expect(
      sumUsage([
        { inputTokens: 1, outputTokens: 2 },
        { inputTokens: 10, outputTokens: 20, cacheReadTokens: 5 },
      ]),
    ).toEqual({ inputTokens: 11, outputTokens: 22, cacheReadTokens: 5, requests: 2 });
    expect(
      sumUsage([
        { inputTokens: 1, outputTokens: 1, requests: 3 },
        { inputTokens: 1, outputTokens: 1 },
      ])?.requests,
    ).toBe(4);
    // What the cache saved adds up signed: a first request's write costs more than it saves.
    expect(
      sumUsage([
        { inputTokens: 1, outputTokens: 1, cacheWriteTokens: 4_000, cacheSavedTokens: -1_000 },
        { inputTokens: 1, outputTokens: 1, cacheReadTokens: 4_000, cacheSavedTokens: 3_600 },
      ])?.cacheSavedTokens,
    ).toBe(2_600);
    // What capping big results saved: each request's estimate added up, absent when none cut anything.
    expect(
      sumUsage([
        { inputTokens: 1, outputTokens: 1, cappedTokensEstimate: 250_000 },
        { inputTokens: 1, outputTokens: 1, cappedTokensEstimate: 250_100 },
      ])?.cappedTokensEstimate,
    ).toBe(500_100);
    expect(sumUsage([{ inputTokens: 1, outputTokens: 1 }])).not.toHaveProperty('cappedTokensEstimate');
  });

  it('sums every model request of one reply (tool rounds included) under the reply’s last message, turn by turn', () => {
    const messages = [
      person('p1'),
      reply('a1', { inputTokens: 100, outputTokens: 10, toolTokensEstimate: 40 }),
      results('r1'),
      reply('a2', { inputTokens: 200, outputTokens: 20, cacheReadTokens: 80, toolTokensEstimate: 40 }),
      person('p2'),
      reply('a3', { inputTokens: 7, outputTokens: 1 }),
      person('p3'),
      reply('a4'),
    ];
    const turns = turnUsages(messages);
    expect([...turns.keys()]).toEqual(['a2', 'a3']);
    expect(turns.get('a2')).toEqual({
      inputTokens: 300,
      outputTokens: 30,
      cacheReadTokens: 80,
      toolTokensEstimate: 80,
      requests: 2,
    });
    expect(turns.get('a3')).toEqual({ inputTokens: 7, outputTokens: 1, requests: 1 });
    expect(conversationUsage(messages)).toEqual({
      inputTokens: 307,
      outputTokens: 31,
      cacheReadTokens: 80,
      toolTokensEstimate: 80,
      requests: 3,
    });
    expect(conversationUsage([person('p'), reply('a')])).toBeUndefined();
  });

  it('sums what tool search saved: a request it did not narrow counts its sent definitions as the full ones', () => {
    const plain = { inputTokens: 1, outputTokens: 1, toolTokensEstimate: 100 };
    const searched = { inputTokens: 1, outputTokens: 1, toolTokensEstimate: 300, toolTokensFullEstimate: 50_000 };
    expect(sumUsage([plain, searched, plain])).toMatchObject({
      toolTokensEstimate: 500,
      toolTokensFullEstimate: 50_200,
    });
    expect(sumUsage([searched, searched])).toMatchObject({ toolTokensEstimate: 600, toolTokensFullEstimate: 100_000 });
    expect(sumUsage([plain, plain])?.toolTokensFullEstimate).toBeUndefined();
  });
});
