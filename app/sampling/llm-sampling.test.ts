import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { AnthropicProvider, LlmError } from '../providers/llm-provider';
import type { LlmProvider, LlmResponse, LlmStreamRequest, LlmUsage } from '../providers/llm-provider';
import { SamplingMappingError, createLlmGenerate, fromLlmResponse, toLlmRequest } from './llm-sampling';

const base: CreateMessageRequestParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  maxTokens: 64,
};

function response(
  content: LlmResponse['content'],
  stopReason: string | null = 'end_turn',
  extra: Partial<LlmResponse> = {},
): LlmResponse {
  return { content, stopReason, usage: { inputTokens: 1, outputTokens: 1 }, ...extra };
}

/** An LlmProvider that records each request and answers from a script. */
class FakeProvider implements LlmProvider {
  readonly requests: LlmStreamRequest[] = [];
  constructor(private readonly answer: (request: LlmStreamRequest) => Promise<LlmResponse>) {}
  stream(request: LlmStreamRequest): Promise<LlmResponse> {
    this.requests.push(request);
    return this.answer(request);
  }
}

describe('toLlmRequest', () => {
  it('maps messages, system prompt, temperature, stop sequences and max tokens', () => {
    const body = toLlmRequest(
      {
        ...base,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look' },
              { type: 'image', data: 'aGk=', mimeType: 'image/png' },
            ],
          },
          { role: 'assistant', content: { type: 'text', text: 'A cat.' } },
        ],
        systemPrompt: 'Be kind.',
        temperature: 0.2,
        stopSequences: ['STOP'],
        includeContext: 'allServers',
        metadata: { anything: 1 },
      },
      'claude-x',
    );
    expect(body).toEqual({
      model: 'claude-x',
      maxTokens: 64,
      system: 'Be kind.',
      temperature: 0.2,
      stopSequences: ['STOP'],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'aGk=' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'A cat.' }] },
      ],
    });
  });

  it('maps tools, tool choice, tool_use and tool_result blocks', () => {
    const body = toLlmRequest(
      {
        ...base,
        messages: [
          { role: 'user', content: { type: 'text', text: 'Weather?' } },
          { role: 'assistant', content: { type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } } },
          {
            role: 'user',
            content: {
              type: 'tool_result',
              toolUseId: 't1',
              isError: false,
              content: [
                { type: 'text', text: 'Rain' },
                { type: 'resource', resource: { uri: 'file:///w.txt', text: 'details' } },
                { type: 'resource_link', uri: 'file:///map.png', name: 'map' },
              ],
            },
          },
        ],
        tools: [
          {
            name: 'weather',
            description: 'Weather',
            inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
          },
        ],
        toolChoice: { mode: 'required' },
      },
      'claude-x',
    );
    expect(body.tools).toEqual([
      {
        name: 'weather',
        description: 'Weather',
        input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ]);
    expect(body.toolChoice).toEqual({ type: 'any' });
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } }],
    });
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          is_error: false,
          content: [
            { type: 'text', text: 'Rain' },
            { type: 'text', text: 'Resource file:///w.txt:\ndetails' },
            { type: 'text', text: '[resource link: map <file:///map.png>]' },
          ],
        },
      ],
    });
    expect(toLlmRequest({ ...base, tools: [], toolChoice: { mode: 'none' } }, 'm').toolChoice).toEqual({
      type: 'none',
    });
  });

  it('refuses a request that offers two tools of the same name, naming it', () => {
    const tool = (property: string) => ({
      name: 'lookup',
      inputSchema: { type: 'object' as const, properties: { [property]: { type: 'string' } } },
    });
    expect(() =>
      toLlmRequest({ ...base, tools: [tool('a'), { ...tool('b'), name: 'other' }, tool('c')] }, 'm'),
    ).toThrow(
      new SamplingMappingError(
        "the request offers two tools named 'lookup': tool names must be unique (the model APIs refuse repeated names), so the server has to rename one",
      ),
    );
  });

  it('refuses audio and unsupported image types with a message that says where', () => {
    expect(() =>
      toLlmRequest(
        { ...base, messages: [{ role: 'user', content: { type: 'audio', data: 'aGk=', mimeType: 'audio/wav' } }] },
        'm',
      ),
    ).toThrow(
      new SamplingMappingError('message 1: Berth cannot send audio to a model (audio/wav); only text and images'),
    );
    expect(() =>
      toLlmRequest(
        {
          ...base,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'x' },
                { type: 'image', data: 'aGk=', mimeType: 'image/bmp' },
              ],
            },
          ],
        },
        'm',
      ),
    ).toThrow('message 1 block 2: models take JPEG, PNG, GIF or WebP images, not image/bmp');
  });
});

