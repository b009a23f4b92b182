import { describe, expect, it } from 'vitest';
import { TOOL_SHARE_WARNING_AT, toolLoadWarning } from './tool-warnings';

describe('toolLoadWarning', () => {
  const limits = { countAt: 40, shareAt: TOOL_SHARE_WARNING_AT };

  it('says nothing under both limits, or with an unknown context window', () => {
    expect(toolLoadWarning({ count: 40, tokensEstimate: 50_000, contextWindow: 200_000 }, limits)).toBeUndefined();
    expect(toolLoadWarning({ count: 3, tokensEstimate: 900_000, contextWindow: undefined }, limits)).toBeUndefined();
  });

  it('warns just past a quarter of the context window, not at it', () => {
    expect(toolLoadWarning({ count: 10, tokensEstimate: 50_001, contextWindow: 200_000 }, limits)).toBe(
      "The tool definitions alone take about 50,001 tokens (an estimate: 4 characters a token), 25% of this model's 200,000-token context, more than the 25% Berth warns at: switch off the servers or tools this conversation does not need, or set Tool search to Always on (Tools menu).",
    );
  });

  it('keeps the count warning as it was, and joins both reasons into one warning', () => {
    expect(toolLoadWarning({ count: 41, tokensEstimate: 10, contextWindow: 200_000 }, limits)).toBe(
      '41 tools are offered to the model. Above about 40 it picks tools less reliably and every request costs more: switch off the servers or tools this conversation does not need, or set Tool search to Always on (Tools menu).',
    );
    const both = toolLoadWarning({ count: 41, tokensEstimate: 100_000, contextWindow: 200_000 }, limits) ?? '';
    expect(both).toMatch(
      /^41 tools are offered.*costs more\. The tool definitions alone take about 100,000 tokens.*50% of this model's/,
    );
    expect(both.match(/switch off/g)).toHaveLength(1);
  });
});
