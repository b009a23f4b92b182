import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { LlmError } from './llm-provider';
import type { LlmStreamRequest } from './llm-provider';
import { OpenAiCompatibleClient } from './openai-compatible';

// What an OpenAI-compatible server's failures say to the person as a code and its facts (chat-error.*), beside
// the English: through the real `openai` package against the fake server.

const ASK: LlmStreamRequest = { model: 'llama3.1:8b', maxTokens: 256, messages: [{ role: 'user', content: 'hi' }] };
const KEY = 'sk-good-0123456789';

async function failure(client: OpenAiCompatibleClient): Promise<LlmError> {
  const error = await client.stream(ASK).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof LlmError)) throw new Error(`expected an LlmError, got ${String(error)}`);
  return error;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe("an OpenAI-compatible provider's failures carry a code and their facts", () => {
  let fake: FakeOpenAi;
  let client: OpenAiCompatibleClient;

  beforeEach(async () => {
    fake = await FakeOpenAi.start({ apiKey: KEY, models: ['llama3.1:8b'] });
    client = new OpenAiCompatibleClient({ baseURL: fake.url, apiKey: KEY, presetName: 'Ollama', maxRetries: 0 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('a rejected key, and no key where the provider needs one', async () => {
    const wrong = new OpenAiCompatibleClient({ baseURL: fake.url, apiKey: 'sk-bad-000000', maxRetries: 0 });
    expect((await failure(wrong)).hostMessage).toEqual({
      code: 'chat-error.provider-key-rejected',
      params: { provider: '127.0.0.1', status: 401, detail: 'Incorrect API key provided.' },
    });
    const keyless = new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 });
    const needs = await failure(keyless);
    expect(needs.hostMessage?.code).toBe('chat-error.provider-needs-key');
    expect(needs.message).toBe(
      '127.0.0.1 refused the request: the key was rejected (401: Incorrect API key provided.). This provider needs a key: enter one in Settings.',
    );
  });

  it('rate limited with retry-after, overloaded, and an error mid-reply', async () => {
    fake.script([
      { error: { status: 429, message: 'Rate limit reached', headers: { 'retry-after': '20' } } },
      { error: { status: 503, message: 'server busy' } },
      { streamError: { message: 'model runner has unexpectedly stopped' } },
    ]);
    const limited = await failure(client);
    expect(limited.hostMessage).toEqual({
      code: 'chat-error.provider-rate-limited',
      params: { provider: 'Ollama', status: 429, detail: 'Rate limit reached', retryAfter: 20 },
    });
    expect(limited.message).toBe('Rate limited by Ollama (429: Rate limit reached). Try again in 20 s.');
    expect((await failure(client)).hostMessage).toEqual({
      code: 'chat-error.provider-overloaded',
      params: { provider: 'Ollama', status: 503, detail: 'server busy', retryAfter: 0 },
    });
    expect((await failure(client)).hostMessage).toEqual({
      code: 'chat-error.provider-error-mid-reply',
      params: { provider: 'Ollama', detail: 'model runner has unexpectedly stopped' },
    });
  });

  it('takes a key the server quoted out of the code’s parameters too', async () => {
    fake.script([{ error: { status: 400, message: `The key ${KEY} may not use this model` } }]);
    const error = await failure(client);
    expect(error.message).not.toContain(KEY);
    expect(JSON.stringify(error.hostMessage)).not.toContain(KEY);
    expect(error.hostMessage).toEqual({
      code: 'chat-error.provider-rejected',
      params: { provider: 'Ollama', status: 400, detail: 'The key [the key] may not use this model' },
    });
  });

  it('nothing listening: the preset named when there is one', async () => {
    const port = await closedPort();
    const baseURL = `http://127.0.0.1:${port}/v1`;
    const named = await failure(new OpenAiCompatibleClient({ baseURL, presetName: 'LM Studio', maxRetries: 0 }));
    expect(named.hostMessage).toEqual({
      code: 'chat-error.provider-refused',
      params: { host: '127.0.0.1', port: String(port), provider: 'LM Studio' },
    });
    const unnamed = await failure(new OpenAiCompatibleClient({ baseURL, maxRetries: 0 }));
    expect(unnamed.hostMessage).toEqual({
      code: 'chat-error.provider-refused-unnamed',
      params: { host: '127.0.0.1', port: String(port) },
    });
  });

  it('a stream whose connection closes after some text: the connection was lost mid-reply', async () => {
    fake.script([{ text: 'The answer is forty two', dropAfterDeltas: 2 }]);
    const lost = await failure(client);
    expect(lost.kind).toBe('network');
    expect(lost.hostMessage).toEqual({ code: 'chat-error.connection-lost-mid-reply', params: { url: fake.url } });
  });
});
