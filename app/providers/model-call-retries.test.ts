import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { AnthropicProvider, LlmError, type LlmStreamRequest } from './llm-provider';
import { OpenAiCompatibleClient } from './openai-compatible';
import { RetryWaits, streamWithRetries, type ModelWait, type RetryOptions } from './model-call-retries';

// Rate limits, overloads and network drops against the fake APIs through the real SDKs: each wait is told as it
// starts, the SDK does not retry behind Berth's back, and the bounds end the waiting with the provider's failure.

const ASK: LlmStreamRequest = { model: 'claude-test-1', messages: [{ role: 'user', content: 'Hi' }], maxTokens: 256 };

function recorder(overrides: Partial<RetryOptions> = {}): RetryOptions & { waits: RetryWaits; seen: ModelWait[] } {
  const seen: ModelWait[] = [];
  return {
    waits: new RetryWaits(),
    seen,
    onWait: (wait) => seen.push(wait),
    onResume: () => undefined,
    policy: { baseDelayMs: 20, maxDelayMs: 40, probeBaseMs: 20, probeMaxMs: 40 },
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof LlmError)) throw new Error(`expected an LlmError, got ${String(error)}`);
  return error;
}

describe('streamWithRetries against the Anthropic fake', () => {
  let fake: FakeAnthropic;
  let provider: AnthropicProvider;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-good' });
    // The SDK's default retries (2) stay on: the request's ownRetries must turn them off.
    provider = new AnthropicProvider({ apiKey: 'sk-good', baseURL: fake.url });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('waits out a 429 for its retry-after, tells the wait with its end, then streams the reply', async () => {
    fake.script([{ text: 'Hello after the wait.', busy: { times: 1, status: 429, retryAfter: 1 } }]);
    const options = recorder();
    const before = Date.now();
    const reply = await streamWithRetries(provider, ASK, options);
    expect(reply.content).toEqual([{ type: 'text', text: 'Hello after the wait.' }]);
    expect(fake.requests).toHaveLength(2);
    expect(options.seen).toHaveLength(1);
    const [wait] = options.seen;
    expect(wait).toMatchObject({ reason: 'rate-limit', attempt: 2, maxAttempts: 5 });
    expect(wait?.cause?.code).toBe('chat-error.api-rate-limited');
    expect(wait?.until).toBeGreaterThanOrEqual(before + 1000);
    expect(wait?.until).toBeLessThanOrEqual(Date.now());
  });

  it('backs off with jitter after 529 overloaded_error (no retry-after), each attempt one request', async () => {
    fake.script([{ text: 'Back.', busy: { times: 2, status: 529 } }]);
    const options = recorder({ random: () => 0 });
    const reply = await streamWithRetries(provider, ASK, options);
    expect(reply.content).toEqual([{ type: 'text', text: 'Back.' }]);
    expect(fake.requests).toHaveLength(3);
    expect(options.seen.map((wait) => [wait.reason, wait.attempt])).toEqual([
      ['overloaded', 2],
      ['overloaded', 3],
    ]);
    // random 0: half of the doubling backoff (20 ms, then 40 ms).
    const [first, second] = options.seen;
    expect(second!.until! - first!.until!).toBeGreaterThanOrEqual(20);
  });

  it('stops with the provider’s failure after the last attempt', async () => {
    fake.script([{ text: 'Never.', busy: { times: 10, status: 429 } }]);
    const options = recorder({ policy: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 10 } });
    const error = await failure(streamWithRetries(provider, ASK, options));
    expect(error.kind).toBe('rate-limit');
    expect(error.hostMessage?.code).toBe('chat-error.api-rate-limited');
    expect(fake.requests).toHaveLength(3);
    expect(options.seen.map((wait) => wait.attempt)).toEqual([2, 3]);
  });

  it('a retry-after past the total bound stops at once, without a wait', async () => {
    fake.script([{ text: 'Never.', busy: { times: 1, status: 429, retryAfter: 600 } }]);
    const options = recorder({ policy: { maxTotalMs: 120_000 } });
    const error = await failure(streamWithRetries(provider, ASK, options));
    expect(error.hostMessage?.params).toMatchObject({ retryAfter: 600 });
    expect(options.seen).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('Stop during the wait ends it at once as stopped', async () => {
    fake.script([{ text: 'Never.', busy: { times: 1, status: 429, retryAfter: 60 } }]);
    const controller = new AbortController();
    const options = recorder({ onWait: () => controller.abort() });
    const started = Date.now();
    const error = await failure(streamWithRetries(provider, { ...ASK, signal: controller.signal }, options));
    expect(error.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('Retry now ends the wait early and asks again', async () => {
    fake.script([{ text: 'Asked again.', busy: { times: 1, status: 429, retryAfter: 60 } }]);
    const waits = new RetryWaits();
    const options = recorder({ waits, onWait: () => setTimeout(() => expect(waits.retryNow()).toBe(true), 10) });
    const started = Date.now();
    const reply = await streamWithRetries(provider, ASK, options);
    expect(reply.content).toEqual([{ type: 'text', text: 'Asked again.' }]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(waits.retryNow()).toBe(false);
  });

  it('a reply cut off after it streamed text is not asked again (its text is kept by the chat)', async () => {
    fake.script([{ text: 'Half of it and more', dropAfterDeltas: 2 }, { text: 'Second copy.' }]);
    const options = recorder();
    const streamed: string[] = [];
    const error = await failure(
      streamWithRetries(provider, { ...ASK, onText: (delta) => streamed.push(delta) }, options),
    );
    expect(error.kind).toBe('network');
    expect(streamed.join('')).not.toBe('');
    expect(options.seen).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('waits for the network when nothing listens, probing the address, and asks again once it answers', async () => {
    const port = Number(new URL(fake.url).port);
    await fake.close();
    const options = recorder();
    const reply = streamWithRetries(provider, ASK, options);
    await expect.poll(() => options.seen.length).toBe(1);
    expect(options.seen[0]).toMatchObject({ reason: 'network', attempt: 2 });
    expect(options.seen[0]?.until).toBeUndefined();
    expect(options.seen[0]?.giveUpAt).toBeGreaterThan(Date.now());
    expect(options.seen[0]?.cause?.code).toBe('chat-error.api-refused');
    fake = await FakeAnthropic.start({ apiKey: 'sk-good', port });
    fake.script([{ text: 'The network is back.' }]);
    expect((await reply).content).toEqual([{ type: 'text', text: 'The network is back.' }]);
  });

  it('stops waiting for the network after its bound, with the connection failure', async () => {
    await fake.close();
    const options = recorder({ policy: { networkMaxMs: 150, probeBaseMs: 20, probeMaxMs: 40 } });
    const error = await failure(streamWithRetries(provider, ASK, options));
    expect(error.hostMessage?.code).toBe('chat-error.api-refused');
    expect(options.seen).toHaveLength(1);
    fake = await FakeAnthropic.start({ apiKey: 'sk-good' });
  });
});

describe('streamWithRetries against the OpenAI-compatible fake', () => {
  let fake: FakeOpenAi;

  beforeEach(async () => {
    fake = await FakeOpenAi.start();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('takes retry-after-ms and names the provider in the wait', async () => {
    fake.script([{ text: 'Hi there.', busy: { times: 1, status: 429, retryAfterMs: 1500 } }]);
    const provider = new OpenAiCompatibleClient({ baseURL: fake.url, presetName: 'Local fake' });
    const options = recorder();
    const before = Date.now();
    const reply = await streamWithRetries(provider, { ...ASK, model: 'gpt-test' }, options);
    expect(reply.content).toEqual([{ type: 'text', text: 'Hi there.' }]);
    expect(fake.requests).toHaveLength(2);
    expect(options.seen[0]).toMatchObject({ reason: 'rate-limit', provider: 'Local fake' });
    // retry-after-ms 1500 is told in whole seconds, rounded up.
    expect(options.seen[0]?.until).toBeGreaterThanOrEqual(before + 2000);
  });

  it('a 503 of a server still loading its model is an overload: backed off, then the reply', async () => {
    fake.script([{ text: 'Loaded now.', busy: { times: 1, status: 503 } }]);
    const provider = new OpenAiCompatibleClient({ baseURL: fake.url, presetName: 'LM Studio' });
    const options = recorder();
    const reply = await streamWithRetries(provider, { ...ASK, model: 'gpt-test' }, options);
    expect(reply.content).toEqual([{ type: 'text', text: 'Loaded now.' }]);
    expect(options.seen).toMatchObject([
      { reason: 'overloaded', provider: 'LM Studio', attempt: 2, cause: { code: 'chat-error.provider-overloaded' } },
    ]);
    expect(fake.requests).toHaveLength(2);
  });
});