describe('fromLlmResponse', () => {
  it('joins text into one block without tools and maps the stop reason', () => {
    const result = fromLlmResponse(
      response(
        [
          { type: 'text', text: 'Hello ' },
          { type: 'text', text: 'world' },
        ],
        'max_tokens',
      ),
      false,
      'claude-x',
    );
    expect(result).toEqual({
      content: { type: 'text', text: 'Hello world' },
      stopReason: 'maxTokens',
      usage: { inputTokens: 1, outputTokens: 1 },
      model: 'claude-x',
    });
  });

  it('gives the review the reasoning (hidden blocks said so) and its tokens only when sampling was let reason', () => {
    const blocks: LlmResponse['content'] = [
      { type: 'thinking', thinking: 'First the sea.', signature: 's' },
      { type: 'thinking', thinking: '', redacted: 'opaque' },
      { type: 'thinking', thinking: 'Then the sky.' },
      { type: 'text', text: 'A haiku.' },
    ];
    const reply = response(blocks, 'end_turn', { usage: { inputTokens: 5, outputTokens: 40, reasoningTokens: 30 } });
    expect(fromLlmResponse(reply, false, 'claude-x', { durationMs: 1_500 })).toEqual({
      content: { type: 'text', text: 'A haiku.' },
      stopReason: 'endTurn',
      usage: { inputTokens: 5, outputTokens: 40, reasoningTokens: 30 },
      model: 'claude-x',
      reasoning: { text: 'First the sea.\n\nThen the sky.', redacted: true, durationMs: 1_500 },
    });
    const notLet = fromLlmResponse(reply, false, 'claude-x');
    expect(notLet).not.toHaveProperty('reasoning');
    expect(notLet.usage).toEqual({ inputTokens: 5, outputTokens: 40 });
  });

  it('keeps text and tool_use blocks in order with tools; drops tool_use without', () => {
    const blocks: LlmResponse['content'] = [
      { type: 'text', text: 'Checking' },
      { type: 'tool_use', id: 'tu', name: 'weather', input: { city: 'Oslo' } },
    ];
    expect(fromLlmResponse(response(blocks, 'tool_use'), true, 'claude-x')).toEqual({
      content: [
        { type: 'text', text: 'Checking' },
        { type: 'tool_use', id: 'tu', name: 'weather', input: { city: 'Oslo' } },
      ],
      stopReason: 'toolUse',
      usage: { inputTokens: 1, outputTokens: 1 },
      model: 'claude-x',
    });
    expect(fromLlmResponse(response(blocks, 'tool_use'), false, 'claude-x').content).toEqual({
      type: 'text',
      text: 'Checking',
    });
    expect(fromLlmResponse(response([], 'refusal'), false, 'claude-x')).toMatchObject({
      content: { type: 'text', text: '' },
      stopReason: 'refusal',
    });
    expect(fromLlmResponse(response([], null), false, 'claude-x')).not.toHaveProperty('stopReason');
  });

  it('maps finish reasons in OpenAI words too, should a provider pass them through', () => {
    const reasons = ['stop', 'length', 'tool_calls', 'stop_sequence', 'content_filter'].map(
      (reason) => fromLlmResponse(response([], reason), false, 'm').stopReason,
    );
    expect(reasons).toEqual(['endTurn', 'maxTokens', 'toolUse', 'stopSequence', 'content_filter']);
  });

  it('tells the server the model’s own name: what the provider reported, else the id behind the key', () => {
    expect(fromLlmResponse(response([]), false, 'openai:gpt-4o').model).toBe('gpt-4o');
    expect(fromLlmResponse(response([]), false, 'ollama:llama3.1:8b').model).toBe('llama3.1:8b');
    expect(
      fromLlmResponse(
        response([], 'end_turn', { model: 'openai/gpt-4o-2024-08-06' }),
        false,
        'openrouter:openai/gpt-4o',
      ).model,
    ).toBe('openai/gpt-4o-2024-08-06');
    expect(fromLlmResponse(response([], 'end_turn', { model: ' ' }), false, 'claude-sonnet-5').model).toBe(
      'claude-sonnet-5',
    );
  });

  it('counts cache reads and writes as input, and reports nothing when the provider reported nothing (0 and 0)', () => {
    const cached = response([], 'end_turn', {
      usage: { inputTokens: 10, outputTokens: 42, cacheReadTokens: 3_000, cacheWriteTokens: 200 },
    });
    expect(fromLlmResponse(cached, false, 'm').usage).toEqual({ inputTokens: 3_210, outputTokens: 42 });
    expect(
      fromLlmResponse(response([], 'end_turn', { usage: { inputTokens: 0, outputTokens: 0 } }), false, 'm'),
    ).not.toHaveProperty('usage');
  });
});

