import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { SamplingMappingError, createAnthropicGenerate, fromAnthropicMessage, toAnthropicRequest } from './anthropic-sampling';

const base: CreateMessageRequestParams = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 64 };

function message(content: unknown[], stopReason: string | null = 'end_turn'): Message {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  } as unknown as Message;
}

describe('toAnthropicRequest', () => {
  it('maps messages, system prompt, temperature, stop sequences and max tokens', () => {
    const body = toAnthropicRequest(
      {
        ...base,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image', data: 'aGk=', mimeType: 'image/png' }] },
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
      max_tokens: 64,
      system: 'Be kind.',
      temperature: 0.2,
      stop_sequences: ['STOP'],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'aGk=' } }] },
        { role: 'assistant', content: [{ type: 'text', text: 'A cat.' }] },
      ],
    });
  });

  it('maps tools, tool choice, tool_use and tool_result blocks', () => {
    const body = toAnthropicRequest(
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
        tools: [{ name: 'weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
        toolChoice: { mode: 'required' },
      },
      'claude-x',
    );
    expect(body.tools).toEqual([{ name: 'weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }]);
    expect(body.tool_choice).toEqual({ type: 'any' });
    expect(body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } }] });
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
    expect(toAnthropicRequest({ ...base, tools: [], toolChoice: { mode: 'none' } }, 'm').tool_choice).toEqual({ type: 'none' });
  });

  it('refuses audio and unsupported image types with a message that says where', () => {
    expect(() => toAnthropicRequest({ ...base, messages: [{ role: 'user', content: { type: 'audio', data: 'aGk=', mimeType: 'audio/wav' } }] }, 'm')).toThrow(
      new SamplingMappingError('message 1: Claude models do not accept audio input (audio/wav)'),
    );
    expect(() =>
      toAnthropicRequest({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'image', data: 'aGk=', mimeType: 'image/bmp' }] }] }, 'm'),
    ).toThrow('message 1 block 2: Claude accepts JPEG, PNG, GIF or WebP images, not image/bmp');
  });
});

describe('fromAnthropicMessage', () => {
  it('joins text into one block without tools and maps the stop reason', () => {
    const result = fromAnthropicMessage(
      message([
        { type: 'thinking', thinking: '...', signature: 's' },
        { type: 'text', text: 'Hello ', citations: null },
        { type: 'text', text: 'world', citations: null },
      ], 'max_tokens'),
      false,
    );
    expect(result).toEqual({ content: { type: 'text', text: 'Hello world' }, stopReason: 'maxTokens', usage: { inputTokens: 1, outputTokens: 1 } });
  });

  it('keeps text and tool_use blocks in order with tools', () => {
    const result = fromAnthropicMessage(
      message([{ type: 'text', text: 'Checking', citations: null }, { type: 'tool_use', id: 'tu', name: 'weather', input: { city: 'Oslo' }, caller: { type: 'direct' } }], 'tool_use'),
      true,
    );
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'Checking' },
        { type: 'tool_use', id: 'tu', name: 'weather', input: { city: 'Oslo' } },
      ],
      stopReason: 'toolUse',
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    expect(fromAnthropicMessage(message([], 'refusal'), false)).toEqual({ content: { type: 'text', text: '' }, stopReason: 'refusal', usage: { inputTokens: 1, outputTokens: 1 } });
  });

  it('reports usage as input (cache writes and reads included) and output tokens, and nothing when the answer has no report', () => {
    const cached = { ...message([{ type: 'text', text: 'x', citations: null }]), usage: { input_tokens: 10, cache_creation_input_tokens: 200, cache_read_input_tokens: 3_000, output_tokens: 42 } };
    expect(fromAnthropicMessage(cached as unknown as Message, false).usage).toEqual({ inputTokens: 3_210, outputTokens: 42 });
    const unreported = { ...message([{ type: 'text', text: 'x', citations: null }]), usage: undefined };
    expect(fromAnthropicMessage(unreported as unknown as Message, false)).not.toHaveProperty('usage');
  });
});

describe('createAnthropicGenerate', () => {
  it('calls the Messages API with the mapped body and maps the answer back', async () => {
    const bodies: unknown[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        bodies.push({ url: req.url, body: JSON.parse(text) as unknown });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(message([{ type: 'text', text: 'Ahoy', citations: null }])));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new Anthropic({ apiKey: 'test-key', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
      const generate = createAnthropicGenerate(client);
      const result = await generate({ ...base, systemPrompt: 'Pirate.' }, 'claude-test', new AbortController().signal);
      expect(result).toEqual({ content: { type: 'text', text: 'Ahoy' }, stopReason: 'endTurn', usage: { inputTokens: 1, outputTokens: 1 } });
      expect(bodies).toEqual([
        { url: '/v1/messages', body: { model: 'claude-test', max_tokens: 64, system: 'Pirate.', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] } },
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
