import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { LlmError } from './llm-provider';
import {
  TOOL_ERROR_PREFIX,
  toChatCompletionsInput,
  toChatCompletionsMessages,
  toChatCompletionsToolChoice,
  toChatCompletionsTools,
} from './openai-translate';

const PNG = 'iVBORw0KGgo=';

describe('Anthropic-shaped requests as Chat Completions', () => {
  it('puts the system prompt first and keeps plain text as strings', () => {
    const { messages, imageCount } = toChatCompletionsMessages('Be brief.', [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'One' },
          { type: 'text', text: 'Two' },
        ],
      },
    ]);
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'One\n\nTwo' },
    ]);
    expect(imageCount).toBe(0);
    expect(toChatCompletionsMessages('  ', [{ role: 'user', content: 'x' }]).messages).toEqual([
      { role: 'user', content: 'x' },
    ]);
  });

  it("sends a person's base64 and URL images as image_url parts and counts them", () => {
    const { messages, imageCount } = toChatCompletionsMessages(undefined, [
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
          { type: 'text', text: 'What is this?' },
        ],
      },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          { type: 'text', text: 'What is this?' },
        ],
      },
    ]);
    expect(imageCount).toBe(2);
  });

  it('turns parallel tool_use blocks into one assistant message with tool_calls, and their results into tool messages in order', () => {
    const history: MessageParam[] = [
      { role: 'user', content: 'search both' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Searching.' },
          { type: 'tool_use', id: 'toolu_1', name: 'web__search', input: { q: 'a' } },
          { type: 'tool_use', id: 'toolu_2', name: 'docs__search', input: { q: 'b', n: 2 } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [
              { type: 'text', text: 'found a' },
              { type: 'text', text: 'and more' },
            ],
          },
          { type: 'tool_result', tool_use_id: 'toolu_2', is_error: true, content: 'index offline' },
          { type: 'text', text: 'Context from an app' },
        ],
      },
    ];
    expect(toChatCompletionsMessages(undefined, history).messages).toEqual([
      { role: 'user', content: 'search both' },
      {
        role: 'assistant',
        content: 'Searching.',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'web__search', arguments: '{"q":"a"}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'docs__search', arguments: '{"q":"b","n":2}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'found a\n\nand more' },
      // No is_error in Chat Completions: the text says it.
      { role: 'tool', tool_call_id: 'toolu_2', content: `${TOOL_ERROR_PREFIX}\nindex offline` },
      { role: 'user', content: 'Context from an app' },
    ]);
  });

  it('a tool call without text has null content; empty and failed results still say something', () => {
    const { messages } = toChatCompletionsMessages(undefined, [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'c1', name: 'noop', input: {} },
          { type: 'tool_use', id: 'c2', name: 'fail', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: [] },
          { type: 'tool_result', tool_use_id: 'c2', is_error: true },
        ],
      },
    ]);
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'noop', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'fail', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'The tool returned no content.' },
      { role: 'tool', tool_call_id: 'c2', content: `${TOOL_ERROR_PREFIX}\nThe tool failed without saying why.` },
    ]);
  });

  it('an image a tool returned follows the tool messages in a user message naming its call (tool messages hold text only)', () => {
    const { messages, imageCount } = toChatCompletionsMessages(undefined, [
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'shot', name: 'screenshot', input: {} },
          { type: 'tool_use', id: 'echo', name: 'echo', input: { m: 'x' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'shot',
            content: [
              { type: 'text', text: 'Here it is' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            ],
          },
          { type: 'tool_result', tool_use_id: 'echo', content: 'x' },
        ],
      },
    ]);
    expect(messages).toEqual([
      expect.objectContaining({ role: 'assistant' }),
      {
        role: 'tool',
        tool_call_id: 'shot',
        content: 'Here it is\n\n[The image this tool returned follows in the next user message.]',
      },
      { role: 'tool', tool_call_id: 'echo', content: 'x' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Image returned by tool call shot:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
    expect(imageCount).toBe(1);
  });

  it('documents become text (PDFs are named, not dropped); thinking is left out; blocks it cannot send are refused clearly', () => {
    const { messages } = toChatCompletionsMessages(undefined, [
      {
        role: 'user',
        content: [
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' }, title: 'notes.txt' },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' },
            title: 'file:///a.pdf',
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 's' },
          { type: 'text', text: 'ok' },
        ],
      },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content:
          'Document "notes.txt":\nnotes\n\n[A PDF document "file:///a.pdf" attached was given here; this provider cannot pass PDFs to the model.]',
      },
      { role: 'assistant', content: 'ok' },
    ]);
    const refused = (): unknown =>
      toChatCompletionsMessages(undefined, [
        { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }] },
      ]);
    expect(refused).toThrow(LlmError);
    expect(refused).toThrow(
      "Berth cannot send a 'server_tool_use' block in an assistant message to an OpenAI-compatible provider.",
    );
  });

  it('tools become function tools with the input schema as parameters; no tools means no tools field', () => {
    const schema = { type: 'object' as const, properties: { q: { type: 'string' } }, required: ['q'] };
    expect(
      toChatCompletionsTools([
        { name: 'web__search', description: 'Search the web', input_schema: schema },
        { name: 'noop', input_schema: { type: 'object' } },
      ]),
    ).toEqual([
      { type: 'function', function: { name: 'web__search', description: 'Search the web', parameters: schema } },
      { type: 'function', function: { name: 'noop', parameters: { type: 'object' } } },
    ]);
    expect(
      toChatCompletionsInput({ messages: [{ role: 'user', content: 'x' }], tools: [], toolChoice: { type: 'any' } }),
    ).toEqual({ messages: [{ role: 'user', content: 'x' }], imageCount: 0, settings: {} });
  });

  it("tool choice in Chat Completions' words", () => {
    expect(toChatCompletionsToolChoice({ type: 'auto' })).toBe('auto');
    expect(toChatCompletionsToolChoice({ type: 'any' })).toBe('required');
    expect(toChatCompletionsToolChoice({ type: 'none' })).toBe('none');
    expect(toChatCompletionsToolChoice({ type: 'tool', name: 'web__search' })).toEqual({
      type: 'function',
      function: { name: 'web__search' },
    });
  });
});
