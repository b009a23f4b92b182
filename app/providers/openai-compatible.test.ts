import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { LlmError } from './llm-provider';
import type { LlmStreamRequest } from './llm-provider';
import { OpenAiCompatibleClient } from './openai-compatible';
import { TOOL_ERROR_PREFIX } from './openai-translate';

const BASE: Omit<LlmStreamRequest, 'messages'> = { model: 'llama3.1:8b', maxTokens: 256 };
const ASK: LlmStreamRequest = { ...BASE, messages: [{ role: 'user', content: 'hi' }] };
const TOOLS = [
  {
    name: 'web__search',
    description: 'Search',
    input_schema: { type: 'object' as const, properties: { q: { type: 'string' } } },
  },
  { name: 'docs__search', input_schema: { type: 'object' as const } },
];

describe('OpenAiCompatibleClient against the fake OpenAI-compatible server', () => {
  let fake: FakeOpenAi;
  let client: OpenAiCompatibleClient;

  beforeEach(async () => {
    fake = await FakeOpenAi.start({
      apiKey: 'sk-good',
      models: ['llama3.1:8b', 'llava', 'gemma:2b'],
      modelsWithoutTools: ['gemma:2b'],
      modelsWithoutImages: ['gemma:2b'],
    });
    client = new OpenAiCompatibleClient({ baseURL: fake.url, apiKey: 'sk-good', maxRetries: 0 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('streams text through onText and sends system, messages, max_tokens and a usage request', async () => {
    fake.script([
      { text: 'One two three four.', usage: { prompt_tokens: 50, completion_tokens: 5, cached_tokens: 32 } },
    ]);
    const deltas: string[] = [];
    const response = await client.stream({ ...ASK, system: 'Be brief.', onText: (delta) => deltas.push(delta) });
    expect(deltas).toEqual(['One ', 'two ', 'three ', 'four.']);
    expect(response).toEqual({
      content: [{ type: 'text', text: 'One two three four.' }],
      stopReason: 'end_turn',
      // Cached input at half the price (cache-prices.ts).
      usage: { inputTokens: 18, outputTokens: 5, cacheReadTokens: 32, cacheSavedTokens: 16 },
      model: 'llama3.1:8b',
    });
    const request = fake.requests[0];
    expect(request?.body).toEqual({
      model: 'llama3.1:8b',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 256,
    });
    expect(request?.headers.authorization).toBe('Bearer sk-good');
  });

  it('returns parallel tool calls (argument pieces interleaved) with parsed input, announcing each as it starts', async () => {
    fake.script([
      {
        text: 'Both.',
        toolUses: [
          { name: 'web__search', input: { q: 'alpha beta gamma' } },
          { name: 'docs__search', input: { q: 'delta', n: 3 } },
        ],
        interleave: true,
      },
    ]);
    const started: Array<{ id: string; name: string }> = [];
    const response = await client.stream({ ...ASK, tools: TOOLS, onToolUseStart: (use) => started.push(use) });
    expect(started).toEqual([
      { id: 'call_fake_1_1', name: 'web__search' },
      { id: 'call_fake_1_2', name: 'docs__search' },
    ]);
    expect(response).toMatchObject({
      stopReason: 'tool_use',
      content: [
        { type: 'text', text: 'Both.' },
        { type: 'tool_use', id: 'call_fake_1_1', name: 'web__search', input: { q: 'alpha beta gamma' } },
        { type: 'tool_use', id: 'call_fake_1_2', name: 'docs__search', input: { q: 'delta', n: 3 } },
      ],
    });
    expect(fake.requests[0]?.body?.tools).toEqual([
      {
        type: 'function',
        function: { name: 'web__search', description: 'Search', parameters: TOOLS[0]?.input_schema },
      },
      { type: 'function', function: { name: 'docs__search', parameters: { type: 'object' } } },
    ]);
  });

  it('sends tool results back as tool messages the server accepts (is_error said in the text)', async () => {
    fake.script([{ text: 'Got: {{lastToolResult}}' }]);
    const response = await client.stream({
      ...ASK,
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'search' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_1', name: 'web__search', input: { q: 'x' } },
            { type: 'tool_use', id: 'call_2', name: 'docs__search', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'result one' }] },
            {
              type: 'tool_result',
              tool_use_id: 'call_2',
              is_error: true,
              content: [{ type: 'text', text: 'offline' }],
            },
          ],
        },
      ],
    });
    expect(response.content).toEqual([{ type: 'text', text: `Got: result one\n${TOOL_ERROR_PREFIX}\noffline` }]);
  });

  it("passes sampling's settings: tool choice (any → required, one tool, no parallel calls), temperature, stop sequences; no tool_choice without tools", async () => {
    fake.script([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    await client.stream({
      ...ASK,
      tools: TOOLS,
      toolChoice: { type: 'any', disable_parallel_tool_use: true },
      temperature: 0.2,
      stopSequences: ['END'],
    });
    expect(fake.requests[0]?.body).toMatchObject({
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0.2,
      stop: ['END'],
    });
    await client.stream({ ...ASK, tools: TOOLS, toolChoice: { type: 'tool', name: 'docs__search' } });
    expect(fake.requests[1]?.body).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'docs__search' } },
    });
    expect(fake.requests[1]?.body?.parallel_tool_calls).toBeUndefined();
    // Sampling may pass a tool choice with no tools; the server would refuse it.
    await expect(client.stream({ ...ASK, toolChoice: { type: 'none' } })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'c' }],
    });
    expect(fake.requests[2]?.body?.tool_choice).toBeUndefined();
  });

  it('a keyless client (local servers) sends no Authorization header at all', async () => {
    const open = await FakeOpenAi.start({ models: ['qwen'] });
    try {
      open.script([{ text: 'ok' }]);
      const keyless = new OpenAiCompatibleClient({ baseURL: open.url, maxRetries: 0 });
      await keyless.stream({ ...ASK, model: 'qwen' });
      expect(open.requests[0]?.headers.authorization).toBeUndefined();
      await expect(keyless.listModels()).resolves.toEqual([{ id: 'qwen' }]);
    } finally {
      await open.close();
    }
  });

  it('lists models and checks the connection, the key and the model', async () => {
    await expect(client.listModels()).resolves.toEqual([{ id: 'llama3.1:8b' }, { id: 'llava' }, { id: 'gemma:2b' }]);
    await expect(client.check({ model: 'llava' })).resolves.toBeUndefined();
    await expect(client.check({ model: 'mistral' })).rejects.toMatchObject({
      kind: 'not-found',
      message: expect.stringContaining('model not found: mistral'),
    });
    const wrong = new OpenAiCompatibleClient({
      baseURL: fake.url,
      apiKey: 'sk-bad',
      presetName: 'OpenAI',
      maxRetries: 0,
    });
    await expect(wrong.check()).rejects.toMatchObject({
      kind: 'auth',
      status: 401,
      message:
        'OpenAI refused the request: the key was rejected (401: Incorrect API key provided.). Check the key in Settings.',
    });
    const none = new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 });
    await expect(none.listModels()).rejects.toMatchObject({
      kind: 'auth',
      message: expect.stringMatching(/the key was rejected .* This provider needs a key: enter one in Settings\.$/),
    });
  });

  it('a wrong key, an unknown model, rate limits and server errors in chat read clearly', async () => {
    const wrong = new OpenAiCompatibleClient({ baseURL: fake.url, apiKey: 'sk-bad', maxRetries: 0 });
    await expect(wrong.stream(ASK)).rejects.toMatchObject({
      kind: 'auth',
      message: expect.stringContaining('the key was rejected'),
    });
    await expect(client.stream({ ...ASK, model: 'mistral' })).rejects.toMatchObject({
      kind: 'not-found',
      status: 404,
      message:
        '127.0.0.1 answered: model not found: mistral (404: model "mistral" not found, try pulling it first). Pick a model it lists in Settings.',
    });
    fake.script([
      {
        error: {
          status: 429,
          message: 'Rate limit reached for requests',
          type: 'requests',
          headers: { 'retry-after': '20' },
        },
      },
      { error: { status: 500, message: 'The server had an error while processing your request.' } },
      { error: { status: 503, message: 'server busy, please try again.' } },
      { error: { status: 400, message: "Invalid 'messages[1].content': string too long." } },
      { streamError: { message: 'model runner has unexpectedly stopped' } },
    ]);
    await expect(client.stream(ASK)).rejects.toMatchObject({
      kind: 'rate-limit',
      status: 429,
      message: 'Rate limited by 127.0.0.1 (429: Rate limit reached for requests). Try again in 20 s.',
    });
    await expect(client.stream(ASK)).rejects.toMatchObject({
      kind: 'server',
      status: 500,
      message: expect.stringMatching(/internal error \(500: The server had an error/),
    });
    await expect(client.stream(ASK)).rejects.toMatchObject({ kind: 'overloaded', status: 503 });
    await expect(client.stream(ASK)).rejects.toMatchObject({
      kind: 'bad-request',
      status: 400,
      message: "127.0.0.1 rejected the request (400: Invalid 'messages[1].content': string too long.).",
    });
    await expect(client.stream(ASK)).rejects.toMatchObject({
      kind: 'server',
      message: '127.0.0.1 reported an error mid-reply (model runner has unexpectedly stopped). Retry.',
    });
  });

  it('a model without tool support fails with the tools marker; the same request without tools works', async () => {
    fake.script([{ text: 'plain answer' }]);
    const refused = client.stream({ ...ASK, model: 'gemma:2b', tools: TOOLS });
    await expect(refused).rejects.toBeInstanceOf(LlmError);
    await expect(refused).rejects.toMatchObject({
      kind: 'bad-request',
      status: 400,
      unsupported: 'tools',
      message: expect.stringContaining('does not support tools'),
    });
    await expect(client.stream({ ...ASK, model: 'gemma:2b' })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'plain answer' }],
    });
    // Without tools in the request, a 400 is not taken for missing tool support.
    fake.script([{ error: { status: 400, message: 'tools are not supported' } }]);
    await expect(client.stream(ASK)).rejects.toMatchObject({ kind: 'bad-request', unsupported: undefined });
  });

  it('images: refused by the server or known beforehand, with the images marker', async () => {
    const withImage: LlmStreamRequest = {
      ...ASK,
      model: 'gemma:2b',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'text', text: 'what is it?' },
          ],
        },
      ],
    };
    await expect(client.stream(withImage)).rejects.toMatchObject({
      kind: 'bad-request',
      unsupported: 'images',
      message: expect.stringMatching(/^gemma:2b does not take images \(Model does not support images/),
    });
    const knowing = new OpenAiCompatibleClient({
      baseURL: fake.url,
      apiKey: 'sk-good',
      maxRetries: 0,
      takesImages: (model) => model !== 'gemma:2b',
    });
    const before = fake.requests.length;
    await expect(knowing.stream(withImage)).rejects.toMatchObject({
      unsupported: 'images',
      message: 'gemma:2b does not take images. Remove the image or pick a model that can see images.',
    });
    expect(fake.requests).toHaveLength(before);
    fake.script([{ text: 'a cat' }]);
    await expect(knowing.stream({ ...withImage, model: 'llava' })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'a cat' }],
    });
    expect(fake.requests.at(-1)?.body?.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'text', text: 'what is it?' },
      ],
    });
  });

  it('switches to max_completion_tokens when the server refuses max_tokens, and keeps it', async () => {
    const strict = await FakeOpenAi.start({ rejectMaxTokens: true });
    try {
      strict.script([{ text: 'first' }, { text: 'second' }]);
      const reasoning = new OpenAiCompatibleClient({ baseURL: strict.url, apiKey: 'k', maxRetries: 0 });
      await expect(reasoning.stream(ASK)).resolves.toMatchObject({ content: [{ type: 'text', text: 'first' }] });
      await expect(reasoning.stream(ASK)).resolves.toMatchObject({ content: [{ type: 'text', text: 'second' }] });
      expect(strict.requests.map((request) => [request.body?.max_tokens, request.body?.max_completion_tokens])).toEqual(
        [
          [256, undefined],
          [undefined, 256],
          [undefined, 256],
        ],
      );
    } finally {
      await strict.close();
    }
  });

  it('stop: aborting mid-stream rejects with kind aborted and the text so far reached onText', async () => {
    fake.script([{ text: 'a long reply that is held open', holdOpen: true }]);
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = client.stream({ ...ASK, signal: controller.signal, onText: (delta) => deltas.push(delta) });
    await waitFor(() => deltas.join('') === 'a long reply that is held open');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted', message: 'The request to the model was stopped.' });
    await expect(client.stream({ ...ASK, signal: AbortSignal.abort() })).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('arguments that are not JSON come back as a tool_use with inputError, not as a failed stream', async () => {
    fake.script([{ toolUses: [{ name: 'web__search', rawArguments: '{"q": "unterminated' }] }]);
    const response = await client.stream({ ...ASK, tools: TOOLS });
    expect(response.stopReason).toBe('tool_use');
    expect(response.content).toEqual([
      {
        type: 'tool_use',
        id: 'call_fake_1_1',
        name: 'web__search',
        input: {},
        inputError: expect.stringMatching(/^The arguments were not valid JSON .*: \{"q": "unterminated$/),
      },
    ]);
  });
});

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
