import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { AnthropicProvider } from './llm-provider';
import { FakePromptCache } from '../../e2e/fake-llm/anthropic-prompt-cache';
import type { MessagesRequestBody } from '../../e2e/fake-llm/validate-request';
import { CACHE_LOOKBACK_BLOCKS, MAX_CACHE_BREAKPOINTS, withCacheBreakpoints } from './anthropic-cache';

const tool = (name: string): Tool => ({
  name,
  description: `${name} `.repeat(400),
  input_schema: { type: 'object', properties: { q: { type: 'string' } } },
});
const TOOLS = [tool('alpha'), tool('beta'), tool('gamma')];
const SYSTEM = 'Follow the servers’ instructions.';

/** Every cache_control in the JSON, as the path to it. */
function marks(value: unknown, path = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'cache_control' ? [path] : marks(inner, path === '' ? key : `${path}.${key}`),
  );
}

/** The JSON with every mark taken out: what the prompt says. */
const unmarked = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, inner) => (key === 'cache_control' ? undefined : inner)));

const conversation = (turns: number): MessageParam[] =>
  Array.from({ length: turns }, (_, index): MessageParam[] => [
    { role: 'user', content: `Question ${index + 1}` },
    { role: 'assistant', content: [{ type: 'text', text: `Answer ${index + 1}` }] },
  ])
    .flat()
    .concat([{ role: 'user', content: `Question ${turns + 1}` }]);

describe('cache breakpoints on an Anthropic request', () => {
  it('marks the whole prompt (top level) and the last tool, and changes nothing the model reads', () => {
    const request = { model: 'm', tools: TOOLS, system: SYSTEM, messages: conversation(2) };
    const shaped = withCacheBreakpoints(request);
    expect(marks(shaped)).toEqual(['tools.2', '']);
    expect(shaped).toHaveProperty('cache_control', { type: 'ephemeral' });
    expect(unmarked(shaped)).toEqual(request);
    // The messages are the caller's own, and the caller's request is left as it was.
    expect(shaped.messages).toBe(request.messages);
    expect(marks(request)).toEqual([]);
  });

  it('marks the last tool the prompt starts with, never a deferred one (the API refuses a mark there)', () => {
    const deferred = TOOLS.map((entry) => ({ ...entry, name: `${entry.name}_later`, defer_loading: true }));
    const shaped = withCacheBreakpoints({
      model: 'm',
      tools: [...TOOLS.slice(0, 2), ...deferred],
      messages: conversation(0),
    });
    expect(marks(shaped)).toEqual(['tools.1', '']);
    expect(marks(withCacheBreakpoints({ model: 'm', tools: deferred, messages: conversation(0) }))).toEqual(['']);
  });

  it('marks where the previous request ended when this one added more blocks than the API looks back over', () => {
    // A thinking block and `calls` parallel tool calls with their results: 1 + 2 × calls blocks since the question.
    const turn = (calls: number): MessageParam[] => {
      const ids = Array.from({ length: calls }, (_, index) => `t${index}`);
      return [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look everywhere' },
            { type: 'text', text: '' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hm', signature: 's' },
            ...ids.map((id) => ({ type: 'tool_use' as const, id, name: 'alpha', input: {} })),
          ],
        },
        { role: 'user', content: ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' })) },
      ];
    };
    const many = withCacheBreakpoints({ messages: turn(CACHE_LOOKBACK_BLOCKS / 2) });
    // The empty text block cannot carry a mark; the one before it can.
    expect(marks(many)).toEqual(['messages.0.content.0', '']);
    expect(marks(many).length).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS);
    expect(many).not.toHaveProperty('tools');
    // One call fewer and the API's own look-back finds the previous prompt: nothing is marked in the messages.
    expect(marks(withCacheBreakpoints({ messages: turn(CACHE_LOOKBACK_BLOCKS / 2 - 1) }))).toEqual(['']);
  });

  it('keeps the cache through a turn of many parallel tool calls, which the API’s own look-back would miss', () => {
    const ids = Array.from({ length: 12 }, (_, index) => `t${index}`);
    const question: MessageParam = { role: 'user', content: 'Check every file.' };
    const calls: MessageParam[] = [
      { role: 'assistant', content: ids.map((id) => ({ type: 'tool_use' as const, id, name: 'alpha', input: {} })) },
      { role: 'user', content: ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' })) },
    ];
    const bill = (cache: FakePromptCache, messages: MessageParam[], shape: boolean) => {
      const request = { model: 'm', max_tokens: 10, tools: TOOLS, messages };
      // Unshaped, the request still carries the automatic mark: only Berth's extra breakpoint is missing.
      const body = shape ? withCacheBreakpoints(request) : { ...request, cache_control: { type: 'ephemeral' } };
      const result = cache.bill(body as MessagesRequestBody);
      if ('error' in result) throw new Error(result.error);
      return result;
    };
    const run = (shape: boolean) => {
      const cache = new FakePromptCache();
      const first = bill(cache, [question], shape);
      const second = bill(cache, [question, ...calls], shape);
      return { first: first.cache_creation_input_tokens + first.input_tokens, read: second.cache_read_input_tokens };
    };
    const marked = run(true);
    expect(marked.read).toBe(marked.first);
    // With the automatic mark alone, the look-back (20 blocks) stops short of the previous prompt: nothing is read.
    expect(run(false).read).toBe(0);
  });

  it('lets each request of a growing conversation read the whole previous prompt from the cache', () => {
    const cache = new FakePromptCache();
    const bill = (turns: number) => {
      const body = withCacheBreakpoints({
        model: 'm',
        max_tokens: 10,
        tools: TOOLS,
        system: SYSTEM,
        messages: conversation(turns),
      });
      const result = cache.bill(body as MessagesRequestBody);
      if ('error' in result) throw new Error(result.error);
      return result;
    };
    let previous = bill(0);
    expect(previous.cache_read_input_tokens).toBe(0);
    for (let turns = 1; turns < 6; turns += 1) {
      const next = bill(turns);
      // The previous request's whole prompt is read; only this turn's new messages are written, for the next one.
      expect(next.cache_read_input_tokens).toBe(
        previous.cache_read_input_tokens + previous.cache_creation_input_tokens + previous.input_tokens,
      );
      expect(next.cache_creation_input_tokens).toBeGreaterThan(0);
      expect(next.cache_creation_input_tokens).toBeLessThan(30);
      expect(next.input_tokens).toBe(0);
      previous = next;
    }
  });
});

