import Anthropic, { BadRequestError } from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../e2e/fake-llm/fake-anthropic';
import { FakeOpenAi } from '../e2e/fake-llm/fake-openai';
import { countPromptTokens } from '../e2e/fake-llm/fake-token-count';

// The fakes hold each model to its context window with the real services' status and words, so a
// host that sends a request that cannot fit is refused in tests as it would be in use.

const long = (words: number) => Array.from({ length: words }, (_, index) => `word${index}`).join(' ');

describe('the fakes enforce a context window', () => {
  const closing: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const fake of closing.splice(0)) await fake.close();
  });

  it('Anthropic: 400 invalid_request_error "prompt is too long: N tokens > M maximum", the script untouched', async () => {
    const fake = await FakeAnthropic.start({ apiKey: 'k', contextWindow: 500 });
    closing.push(fake);
    const client = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    fake.script([{ text: 'fits' }]);
    const request = {
      model: 'claude-sonnet-5',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user' as const, content: long(400) }],
    };
    const tokens = countPromptTokens(request);
    expect(tokens).toBeGreaterThan(500);
    const refusal = await client.messages.create(request).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BadRequestError);
    expect(refusal).toMatchObject({
      status: 400,
      error: {
        type: 'error',
        error: { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > 500 maximum` },
      },
    });
    expect(fake.pending).toBe(1);

    // What fits is answered, its usage the whole prompt (system included) by the same count.
    const small = { ...request, messages: [{ role: 'user' as const, content: 'hi' }] };
    const answer = await client.messages.create(small);
    expect(answer.usage.input_tokens).toBe(countPromptTokens(small));
    expect(countPromptTokens(small)).toBeGreaterThan(countPromptTokens({ messages: small.messages }));
  });

  it('Anthropic: the window is each listed model’s max_input_tokens, as /v1/models says it', async () => {
    const fake = await FakeAnthropic.start({
      apiKey: 'k',
      models: [
        { id: 'claude-small', display_name: 'Small', created_at: '2026-01-01T00:00:00Z', max_input_tokens: 300 },
      ],
    });
    closing.push(fake);
    const client = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    expect((await client.models.retrieve('claude-small')).max_input_tokens).toBe(300);
    await expect(
      client.messages.create({
        model: 'claude-small',
        max_tokens: 10,
        messages: [{ role: 'user', content: long(300) }],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('tokens > 300 maximum') });
  });

  it('OpenAI-compatible: 400 context_length_exceeded in OpenAI’s words; /models lists context_length', async () => {
    const fake = await FakeOpenAi.start({ apiKey: 'k', models: ['small', 'big'], contextLengths: { small: 400 } });
    closing.push(fake);
    const client = new OpenAI({ apiKey: 'k', baseURL: fake.url, maxRetries: 0, logLevel: 'off' });
    const listed = await fetch(`${fake.url}/models`, { headers: { authorization: 'Bearer k' } });
    expect(((await listed.json()) as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ id: 'small', context_length: 400 }),
      expect.not.objectContaining({ context_length: expect.anything() }),
    ]);
    fake.script([{ text: 'fits' }]);
    const messages = [{ role: 'user' as const, content: long(300) }];
    const prompt = countPromptTokens({ messages });
    await expect(client.chat.completions.create({ model: 'small', messages })).rejects.toMatchObject({
      status: 400,
      code: 'context_length_exceeded',
      param: 'messages',
      message: `400 This model's maximum context length is 400 tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`,
    });
    // The completion's reserve counts too.
    const short = [{ role: 'user' as const, content: long(20) }];
    await expect(
      client.chat.completions.create({ model: 'small', messages: short, max_tokens: 390 }),
    ).rejects.toMatchObject({
      code: 'context_length_exceeded',
      message: expect.stringContaining(
        `(${countPromptTokens({ messages: short })} in the messages, 390 in the completion)`,
      ),
    });
    expect(fake.pending).toBe(1);
    const answer = await client.chat.completions.create({ model: 'big', messages });
    expect(answer.usage?.prompt_tokens).toBe(prompt);
  });
});
