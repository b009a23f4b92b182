import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CACHE_LOOKBACK_BLOCKS,
  CACHE_TTL_MS,
  FakePromptCache,
  MIN_CACHEABLE_TOKENS,
} from '../e2e/fake-llm/anthropic-prompt-cache';
import { FakeAnthropic } from '../e2e/fake-llm/fake-anthropic';
import { FakeOpenAiPromptCache, OPENAI_CACHE_TTL_MS, promptText } from '../e2e/fake-llm/openai-prompt-cache';
import type { MessagesRequestBody } from '../e2e/fake-llm/validate-request';

// The fakes bill the prompt cache by prefix, as the real APIs do, so that tests and the bench can
// measure what Berth's request shaping gets from it. Tokens are the fakes' own count (e2e/fake-llm/fake-token-count.ts).

const mark = { type: 'ephemeral' } as const;
/** A tool whose JSON is about `tokens` tokens. */
const tool = (name: string, tokens: number) => ({
  name,
  description: 'x'.repeat(tokens * 4),
  input_schema: { type: 'object' as const },
});
const text = (value: string, marked = false) => ({
  type: 'text',
  text: value,
  ...(marked ? { cache_control: mark } : {}),
});

function request(parts: Partial<MessagesRequestBody>): MessagesRequestBody {
  return { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...parts };
}

describe('the fake Anthropic prompt cache', () => {
  it('writes a marked prefix, then bills it as a cache read when the next request starts with it', () => {
    let now = 0;
    const cache = new FakePromptCache(() => now);
    const tools = [tool('a', 800), { ...tool('b', 800), cache_control: mark }];
    const first = cache.bill(request({ tools }));
    expect(first).toMatchObject({ cache_read_input_tokens: 0 });
    if ('error' in first) throw new Error(first.error);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(1_600);
    expect(first.input_tokens).toBeLessThan(20);
    now += CACHE_TTL_MS - 1;
    const second = cache.bill(request({ tools, messages: [{ role: 'user', content: 'another question' }] }));
    expect(second).toEqual({
      cache_read_input_tokens: first.cache_creation_input_tokens,
      cache_creation_input_tokens: 0,
      input_tokens: expect.any(Number),
    });
  });

  it('reads the longest earlier prefix and writes the rest up to the last breakpoint, as a conversation grows', () => {
    const cache = new FakePromptCache();
    const tools = [{ ...tool('a', 1_200), cache_control: mark }];
    const turn1 = [{ role: 'user' as const, content: [text('q1 '.repeat(100), true)] }];
    const one = cache.bill(request({ tools, messages: turn1 }));
    if ('error' in one) throw new Error(one.error);
    const turn2 = [
      { role: 'user' as const, content: [text('q1 '.repeat(100))] },
      { role: 'assistant' as const, content: [text('a1 '.repeat(200))] },
      { role: 'user' as const, content: [text('q2', true)] },
    ];
    const two = cache.bill(request({ tools, messages: turn2 }));
    if ('error' in two) throw new Error(two.error);
    // The first request's whole prompt is read (its mark moved on, which changes nothing cached).
    expect(two.cache_read_input_tokens).toBe(one.cache_creation_input_tokens + one.input_tokens);
    expect(two.cache_creation_input_tokens).toBeGreaterThan(100);
    expect(two.input_tokens).toBe(0);
  });

  it('caches nothing without cache_control, below the minimum length, for another model, or after 5 minutes', () => {
    let now = 0;
    const cache = new FakePromptCache(() => now);
    const big = [tool('a', 2_000)];
    for (let index = 0; index < 2; index += 1)
      expect(cache.bill(request({ tools: big }))).toMatchObject({
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      });
    const small = [{ ...tool('a', MIN_CACHEABLE_TOKENS - 100), cache_control: mark }];
    cache.bill(request({ tools: small }));
    expect(cache.bill(request({ tools: small }))).toMatchObject({ cache_read_input_tokens: 0 });
    const marked = [{ ...tool('a', 2_000), cache_control: mark }];
    cache.bill(request({ tools: marked }));
    expect(cache.bill(request({ tools: marked, model: 'claude-y' }))).toMatchObject({ cache_read_input_tokens: 0 });
    now += CACHE_TTL_MS;
    expect(cache.bill(request({ tools: marked }))).toMatchObject({ cache_read_input_tokens: 0 });
  });

  it('looks back at most 20 blocks before a breakpoint for an earlier prefix', () => {
    const tools = [{ ...tool('a', 1_200), cache_control: mark }];
    const first = [{ role: 'user' as const, content: [text('start', true)] }];
    const afterFirst = () => {
      const cache = new FakePromptCache();
      cache.bill(request({ tools, messages: first }));
      return cache;
    };
    const later = (blocks: number) => [
      { role: 'user' as const, content: [text('start'), ...Array.from({ length: blocks }, (_, i) => text(`b${i}`))] },
    ];
    const near = later(CACHE_LOOKBACK_BLOCKS - 1);
    (near[0]?.content.at(-1) as Record<string, unknown>).cache_control = mark;
    // Without the tools' own mark: only the lookback from the messages' breakpoint can find the first prefix.
    const bare = tools.map(({ cache_control: _mark, ...rest }) => rest);
    const within = afterFirst().bill(request({ tools: bare, messages: near }));
    const far = later(CACHE_LOOKBACK_BLOCKS + 5);
    (far[0]?.content.at(-1) as Record<string, unknown>).cache_control = mark;
    const beyond = afterFirst().bill(request({ tools: bare, messages: far }));
    if ('error' in within || 'error' in beyond) throw new Error('refused');
    expect(within.cache_read_input_tokens).toBeGreaterThan(1_200);
    expect(within.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(beyond.cache_read_input_tokens).toBe(0);
  });

  it('treats a top-level cache_control as a mark on the last block, and refuses a fifth breakpoint', () => {
    const cache = new FakePromptCache();
    const auto = { ...request({ tools: [tool('a', 1_500)] }), cache_control: mark } as MessagesRequestBody;
    cache.bill(auto);
    expect(cache.bill(auto)).toMatchObject({ cache_read_input_tokens: expect.any(Number), input_tokens: 0 });
    const five = request({ messages: [{ role: 'user', content: [1, 2, 3, 4, 5].map((n) => text(`${n}`, true)) }] });
    expect(cache.bill(five)).toEqual({ error: 'A maximum of 4 blocks with cache_control may be provided. Found 5.' });
  });
});

describe('the fake Anthropic API bills its cache', () => {
  let fake: FakeAnthropic | undefined;
  afterEach(async () => {
    await fake?.close();
  });

  it('writes nothing for a request it answers with an error', async () => {
    fake = await FakeAnthropic.start({ fallback: { text: 'ok' } });
    const client = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const body = {
      model: 'claude-x',
      max_tokens: 10,
      tools: [{ ...tool('a', 1_500), cache_control: mark }],
      messages: [{ role: 'user' as const, content: 'hi' }],
    };
    fake.script([{ error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } }]);
    await expect(client.messages.create(body)).rejects.toMatchObject({ status: 529 });
    const answered = await client.messages.create(body);
    expect(answered.usage).toMatchObject({ cache_read_input_tokens: 0 });
    expect(answered.usage.cache_creation_input_tokens).toBeGreaterThan(1_500);
  });

  it('reports cache reads in message_start through the SDK, and a 400 for five breakpoints', async () => {
    fake = await FakeAnthropic.start({ fallback: { text: 'ok' } });
    const client = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const body = {
      model: 'claude-x',
      max_tokens: 10,
      tools: [{ ...tool('a', 1_500), cache_control: mark }],
      messages: [{ role: 'user' as const, content: 'hi' }],
    };
    const first = await client.messages.stream(body).finalMessage();
    const second = await client.messages.stream(body).finalMessage();
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1_500);
    expect(second.usage).toMatchObject({
      cache_read_input_tokens: first.usage.cache_creation_input_tokens,
      cache_creation_input_tokens: 0,
    });
    const five = [1, 2, 3, 4, 5].map((n) => ({ type: 'text' as const, text: `${n}`, cache_control: mark }));
    await expect(
      client.messages.create({ ...body, messages: [{ role: 'user', content: five }] }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('A maximum of 4 blocks') });
  });
});

