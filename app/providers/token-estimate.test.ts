import { describe, expect, it } from 'vitest';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { MEDIA_TOKENS, TokenEstimator, partsTotal, rawRequestParts } from './token-estimate';

const image: MessageParam = {
  role: 'user',
  content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(40_000) } }],
};

describe('TokenEstimator', () => {
  it('splits a request into tools, system, history and attachments; an image costs MEDIA_TOKENS, not its base64', () => {
    const parts = rawRequestParts({
      system: 'x'.repeat(400),
      tools: [{ name: 'a', description: 'd'.repeat(1_000), input_schema: { type: 'object' } }],
      messages: [{ role: 'user', content: 'y'.repeat(800) }, image],
    });
    expect(parts.system).toBe(100);
    expect(parts.attachments).toBe(MEDIA_TOKENS);
    expect(parts.tools).toBeGreaterThan(250);
    expect(parts.history).toBeGreaterThan(200);
    expect(parts.history).toBeLessThan(260);
  });

  it('learns a factor per model from the reported prompt, ignores reports that say nothing, and corrects every estimate', () => {
    const tokens = new TokenEstimator();
    const request = { messages: [{ role: 'user' as const, content: 'z'.repeat(4_000) }] };
    const raw = partsTotal(rawRequestParts(request));
    tokens.observe('anthropic:m', request, raw * 1.5);
    tokens.observe('ollama:m', request, 0);
    tokens.observe('ollama:m', request, raw * 100);
    expect(tokens.factor('anthropic:m')).toBeCloseTo(1.5);
    expect(tokens.factor('ollama:m')).toBe(1);
    expect(tokens.request('anthropic:m', request)).toBeCloseTo(raw * 1.5, -1);
    expect(tokens.tokens('anthropic:m', 'w'.repeat(400))).toBe(150);
    expect(tokens.charsPerToken('anthropic:m')).toBeCloseTo(4 / 1.5);
    tokens.observe('cheap:m', request, raw * 0.5);
    expect(tokens.charsPerToken('cheap:m')).toBe(4);
    // A later report moves the factor toward it, most of the way.
    tokens.observe('anthropic:m', request, raw * 2);
    expect(tokens.factor('anthropic:m')).toBeGreaterThan(1.8);
    expect(tokens.factor('anthropic:m')).toBeLessThan(2);
  });
});