describe('createLlmGenerate', () => {
  it('sends the mapped request with the model key and the signal to the provider and maps the answer back', async () => {
    const provider = new FakeProvider(async () =>
      response([{ type: 'text', text: 'Ahoy' }], 'end_turn', { usage: { inputTokens: 7, outputTokens: 3 } }),
    );
    const signal = new AbortController().signal;
    const result = await createLlmGenerate(provider)(
      { ...base, systemPrompt: 'Pirate.', temperature: 0.4, stopSequences: ['ARR'] },
      'openai:gpt-4o',
      signal,
    );
    expect(result).toEqual({
      content: { type: 'text', text: 'Ahoy' },
      stopReason: 'endTurn',
      usage: { inputTokens: 7, outputTokens: 3 },
      model: 'gpt-4o',
    });
    expect(provider.requests).toEqual([
      {
        model: 'openai:gpt-4o',
        maxTokens: 64,
        system: 'Pirate.',
        temperature: 0.4,
        stopSequences: ['ARR'],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        promptCache: 'none',
        signal,
      },
    ]);
  });

  it('offers tools with their choice and returns tool_use blocks', async () => {
    const provider = new FakeProvider(async () =>
      response([{ type: 'tool_use', id: 'c1', name: 'lookup', input: { q: 'x' } }], 'tool_use'),
    );
    const result = await createLlmGenerate(provider)(
      { ...base, tools: [{ name: 'lookup', inputSchema: { type: 'object' } }], toolChoice: { mode: 'required' } },
      'ollama:qwen3',
      new AbortController().signal,
    );
    expect(provider.requests[0]).toMatchObject({
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      toolChoice: { type: 'any' },
    });
    expect(result).toMatchObject({
      content: [{ type: 'tool_use', id: 'c1', name: 'lookup', input: { q: 'x' } }],
      stopReason: 'toolUse',
      model: 'qwen3',
    });
  });

  it('passes the provider’s error through with its words, and refuses audio before calling anyone', async () => {
    const provider = new FakeProvider(async () => {
      throw new LlmError('network', 'nothing is listening at 127.0.0.1:11434 — is Ollama running?');
    });
    await expect(createLlmGenerate(provider)(base, 'ollama:llama3', new AbortController().signal)).rejects.toThrow(
      'nothing is listening at 127.0.0.1:11434',
    );
    const audio = createLlmGenerate(provider)(
      { ...base, messages: [{ role: 'user', content: { type: 'audio', data: 'aGk=', mimeType: 'audio/wav' } }] },
      'm',
      new AbortController().signal,
    );
    await expect(audio).rejects.toBeInstanceOf(SamplingMappingError);
    expect(provider.requests).toHaveLength(1);
  });
});