describe('the fake OpenAI prompt cache', () => {
  const tools = [{ type: 'function' as const, function: { name: 'f', description: 'y'.repeat(6_000) } }];
  const user = (content: string) => ({ role: 'user' as const, content });

  it('serves a recent prompt’s common prefix from 1,024 tokens up, in steps of 128', () => {
    const cache = new FakeOpenAiPromptCache();
    const first = cache.bill({ model: 'gpt-x', tools, messages: [user('one')] });
    expect(first.cached_tokens).toBe(0);
    const second = cache.bill({ model: 'gpt-x', tools, messages: [user('one'), user('two')] });
    const common = Math.floor(promptText({ tools, messages: [user('one')] }).length / 4);
    expect(second.cached_tokens % 128).toBe(0);
    expect(second.cached_tokens).toBeGreaterThanOrEqual(1_024);
    expect(common - second.cached_tokens).toBeLessThan(128 + 1);
    expect(second.prompt_tokens).toBeGreaterThan(second.cached_tokens);
  });

  it('caches nothing for a short prompt, another model, a changed beginning, or after 5 minutes', () => {
    let now = 0;
    const cache = new FakeOpenAiPromptCache(() => now);
    cache.bill({ model: 'gpt-x', messages: [user('short')] });
    expect(cache.bill({ model: 'gpt-x', messages: [user('short')] }).cached_tokens).toBe(0);
    cache.bill({ model: 'gpt-x', tools, messages: [user('one')] });
    expect(cache.bill({ model: 'gpt-y', tools, messages: [user('one')] }).cached_tokens).toBe(0);
    const reordered = [{ type: 'function' as const, function: { name: 'g' } }, ...tools];
    expect(cache.bill({ model: 'gpt-x', tools: reordered, messages: [user('one')] }).cached_tokens).toBe(0);
    now += OPENAI_CACHE_TTL_MS;
    expect(cache.bill({ model: 'gpt-x', tools, messages: [user('one')] }).cached_tokens).toBe(0);
  });
});
