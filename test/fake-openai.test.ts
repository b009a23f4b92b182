import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../e2e/fake-llm/fake-openai';

// The fake must refuse what OpenAI refuses, or a broken translation would
// pass; and it must answer as the `openai` package expects without streaming
// and when scripted over HTTP (for e2e runs in another process).

describe('the fake OpenAI-compatible server', () => {
  let fake: FakeOpenAi;
  let client: OpenAI;

  beforeEach(async () => {
    fake = await FakeOpenAi.start({ apiKey: 'k' });
    client = new OpenAI({ apiKey: 'k', baseURL: fake.url, maxRetries: 0, logLevel: 'off' });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('refuses calls left unanswered and tool messages that answer no call, as OpenAI does', async () => {
    fake.script([{ text: 'never' }, { text: 'never' }]);
    const call = { id: 'c1', type: 'function' as const, function: { name: 'f', arguments: '{}' } };
    await expect(
      client.chat.completions.create({
        model: 'm',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'user', content: 'y' },
        ],
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('The following tool_call_ids did not have response messages: c1'),
    });
    await expect(
      client.chat.completions.create({
        model: 'm',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'c1', content: 'r' },
        ],
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(
        "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'",
      ),
    });
    expect(fake.pending).toBe(2);
  });

  it('answers without streaming, with tool calls and usage, and can be scripted over HTTP', async () => {
    const scripted = await fetch(fake.url.replace(/\/v1$/, '/__fake/script'), {
      method: 'POST',
      body: JSON.stringify({
        turns: [
          {
            text: 'Calling.',
            toolUses: [{ name: 'f', input: { a: 1 } }],
            usage: { prompt_tokens: 9, completion_tokens: 4, cached_tokens: 5 },
          },
        ],
      }),
    });
    expect(await scripted.json()).toEqual({ ok: true, queued: 1 });
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    });
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: 'Calling.',
        tool_calls: [{ id: 'call_fake_1_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
      },
    });
    expect(completion.usage).toEqual({
      prompt_tokens: 9,
      completion_tokens: 4,
      total_tokens: 13,
      prompt_tokens_details: { cached_tokens: 5 },
    });
    expect(fake.requests[0]?.stream).toBe(false);
  });
});
