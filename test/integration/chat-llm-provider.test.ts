import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { AnthropicProvider, LlmError } from '../../app/providers/llm-provider';
import type { LlmStreamRequest } from '../../app/providers/llm-provider';

const BASE: Omit<LlmStreamRequest, 'messages'> = { model: 'claude-test-1', maxTokens: 256 };

/** A port nothing listens on: bind one, then close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('AnthropicProvider against the fake Messages API', () => {
  let fake: FakeAnthropic;
  let provider: AnthropicProvider;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-good' });
    provider = new AnthropicProvider({ apiKey: 'sk-good', baseURL: fake.url, maxRetries: 0 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('sends a temperature above Anthropic’s 1 as 1 (a conversation set higher for another provider’s model), which the API takes', async () => {
    fake.script([{ text: 'Warm.' }, { text: 'Cool.' }]);
    await provider.stream({ ...BASE, temperature: 1.6, messages: [{ role: 'user', content: 'hot?' }] });
    await provider.stream({ ...BASE, temperature: 0.4, messages: [{ role: 'user', content: 'cold?' }] });
    expect(fake.requests.map((request) => request.body?.temperature)).toEqual([1, 0.4]);
  });

  it('streams text through onText and returns content, stop reason and usage', async () => {
    fake.script([{ text: 'One two three four.' }]);
    const deltas: string[] = [];
    const response = await provider.stream({
      ...BASE,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'count' }],
      onText: (delta) => deltas.push(delta),
    });
    expect(deltas.join('')).toBe('One two three four.');
    expect(deltas.length).toBe(4);
    expect(response).toEqual({
      content: [{ type: 'text', text: 'One two three four.' }],
      stopReason: 'end_turn',
      // The API reports the cache's counts even when nothing was cached (this prompt is too short to be).
      usage: {
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        cacheSavedTokens: 0,
      },
      model: 'claude-test-1',
    });
    expect(fake.requests[0]?.body).toMatchObject({
      model: 'claude-test-1',
      max_tokens: 256,
      system: 'Be brief.',
      stream: true,
    });
    expect(fake.requests[0]?.body?.tools).toBeUndefined();
    expect(fake.requests[0]?.body).not.toHaveProperty('temperature');
    expect(fake.requests[0]?.body).not.toHaveProperty('stop_sequences');
  });

  it('sends temperature, stop sequences and the tool choice when the request has them (sampling does)', async () => {
    fake.script([{ text: 'ok' }]);
    await provider.stream({
      ...BASE,
      messages: [{ role: 'user', content: 'x' }],
      temperature: 0.3,
      stopSequences: ['END'],
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      toolChoice: { type: 'any' },
    });
    expect(fake.requests[0]?.body).toMatchObject({
      temperature: 0.3,
      stop_sequences: ['END'],
      tool_choice: { type: 'any' },
    });
  });

  it('returns tool_use blocks with their parsed input and reports each as it starts', async () => {
    fake.script([
      {
        toolUses: [
          { name: 'everything__echo', input: { message: 'hi' } },
          { name: 'everything__get-sum', input: { a: 1, b: 2 } },
        ],
      },
    ]);
    const started: Array<{ id: string; name: string }> = [];
    const response = await provider.stream({
      ...BASE,
      messages: [{ role: 'user', content: 'use tools' }],
      tools: [
        { name: 'everything__echo', input_schema: { type: 'object' } },
        { name: 'everything__get-sum', input_schema: { type: 'object' } },
      ],
      onToolUseStart: (toolUse) => started.push(toolUse),
    });
    expect(started.map((use) => use.name)).toEqual(['everything__echo', 'everything__get-sum']);
    expect(response.stopReason).toBe('tool_use');
    expect(response.content).toEqual([
      { type: 'tool_use', id: started[0]?.id, name: 'everything__echo', input: { message: 'hi' } },
      { type: 'tool_use', id: started[1]?.id, name: 'everything__get-sum', input: { a: 1, b: 2 } },
    ]);
  });

  it('maps a rejected key, rate limits, overload and server errors to clear messages', async () => {
    const wrong = new AnthropicProvider({ apiKey: 'sk-bad', baseURL: fake.url, maxRetries: 0 });
    const auth = wrong.stream({ ...BASE, messages: [{ role: 'user', content: 'x' }] });
    await expect(auth).rejects.toBeInstanceOf(LlmError);
    await expect(auth).rejects.toMatchObject({
      kind: 'auth',
      status: 401,
      message: expect.stringMatching(/^The API key was rejected \(401: invalid x-api-key\)/),
    });

    fake.script([
      {
        error: {
          status: 429,
          type: 'rate_limit_error',
          message: 'Number of requests exceeded',
          headers: { 'retry-after': '20' },
        },
      },
      { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } },
      { error: { status: 500, type: 'api_error', message: 'Internal' } },
      { error: { status: 400, type: 'invalid_request_error', message: 'max_tokens: too large' } },
      { streamError: { type: 'overloaded_error', message: 'Overloaded' } },
    ]);
    const call = () => provider.stream({ ...BASE, messages: [{ role: 'user', content: 'x' }] });
    await expect(call()).rejects.toMatchObject({
      kind: 'rate-limit',
      message: 'Rate limited by the API (429: Number of requests exceeded). Try again in 20 s.',
    });
    await expect(call()).rejects.toMatchObject({
      kind: 'overloaded',
      message: expect.stringMatching(/^The API is overloaded right now \(529: Overloaded\)\. Wait a moment/),
    });
    await expect(call()).rejects.toMatchObject({ kind: 'server', status: 500 });
    await expect(call()).rejects.toMatchObject({
      kind: 'bad-request',
      message: 'The API rejected the request (400: max_tokens: too large).',
    });
    const midStream = call();
    await expect(midStream).rejects.toMatchObject({ kind: 'overloaded' });
    await expect(midStream).rejects.toHaveProperty('retryable', true);
  });

  it('retries an overloaded answer by itself when retries are on', async () => {
    const retrying = new AnthropicProvider({ apiKey: 'sk-good', baseURL: fake.url, maxRetries: 2 });
    fake.script([
      { error: { status: 529, type: 'overloaded_error', message: 'Overloaded', headers: { 'retry-after-ms': '10' } } },
      { text: 'made it' },
    ]);
    const response = await retrying.stream({ ...BASE, messages: [{ role: 'user', content: 'x' }] });
    expect(response.content).toEqual([{ type: 'text', text: 'made it' }]);
    expect(fake.requests).toHaveLength(2);
  });

  it('says which address it could not reach', async () => {
    const port = await closedPort();
    const nowhere = new AnthropicProvider({ apiKey: 'sk', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
    await expect(nowhere.stream({ ...BASE, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      kind: 'network',
      message: expect.stringContaining(`Could not reach http://127.0.0.1:${port}`),
    });
  });

  it('stops a stream in the middle when the signal aborts', async () => {
    fake.script([{ text: 'This reply never finishes because the person stops it.', holdOpen: true }]);
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = provider.stream({
      ...BASE,
      messages: [{ role: 'user', content: 'x' }],
      signal: controller.signal,
      onText: (delta) => {
        deltas.push(delta);
        controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    expect(deltas.length).toBeGreaterThan(0);
  });

  it('refuses an empty key before any request', () => {
    expect(() => new AnthropicProvider({ apiKey: ' ' })).toThrow(/No Anthropic API key/);
  });
});
