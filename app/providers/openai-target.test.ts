import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { OpenAiCompatibleClient } from './openai-compatible';
import { chatCompletionsTarget, refusedToolSchema } from './openai-target';

describe('what an OpenAI-compatible target takes', () => {
  it('Mistral ids for Mistral’s API and for Mistral models wherever they run; strict schemas for Gemini', () => {
    expect(chatCompletionsTarget('https://api.mistral.ai/v1', 'any-model')).toMatchObject({
      toolIds: { name: 'mistral' },
      strictSchemas: false,
    });
    for (const model of [
      'mistral-small-latest',
      'mistralai/Mistral-7B-Instruct-v0.3',
      'devstral:24b',
      'hf.co/bartowski/Ministral-8B-GGUF',
      'codestral-2501',
      'mixtral:8x7b',
    ]) {
      expect(chatCompletionsTarget('http://127.0.0.1:11434/v1', model).toolIds.name, model).toBe('mistral');
    }
    expect(chatCompletionsTarget('http://127.0.0.1:11434/v1', 'llama3.1:8b')).toMatchObject({
      toolIds: { name: 'openai' },
      strictSchemas: false,
    });
    expect(
      chatCompletionsTarget('https://generativelanguage.googleapis.com/v1beta/openai', 'models/x').strictSchemas,
    ).toBe(true);
    expect(chatCompletionsTarget('https://openrouter.ai/api/v1', 'google/gemini-2.5-pro').strictSchemas).toBe(true);
    expect(chatCompletionsTarget('https://api.openai.com/v1', 'gpt-4o')).toMatchObject({
      toolIds: { name: 'openai' },
      strictSchemas: false,
    });
  });

  it('knows a refused schema when it reads one, and nothing else', () => {
    expect(
      refusedToolSchema(
        'Invalid JSON payload received. Unknown name "$schema" at \'tools[0].function_declarations[0].parameters\': Cannot find field.',
      ),
    ).toBe(true);
    expect(refusedToolSchema('The provided JSON schema contains features not supported by xgrammar.')).toBe(true);
    expect(refusedToolSchema('registry.ollama.ai/library/gemma does not support tools')).toBe(false);
    expect(refusedToolSchema("This model's maximum context length is 8192 tokens.")).toBe(false);
  });
});

describe('a conversation that changed provider, replayed to the next one', () => {
  let fake: FakeOpenAi;
  beforeEach(async () => {
    fake = await FakeOpenAi.start({
      models: ['mistral-small-latest', 'gpt-4o'],
      modelsWithNineCharToolIds: ['mistral-small-latest'],
    });
  });
  afterEach(async () => {
    await fake.close();
  });

  // Claude called two tools in parallel, then a vLLM server one more (its 46-character id).
  const history: MessageParam[] = [
    { role: 'user', content: 'look it up' },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'web__search', input: { q: 'a' } },
        { type: 'tool_use', id: 'toolu_01B', name: 'web__search', input: { q: 'b' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: 'A' },
        { type: 'tool_result', tool_use_id: 'toolu_01B', content: 'B' },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: 'chatcmpl-tool-0123456789abcdef0123456789abcdef',
          name: 'web__search',
          input: { q: 'c' },
        },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'chatcmpl-tool-0123456789abcdef0123456789abcdef', content: 'C' }],
    },
  ];
  const request = (model: string) => ({
    model,
    maxTokens: 64,
    messages: history,
    tools: [{ name: 'web__search', input_schema: { type: 'object' as const, properties: { q: { type: 'string' } } } }],
  });

  it('Mistral gets 9-character ids, each tool message answering its own call', async () => {
    fake.script([{ text: 'done' }]);
    const client = new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 });
    await expect(client.stream(request('mistral-small-latest'))).resolves.toMatchObject({
      content: [{ type: 'text', text: 'done' }],
    });
    const messages = fake.requests[0]?.body?.messages ?? [];
    const calls = messages.flatMap((message) =>
      message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
    );
    const answers = messages.flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : []));
    expect(calls).toHaveLength(3);
    for (const id of calls) expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(answers).toEqual(calls);
    expect(messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      'A',
      'B',
      'C',
    ]);
  });

  it('OpenAI keeps Claude’s ids and gets the too-long one shortened (the fake refuses ids over 40, as OpenAI does)', async () => {
    fake.script([{ text: 'done' }]);
    const client = new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 });
    await client.stream(request('gpt-4o'));
    const messages = fake.requests[0]?.body?.messages ?? [];
    const calls = messages.flatMap((message) =>
      message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
    );
    expect(calls.slice(0, 2)).toEqual(['toolu_01A09q90qw90lq917835lq9', 'toolu_01B']);
    expect(calls[2]).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(messages.flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : []))).toEqual(calls);
  });
});
