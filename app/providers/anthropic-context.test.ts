import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { AnthropicProvider, type LlmResponse } from './llm-provider';
import { COMPACT_BETA, MIN_COMPACT_TRIGGER } from './anthropic-context';

// The provider's side of Anthropic's own context management, against the fake that does it as the API does
// (e2e/fake-llm/fake-compaction.ts).

let fake: FakeAnthropic;
let provider: AnthropicProvider;
beforeEach(async () => {
  fake = await FakeAnthropic.start();
  provider = new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 0 });
});
afterEach(async () => {
  await fake.close();
});

/** About `tokens` tokens by the fake's count (one per four-letter word). */
const words = (tokens: number, word = 'abcd'): string => `${word} `.repeat(tokens).trim();
const MODEL = 'claude-sonnet-5'; // listed with compaction (fake-anthropic-models.ts)
const TRIGGER = MIN_COMPACT_TRIGGER;

const history: MessageParam[] = [
  { role: 'user', content: `First: ${words(30_000)}` },
  { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
  { role: 'user', content: `Second: ${words(30_000, 'wxyz')}` },
];

async function compacted(): Promise<LlmResponse> {
  fake.script([{ text: 'Both noted.' }]);
  return provider.stream({
    model: MODEL,
    messages: history,
    maxTokens: 1000,
    contextManagement: { triggerTokens: TRIGGER },
  });
}

describe("Anthropic's server-side compaction", () => {
  it('is asked for with the beta and a trigger, and below the trigger nothing is compacted', async () => {
    fake.script([{ text: 'Short.' }]);
    const reply = await provider.stream({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hi' }],
      maxTokens: 100,
      contextManagement: { triggerTokens: TRIGGER },
    });
    expect(reply.compaction).toBeUndefined();
    expect(fake.requests[0]?.headers['anthropic-beta']).toContain(COMPACT_BETA);
    expect(fake.requests[0]?.body).toMatchObject({
      context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: TRIGGER } }] },
    });
  });

  it('past the trigger the reply brings the summary, its usage is the compacted context, and the next request starts with the block', async () => {
    const reply = await compacted();
    expect(reply.content).toEqual([{ type: 'text', text: 'Both noted.' }]);
    expect(reply.compaction).toMatchObject({
      content: expect.stringContaining('"First: abcd'),
      signature: expect.any(String),
      encryptedContent: expect.any(String),
    });
    expect(reply.usage.inputTokens + (reply.usage.cacheReadTokens ?? 0)).toBeLessThan(1_000);

    fake.script([{ text: 'Go on.' }]);
    const next = await provider.stream({
      model: MODEL,
      messages: [
        { role: 'assistant', content: [{ type: 'text', text: 'Both noted.' }] },
        { role: 'user', content: 'Third' },
      ],
      maxTokens: 1000,
      contextManagement: { triggerTokens: TRIGGER, ...(reply.compaction ? { compaction: reply.compaction } : {}) },
    });
    const first = fake.requests[1]?.body?.messages[0];
    expect(first?.role).toBe('assistant');
    expect((first?.content as Array<Record<string, unknown>>)[0]).toEqual({
      type: 'compaction',
      content: reply.compaction?.content,
      signature: reply.compaction?.signature,
      encrypted_content: reply.compaction?.encryptedContent,
    });
    expect(next.compaction).toBeUndefined();
    expect(next.usage.inputTokens + (next.usage.cacheReadTokens ?? 0)).toBeLessThan(1_000);
  });

  it('a compacting reply that thought and called a tool is followed up with the block, then its thinking, as it came', async () => {
    fake.script([
      { thinking: 'I will look it up.', toolUses: [{ name: 'lookup', input: { q: 'x' } }] },
      { text: 'Found it.' },
    ]);
    const tools = [{ name: 'lookup', input_schema: { type: 'object' as const } }];
    const reasoning = { effort: 'low' as const, support: 'adaptive' as const };
    const reply = await provider.stream({
      model: MODEL,
      messages: history,
      tools,
      maxTokens: 1000,
      reasoning,
      contextManagement: { triggerTokens: TRIGGER },
    });
    expect(reply.compaction).toBeDefined();
    const use = reply.content.find((block) => block.type === 'tool_use');
    const thought = reply.content.find((block) => block.type === 'thinking');
    if (use?.type !== 'tool_use' || thought?.type !== 'thinking') throw new Error('expected thinking and a tool call');
    const answer = await provider.stream({
      model: MODEL,
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: thought.thinking, signature: thought.signature ?? '' },
            { type: 'tool_use', id: use.id, name: use.name, input: use.input },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'x is 42' }] },
      ],
      tools,
      maxTokens: 1000,
      reasoning,
      contextManagement: { triggerTokens: TRIGGER, ...(reply.compaction ? { compaction: reply.compaction } : {}) },
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'Found it.' }]);
    const sent = (fake.requests[1]?.body?.messages[0]?.content as Array<{ type: string }>).map((block) => block.type);
    expect(sent).toEqual(['compaction', 'thinking', 'tool_use']);
  });

  it('a block the API no longer vouches for, or one changed, is refused as context management the chat can do without', async () => {
    const reply = await compacted();
    const block = reply.compaction;
    if (block === undefined) throw new Error('no compaction');
    const ask = (compaction: typeof block) =>
      provider.stream({
        model: MODEL,
        messages: [{ role: 'user', content: 'Third' }],
        maxTokens: 100,
        contextManagement: { triggerTokens: TRIGGER, compaction },
      });
    await expect(ask({ ...block, content: `${block.content} And more.` })).rejects.toMatchObject({
      kind: 'bad-request',
      unsupported: 'context-management',
      message: expect.stringContaining('differs from the text its `signature` recorded'),
    });
    fake.compactions.forget();
    await expect(ask(block)).rejects.toMatchObject({
      unsupported: 'context-management',
      message: expect.stringContaining('`signature` does not verify'),
    });
  });

  it("a model whose listing has no compaction, or a trigger under the API's least, is refused in the API's words", async () => {
    const ask = (model: string, triggerTokens: number) =>
      provider.stream({
        model,
        messages: [{ role: 'user', content: 'Hi' }],
        maxTokens: 100,
        contextManagement: { triggerTokens },
      });
    await expect(ask('claude-haiku-4-5', TRIGGER)).rejects.toMatchObject({
      unsupported: 'context-management',
      message: expect.stringContaining("compact_20260112 is not supported on model 'claude-haiku-4-5'"),
    });
    await expect(ask(MODEL, 10_000)).rejects.toMatchObject({
      unsupported: 'context-management',
      message: expect.stringContaining('greater than or equal to 50000'),
    });
  });

  it('the fake refuses an edit it does not know, and a compaction block without the beta, as the API does', async () => {
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 0 });
    await expect(
      client.beta.messages.create({
        model: MODEL,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'Hi' }],
        betas: [COMPACT_BETA],
        context_management: { edits: [{ type: 'forget_everything' } as never] },
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("Input tag 'forget_everything'") });
    await expect(
      client.messages.create({
        model: MODEL,
        max_tokens: 10,
        messages: [
          { role: 'assistant', content: [{ type: 'compaction', content: 'x' } as never] },
          { role: 'user', content: 'Hi' },
        ],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("require the 'compact-2026-01-12' beta") });
  });
});
