import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { AnthropicProvider, LlmError } from './llm-provider';
import type { LlmStreamRequest } from './llm-provider';

// What each failure of the Messages API says to the person as a code and its facts (chat-error.*), beside its
// English: through the real SDK against the fake API, as the chat meets them.

const ASK: LlmStreamRequest = {
  model: 'claude-test-1',
  messages: [{ role: 'user', content: 'Hi' }],
  maxTokens: 256,
};

async function failure(provider: AnthropicProvider, request: LlmStreamRequest = ASK): Promise<LlmError> {
  const error = await provider.stream(request).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof LlmError)) throw new Error(`expected an LlmError, got ${String(error)}`);
  return error;
}

describe("the Anthropic provider's failures carry a code and their facts", () => {
  let fake: FakeAnthropic;
  let provider: AnthropicProvider;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-good' });
    provider = new AnthropicProvider({ apiKey: 'sk-good', baseURL: fake.url, maxRetries: 0 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('a rejected key: 401 with what the API said', async () => {
    const wrong = new AnthropicProvider({ apiKey: 'sk-bad', baseURL: fake.url, maxRetries: 0 });
    const error = await failure(wrong);
    expect(error.hostMessage).toEqual({
      code: 'chat-error.api-key-rejected',
      params: { status: 401, detail: expect.any(String) },
    });
    expect(error.message).toBe(
      `The API key was rejected (401: ${String(error.hostMessage?.params?.detail)}). Enter a valid key in Settings.`,
    );
  });

  it('rate limited with retry-after: the seconds are a number; without it, 0', async () => {
    fake.script([
      { error: { status: 429, type: 'rate_limit_error', message: 'Slow down', headers: { 'retry-after': '17' } } },
      { error: { status: 429, type: 'rate_limit_error', message: 'Slow down' } },
    ]);
    const timed = await failure(provider);
    expect(timed.hostMessage).toEqual({
      code: 'chat-error.api-rate-limited',
      params: { status: 429, detail: 'Slow down', retryAfter: 17 },
    });
    expect(timed.message).toBe('Rate limited by the API (429: Slow down). Try again in 17 s.');
    const untimed = await failure(provider);
    expect(untimed.hostMessage?.params).toEqual({ status: 429, detail: 'Slow down', retryAfter: 0 });
    expect(untimed.message).toBe('Rate limited by the API (429: Slow down). Wait a moment, then retry.');
  });

  it('overloaded (529), a model not found (404) and an error event mid-reply', async () => {
    fake.script([
      { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } },
      { error: { status: 404, type: 'not_found_error', message: 'model: claude-nope' } },
      { text: 'Half an ans', streamError: { type: 'overloaded_error', message: 'Overloaded' } },
    ]);
    expect((await failure(provider)).hostMessage).toEqual({
      code: 'chat-error.api-overloaded',
      params: { status: 529, detail: 'Overloaded', retryAfter: 0 },
    });
    expect((await failure(provider, { ...ASK, model: 'claude-nope' })).hostMessage).toEqual({
      code: 'chat-error.api-model-not-found',
      params: { status: 404, detail: 'model: claude-nope', model: 'claude-nope' },
    });
    expect((await failure(provider)).hostMessage).toEqual({
      code: 'chat-error.api-overloaded-mid-reply',
      params: { detail: 'Overloaded' },
    });
  });

  it('a stream the network dropped mid-reply, and a server nobody listens on', async () => {
    fake.script([{ text: 'The answer is', dropAfterContent: true }]);
    const dropped = await failure(provider);
    expect(dropped.kind).toBe('network');
    expect(dropped.hostMessage).toEqual({
      code: 'chat-error.api-unreachable-detail',
      params: { url: fake.url, detail: 'other side closed' },
    });
    const url = fake.url;
    await fake.close();
    const refused = await failure(new AnthropicProvider({ apiKey: 'sk-good', baseURL: url, maxRetries: 0 }));
    expect(refused.hostMessage).toEqual({ code: 'chat-error.api-refused', params: { url } });
    expect(refused.message).toBe(
      `Could not reach ${url}: nothing is listening there. Check the network connection (and ANTHROPIC_BASE_URL if it is set).`,
    );
    fake = await FakeAnthropic.start();
  });

  it('no key at all', () => {
    let thrown: unknown;
    try {
      new AnthropicProvider({ apiKey: ' ' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      kind: 'auth',
      message: 'No Anthropic API key: enter one in Settings or set ANTHROPIC_API_KEY.',
      hostMessage: { code: 'chat-error.anthropic-no-key' },
    });
  });

  it('a stream whose connection closes after some text: the connection was lost mid-reply, not "could not be read: terminated"', async () => {
    fake.script([{ text: 'The answer is forty two', dropAfterDeltas: 2 }]);
    const lost = await failure(provider);
    expect(lost.kind).toBe('network');
    expect(lost.hostMessage).toEqual({ code: 'chat-error.connection-lost-mid-reply', params: { url: fake.url } });
    expect(lost.message).toBe(
      `The connection to ${fake.url} closed in the middle of the reply. Check the network connection, then try again.`,
    );
  });
});