describe('sampling through the Anthropic provider', () => {
  it('counts a cached prompt once against the budget: the provider reports Anthropic’s cache counts beside the input, and sampling adds them', async () => {
    const fake = await FakeAnthropic.start({ apiKey: 'sk-sampling' });
    try {
      fake.script([
        {
          text: 'ok',
          usage: {
            input_tokens: 10,
            output_tokens: 4,
            cache_read_input_tokens: 3_000,
            cache_creation_input_tokens: 200,
          },
        },
      ]);
      const provider = new AnthropicProvider({ apiKey: 'sk-sampling', baseURL: fake.url, maxRetries: 0 });
      const result = await createLlmGenerate(provider)(base, 'claude-test', new AbortController().signal);
      expect(result.usage).toEqual({ inputTokens: 3_210, outputTokens: 4 });
    } finally {
      await fake.close();
    }
  });

  it('sends a one-off unmarked (no cache write to pay for) and marks the steps of a server’s tool loop, which the next step reads', async () => {
    const fake = await FakeAnthropic.start({ apiKey: 'sk-sampling' });
    try {
      fake.script([{ text: 'one-off' }, { text: 'step 1' }, { text: 'step 2' }]);
      const anthropic = new AnthropicProvider({ apiKey: 'sk-sampling', baseURL: fake.url, maxRetries: 0 });
      const usages: LlmUsage[] = [];
      const provider: LlmProvider = {
        stream: async (request) => {
          const answer = await anthropic.stream(request);
          usages.push(answer.usage);
          return answer;
        },
      };
      const generate = createLlmGenerate(provider);
      const signal = new AbortController().signal;
      // Long enough to be cached (the API caches from 1,024 tokens).
      const long = 'Summarise this paragraph of a long report about harbours and berths. '.repeat(200);
      const oneOff = await generate(
        { ...base, messages: [{ role: 'user', content: { type: 'text', text: long } }] },
        'claude-test',
        signal,
      );
      expect(oneOff.usage?.inputTokens).toBeGreaterThan(1_024);
      const tool = { name: 'look_up', description: 'Looks a berth up', inputSchema: { type: 'object' as const } };
      const step1: CreateMessageRequestParams = {
        ...base,
        tools: [tool],
        messages: [{ role: 'user', content: { type: 'text', text: long } }],
      };
      await generate(step1, 'claude-test', signal);
      await generate(
        {
          ...step1,
          messages: [
            ...step1.messages,
            { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'look_up', input: {} }] },
            {
              role: 'user',
              content: [{ type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: 'Berth 7' }] }],
            },
          ],
        },
        'claude-test',
        signal,
      );
      const [first, second, third] = fake.requests;
      expect(JSON.stringify(first?.body)).not.toContain('cache_control');
      expect(second?.body).toMatchObject({ cache_control: { type: 'ephemeral' } });
      expect(third?.body).toMatchObject({ cache_control: { type: 'ephemeral' } });
      // The one-off wrote nothing to the cache; the loop's second step read what its first wrote.
      expect(usages[0]).toMatchObject({ cacheWriteTokens: 0, cacheReadTokens: 0 });
      expect(usages[1]?.cacheWriteTokens).toBeGreaterThan(1_024);
      expect(usages[2]?.cacheReadTokens).toBe((usages[1]?.cacheWriteTokens ?? 0) + (usages[1]?.inputTokens ?? 0));
    } finally {
      await fake.close();
    }
  });
});
