import Anthropic, { BadRequestError } from '@anthropic-ai/sdk';
import type { ContentBlock, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';

// The fake's extended thinking, read by the real SDK: thinking blocks only when asked, with a signature
// the host cannot forge, and the API's refusal of a tool-use follow-up that lost or changed them.

const MODEL = 'claude-sonnet-5';
const tools = [{ name: 'fs__read', input_schema: { type: 'object' as const } }];
const THOUGHT = 'First read the file, then answer.';

describe('fake Anthropic thinking, read by the real SDK', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-test' });
    client = new Anthropic({ apiKey: 'sk-test', baseURL: fake.url, maxRetries: 0 });
  });
  afterEach(async () => {
    await fake.close();
  });

  async function firstReply(thinking: Anthropic.ThinkingConfigParam | undefined, redacted = false) {
    fake.script([{ thinking: THOUGHT, redactedThinking: redacted, toolUses: [{ name: 'fs__read', input: {} }] }]);
    const deltas: string[] = [];
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 20_000,
      messages: [{ role: 'user', content: 'read it' }],
      tools,
      ...(thinking !== undefined ? { thinking } : {}),
    });
    stream.on('thinking', (delta) => deltas.push(delta));
    return { message: await stream.finalMessage(), deltas };
  }

  function followUp(assistant: ContentBlock[] | MessageParam['content']): Promise<Anthropic.Message> {
    fake.script([{ text: 'Done.' }]);
    return client.messages.create({
      model: MODEL,
      max_tokens: 20_000,
      thinking: { type: 'adaptive' },
      tools,
      messages: [
        { role: 'user', content: 'read it' },
        { role: 'assistant', content: assistant as MessageParam['content'] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_fake_1_1', content: 'file text' }] },
      ],
    });
  }

  it('streams a signed thinking block only when the request asks for thinking', async () => {
    const { message, deltas } = await firstReply({ type: 'enabled', budget_tokens: 2048 });
    expect(deltas.join('')).toBe(THOUGHT);
    expect(message.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: expect.any(String) });
    expect(message.usage.output_tokens_details?.thinking_tokens).toBeGreaterThan(0);
    const plain = await firstReply(undefined);
    expect(plain.message.content.map((block) => block.type)).toEqual(['tool_use']);
  });

  it('accepts the blocks sent back unchanged, and refuses them dropped or altered, in the API’s words', async () => {
    const { message } = await firstReply({ type: 'adaptive' });
    await expect(followUp(message.content)).resolves.toMatchObject({ content: [{ type: 'text', text: 'Done.' }] });

    const dropped = followUp(message.content.filter((block) => block.type !== 'thinking'));
    await expect(dropped).rejects.toBeInstanceOf(BadRequestError);
    await expect(dropped).rejects.toThrow(/Expected `thinking` or `redacted_thinking`, but found `tool_use`/);

    const altered = message.content.map((block) =>
      block.type === 'thinking' ? { ...block, thinking: `${block.thinking} (edited)` } : block,
    );
    await expect(followUp(altered)).rejects.toThrow(/messages\.1\.content\.0: Invalid `signature` in `thinking` block/);
    const unsigned = message.content.map((block) => (block.type === 'thinking' ? { ...block, signature: '' } : block));
    await expect(followUp(unsigned)).rejects.toThrow(/Invalid `signature`/);
  });

  it('sends a hidden block as redacted_thinking whose data must come back as it was', async () => {
    const { message, deltas } = await firstReply({ type: 'adaptive' }, true);
    expect(deltas).toEqual([]);
    expect(message.content[0]).toEqual({ type: 'redacted_thinking', data: expect.any(String) });
    expect(JSON.stringify(message.content)).not.toContain(THOUGHT);
    await expect(followUp(message.content)).resolves.toMatchObject({ stop_reason: 'end_turn' });
    const forged = message.content.map((block) =>
      block.type === 'redacted_thinking' ? { ...block, data: `x${block.data}` } : block,
    );
    await expect(followUp(forged)).rejects.toThrow(/Invalid `data` in `redacted_thinking` block/);
  });

  it('refuses a thinking budget at or above max_tokens, as the API does', async () => {
    fake.script([{ text: 'never' }]);
    await expect(
      client.messages.create({
        model: MODEL,
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toThrow(/`max_tokens` must be greater than `thinking.budget_tokens`/);
  });
});