describe('a request whose last blocks are its own (an app’s turn context)', () => {
  const withContext = (turns: number, context: string): MessageParam[] => {
    const messages = conversation(turns);
    const last = messages.at(-1) as MessageParam;
    return [
      ...messages.slice(0, -1),
      {
        role: 'user',
        content: [
          { type: 'text', text: last.content as string },
          { type: 'text', text: context },
        ],
      },
    ];
  };

  it('marks the block before them instead of the whole prompt, and changes nothing the model reads', () => {
    const request = { model: 'm', tools: TOOLS, messages: withContext(1, 'The clock shows 12:00') };
    const shaped = withCacheBreakpoints(request, 1);
    expect(marks(shaped)).toEqual(['tools.2', 'messages.2.content.0']);
    expect(shaped).not.toHaveProperty('cache_control');
    expect(unmarked(shaped)).toEqual(request);
  });

  it('lets the next request read the conversation although the context moved on to its own last message', () => {
    const bill = (cache: FakePromptCache, turns: number, tail: number) => {
      const messages = withContext(turns, `The clock shows 12:0${turns}`);
      const body = withCacheBreakpoints({ model: 'm', max_tokens: 10, tools: TOOLS, messages }, tail);
      const result = cache.bill(body as MessagesRequestBody);
      if ('error' in result) throw new Error(result.error);
      return result;
    };
    const run = (tail: number) => {
      const cache = new FakePromptCache();
      const first = bill(cache, 0, tail);
      return { wrote: first.cache_creation_input_tokens, read: bill(cache, 1, tail).cache_read_input_tokens };
    };
    const kept = run(1);
    expect(kept.read).toBe(kept.wrote);
    // Marked on the context (the automatic mark), the prefix written ends in it: the next request reads the tools only.
    const automatic = run(0);
    expect(automatic.read).toBeGreaterThan(0);
    expect(automatic.read).toBeLessThan(kept.read);
  });
});

describe('an endpoint that refuses cache marks', () => {
  let fake: FakeAnthropic | undefined;
  afterEach(async () => {
    await fake?.close();
  });

  it('is asked again without them, and not marked again: the person never sees the refusal', async () => {
    fake = await FakeAnthropic.start({ refuseCacheControl: true, fallback: { text: 'fine' } });
    const provider = new AnthropicProvider({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const ask = () => provider.stream({ model: 'm', maxTokens: 10, tools: TOOLS, messages: conversation(0) });
    expect((await ask()).content).toEqual([{ type: 'text', text: 'fine' }]);
    expect((await ask()).content).toEqual([{ type: 'text', text: 'fine' }]);
    expect(fake.requests.map((request) => marks(request.body).length > 0)).toEqual([true, false, false]);
  });
});
