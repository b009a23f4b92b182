import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { AnthropicProvider } from './llm-provider';
import { ANTHROPIC_TOOL_IDS, MISTRAL_TOOL_IDS, OPENAI_TOOL_IDS, toolCallIdsFor } from './tool-call-ids';

function call(id: string, name = 'web__search'): MessageParam {
  return { role: 'assistant', content: [{ type: 'tool_use', id, name, input: { q: id } }] };
}
function result(id: string, text = `result of ${id}`): MessageParam {
  return { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] };
}
function idsOf(messages: readonly MessageParam[]): { calls: string[]; results: string[] } {
  const calls: string[] = [];
  const results: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') calls.push(block.id);
      if (block.type === 'tool_result') results.push(block.tool_use_id);
    }
  }
  return { calls, results };
}

const CLAUDE_ID = 'toolu_01A09q90qw90lq917835lq9';
const VLLM_ID = 'chatcmpl-tool-0123456789abcdef0123456789abcdef';
const KIMI_ID = 'functions.read_file:0';

describe('tool call ids replayed to another provider', () => {
  it('Claude’s ids sent to a Mistral model: 9 letters or digits, each call still answered by its own result, the same in every request', () => {
    const history: MessageParam[] = [
      { role: 'user', content: 'search twice' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Both.' },
          { type: 'tool_use', id: CLAUDE_ID, name: 'a', input: {} },
          { type: 'tool_use', id: 'toolu_02', name: 'b', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_02', content: 'b' },
          { type: 'tool_result', tool_use_id: CLAUDE_ID, content: 'a' },
        ],
      },
    ];
    const sent = toolCallIdsFor(history, MISTRAL_TOOL_IDS);
    const { calls, results } = idsOf(sent);
    for (const id of calls) expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(new Set(calls).size).toBe(2);
    // The results answer the same calls, in their own order.
    expect(results).toEqual([calls[1], calls[0]]);
    expect(toolCallIdsFor(history, MISTRAL_TOOL_IDS)).toEqual(sent);
    // Only ids change: the text and inputs are as they were, and the history itself is untouched.
    expect(sent[1]).toMatchObject({ content: [{ type: 'text', text: 'Both.' }, { name: 'a' }, { name: 'b' }] });
    expect(idsOf(history).calls).toEqual([CLAUDE_ID, 'toolu_02']);
    expect(sent[0]).toBe(history[0]);
  });

  it('an id the target takes goes out as it is (a model sees its own ids back)', () => {
    const mistralOwn = [call('aB3xK9mP2'), result('aB3xK9mP2')];
    expect(toolCallIdsFor(mistralOwn, MISTRAL_TOOL_IDS)).toEqual(mistralOwn);
    const claude = [call(CLAUDE_ID), result(CLAUDE_ID)];
    expect(toolCallIdsFor(claude, OPENAI_TOOL_IDS)).toEqual(claude);
    expect(toolCallIdsFor(claude, ANTHROPIC_TOOL_IDS)).toEqual(claude);
    // Kimi's ids are fine for OpenAI-compatible servers (its own template reads them)…
    expect(toolCallIdsFor([call(KIMI_ID), result(KIMI_ID)], OPENAI_TOOL_IDS)).toEqual([call(KIMI_ID), result(KIMI_ID)]);
  });

  it('…but not for Anthropic; and vLLM’s 46-character ids are too long for OpenAI', () => {
    const kimi = idsOf(toolCallIdsFor([call(KIMI_ID), result(KIMI_ID)], ANTHROPIC_TOOL_IDS));
    expect(kimi.calls[0]).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(kimi.results).toEqual(kimi.calls);
    const vllm = idsOf(toolCallIdsFor([call(VLLM_ID), result(VLLM_ID)], OPENAI_TOOL_IDS));
    expect(vllm.calls[0]).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(vllm.results).toEqual(vllm.calls);
    expect(idsOf(toolCallIdsFor([call(VLLM_ID)], ANTHROPIC_TOOL_IDS)).calls).toEqual([VLLM_ID]);
  });

  it('never collides: not with an id kept as it is, even one equal to the replacement it would get', () => {
    const replacement = idsOf(toolCallIdsFor([call(CLAUDE_ID)], MISTRAL_TOOL_IDS)).calls[0] as string;
    // A Mistral call earlier in the conversation happens to have that very id.
    const history = [call(replacement), result(replacement), call(CLAUDE_ID), result(CLAUDE_ID)];
    const { calls, results } = idsOf(toolCallIdsFor(history, MISTRAL_TOOL_IDS));
    expect(calls[0]).toBe(replacement);
    expect(calls[1]).not.toBe(replacement);
    expect(calls[1]).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(results).toEqual(calls);
  });

  it('an id used again by a later call (servers that number calls from 0 each reply) becomes unique, each result following its own call', () => {
    const history = [call('call_0'), result('call_0', 'first'), call('call_0'), result('call_0', 'second')];
    const sent = toolCallIdsFor(history, OPENAI_TOOL_IDS);
    const { calls, results } = idsOf(sent);
    expect(calls[0]).toBe('call_0');
    expect(calls[1]).not.toBe('call_0');
    expect(results).toEqual(calls);
    expect(sent[3]).toMatchObject({ content: [{ content: 'second' }] });
  });
});

describe('a conversation that moves from a vLLM-served Kimi to Claude', () => {
  it('reaches Claude with ids it takes (the fake refuses others, as the API does), the results still paired', async () => {
    const fake = await FakeAnthropic.start({ apiKey: 'sk-unit' });
    try {
      fake.script([{ text: 'done' }]);
      const provider = new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 });
      const messages: MessageParam[] = [
        { role: 'user', content: 'read it' },
        call(KIMI_ID, 'fs__read'),
        result(KIMI_ID, 'contents'),
      ];
      await expect(provider.stream({ model: 'claude-test', maxTokens: 64, messages })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'done' }],
      });
      const sent = fake.requests[0]?.body?.messages ?? [];
      const { calls, results } = idsOf(sent as MessageParam[]);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
      expect(results).toEqual(calls);
    } finally {
      await fake.close();
    }
  });
});
