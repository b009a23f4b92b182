import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { ChatCompletionsReply, parseToolArguments, toLlmUsage, toStopReason } from './openai-translate-reply';

type Delta = ChatCompletionChunk.Choice.Delta;
type ToolCallDelta = ChatCompletionChunk.Choice.Delta.ToolCall;

function chunk(delta: Delta, finishReason: ChatCompletionChunk.Choice['finish_reason'] = null): ChatCompletionChunk {
  return {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function usageChunk(usage: ChatCompletionChunk['usage']): ChatCompletionChunk {
  return { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage };
}

describe('a streamed Chat Completions reply as an LlmResponse', () => {
  it('passes text deltas to onText as they come and maps stop, usage and cached tokens', () => {
    const texts: string[] = [];
    const reply = new ChatCompletionsReply({ onText: (delta) => texts.push(delta) });
    reply.add(chunk({ role: 'assistant', content: '' }));
    reply.add(chunk({ content: 'Hello ' }));
    reply.add(chunk({ content: 'there.' }));
    reply.add(chunk({}, 'stop'));
    reply.add(
      usageChunk({
        prompt_tokens: 120,
        completion_tokens: 7,
        total_tokens: 127,
        prompt_tokens_details: { cached_tokens: 100 },
      }),
    );
    expect(texts).toEqual(['Hello ', 'there.']);
    expect(reply.finish()).toEqual({
      content: [{ type: 'text', text: 'Hello there.' }],
      stopReason: 'end_turn',
      usage: { inputTokens: 20, outputTokens: 7, cacheReadTokens: 100, cacheSavedTokens: 50 },
      model: 'm',
    });
  });

  it('accumulates parallel tool calls by index even when their argument pieces interleave, announcing each once', () => {
    const started: Array<{ id: string; name: string }> = [];
    const reply = new ChatCompletionsReply({ onToolUseStart: (use) => started.push(use) });
    reply.add(chunk({ content: 'Checking.' }));
    reply.add(
      chunk({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'web__search', arguments: '' } }],
      }),
    );
    reply.add(
      chunk({
        tool_calls: [
          { index: 1, id: 'call_b', type: 'function', function: { name: 'docs__search', arguments: '{"q":' } },
        ],
      }),
    );
    reply.add(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":"a",' } }] }));
    reply.add(chunk({ tool_calls: [{ index: 1, function: { arguments: '"b"}' } }] }));
    // Some servers repeat the name in later deltas: it must not be doubled.
    reply.add(chunk({ tool_calls: [{ index: 0, function: { name: 'web__search', arguments: '"n":2}' } }] }));
    reply.add(chunk({}, 'tool_calls'));
    expect(started).toEqual([
      { id: 'call_a', name: 'web__search' },
      { id: 'call_b', name: 'docs__search' },
    ]);
    expect(reply.finish()).toEqual({
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'call_a', name: 'web__search', input: { q: 'a', n: 2 } },
        { type: 'tool_use', id: 'call_b', name: 'docs__search', input: { q: 'b' } },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 0, outputTokens: 0 },
      model: 'm',
    });
  });

  it('gives calls without an id one (the result must pair with it), and splits index-less calls by their ids', () => {
    const started: Array<{ id: string; name: string }> = [];
    const noIds = new ChatCompletionsReply({ onToolUseStart: (use) => started.push(use) });
    noIds.add(chunk({ tool_calls: [{ index: 0, function: { name: 'a', arguments: '{}' } }] }));
    noIds.add(chunk({}, 'tool_calls'));
    const [only] = noIds.finish().content;
    expect(only).toMatchObject({
      type: 'tool_use',
      name: 'a',
      input: {},
      id: expect.stringMatching(/^call_[0-9a-f]{24}$/),
    });
    expect(started).toEqual([{ id: (only as { id: string }).id, name: 'a' }]);

    const noIndex = new ChatCompletionsReply();
    const indexless = (call: Omit<ToolCallDelta, 'index'>): Delta => ({ tool_calls: [call as ToolCallDelta] });
    noIndex.add(chunk(indexless({ id: 'x1', function: { name: 'one', arguments: '{"a":' } })));
    noIndex.add(chunk(indexless({ function: { arguments: '1}' } })));
    noIndex.add(chunk(indexless({ id: 'x2', function: { name: 'two', arguments: '{}' } })));
    // A server that says `stop` after tool calls still wants them run.
    noIndex.add(chunk({}, 'stop'));
    expect(noIndex.finish()).toMatchObject({
      content: [
        { type: 'tool_use', id: 'x1', name: 'one', input: { a: 1 } },
        { type: 'tool_use', id: 'x2', name: 'two', input: {} },
      ],
      stopReason: 'tool_use',
    });
  });

  it('arguments that are not a JSON object give a tool_use with empty input and an inputError quoting the raw text', () => {
    const reply = new ChatCompletionsReply();
    reply.add(
      chunk({
        tool_calls: [
          { index: 0, id: 'bad', function: { name: 'write', arguments: '{"path": "a.txt", "text": "unterminated' } },
        ],
      }),
    );
    reply.add(chunk({ tool_calls: [{ index: 1, id: 'list', function: { name: 'write', arguments: '[1,2]' } }] }));
    reply.add(chunk({ tool_calls: [{ index: 2, id: 'empty', function: { name: 'noop', arguments: '' } }] }));
    reply.add(chunk({}, 'tool_calls'));
    const [bad, list, empty] = reply.finish().content;
    expect(bad).toEqual({
      type: 'tool_use',
      id: 'bad',
      name: 'write',
      input: {},
      inputError: expect.stringMatching(
        /^The arguments were not valid JSON \(.+\): \{"path": "a\.txt", "text": "unterminated$/,
      ),
    });
    expect(list).toEqual({
      type: 'tool_use',
      id: 'list',
      name: 'write',
      input: {},
      inputError: 'The arguments were not a JSON object: [1,2]',
    });
    expect(empty).toEqual({ type: 'tool_use', id: 'empty', name: 'noop', input: {} });
    expect(parseToolArguments('x'.repeat(3000))).toEqual({
      error: expect.stringMatching(/… \(3000 characters in all\)$/),
    });
  });

  it('maps finish reasons: length keeps a half-written call from running, content_filter and refusals read as refusal', () => {
    expect(toStopReason('stop', false)).toBe('end_turn');
    expect(toStopReason('tool_calls', true)).toBe('tool_use');
    expect(toStopReason('length', true)).toBe('max_tokens');
    expect(toStopReason('content_filter', false)).toBe('refusal');
    expect(toStopReason(null, false)).toBe('end_turn');

    const refused = new ChatCompletionsReply();
    refused.add(chunk({ refusal: 'I cannot help with that.' }));
    refused.add(chunk({}, 'stop'));
    expect(refused.finish()).toMatchObject({
      content: [{ type: 'text', text: 'I cannot help with that.' }],
      stopReason: 'refusal',
    });
  });

  it('usage without cache details or without usage at all', () => {
    expect(toLlmUsage({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 })).toEqual({
      inputTokens: 10,
      outputTokens: 3,
    });
    expect(
      toLlmUsage({
        prompt_tokens: 10,
        completion_tokens: 3,
        total_tokens: 13,
        prompt_tokens_details: { cached_tokens: 0 },
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 3 });
    expect(toLlmUsage(undefined)).toEqual({ inputTokens: 0, outputTokens: 0 });
  });
});
