import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { createLlmGenerate } from '../../app/sampling/llm-sampling';
import { AnthropicProvider } from '../../app/providers/llm-provider';
import { TokenEstimator } from '../../app/providers/token-estimate';

// A server's sampling request gets the same protection as the chat: one that would not fit the
// model's window is refused in plain words before it is sent, never sent to fail.

const MODEL = 'claude-sonnet-5';
const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index}`).join(' ');

describe('sampling requests and the context window', () => {
  let fake: FakeAnthropic;
  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'k', contextWindow: 2_000, fallback: { text: 'fine' } });
  });
  afterEach(async () => {
    await fake.close();
  });

  const provider = () => new AnthropicProvider({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
  const request = (text: string, maxTokens = 500) => ({
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
    maxTokens,
  });

  it('refuses one that would not fit, without sending it, and says what to change', async () => {
    const generate = createLlmGenerate(provider(), { tokens: new TokenEstimator(), contextWindow: () => 2_000 });
    await expect(generate(request(words(2_000)), MODEL, new AbortController().signal)).rejects.toThrow(
      /^Berth did not send this sampling request: it would not fit claude-sonnet-5's context window \(about [\d,]+ tokens of messages, system prompt and tools, plus 500 for the answer, of 2,000\)\. Send shorter messages or ask for fewer maxTokens\.$/,
    );
    // The room for the answer counts too.
    await expect(generate(request('hello', 1_999), MODEL, new AbortController().signal)).rejects.toThrow(
      'plus 1,999 for the answer',
    );
    expect(fake.requests).toHaveLength(0);
    const answer = await generate(request('hello'), MODEL, new AbortController().signal);
    expect(answer.content).toEqual({ type: 'text', text: 'fine' });
    expect(fake.requests).toHaveLength(1);
  });

  it('without Berth knowing the window, the provider’s refusal comes back with its words', async () => {
    const generate = createLlmGenerate(provider(), { tokens: new TokenEstimator(), contextWindow: () => undefined });
    await expect(generate(request(words(2_000)), MODEL, new AbortController().signal)).rejects.toThrow(
      /prompt is too long: \d+ tokens > 2000 maximum/,
    );
  });
});
