import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { toApiMessages } from '../../app/chat/api-messages';
import type { ChatContentBlock, ChatMessage } from '../../shared/domain/chat';

// Two replies in a row in the saved history (what a stopped turn can leave) are merged into one assistant
// message; the fake refuses, as the Messages API does, a tool-using reply that does not start with its thinking.

const MODEL = 'claude-sonnet-5';
const tools = [{ name: 'fs__read', input_schema: { type: 'object' as const } }];

describe('merged replies keep their thinking first', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-test' });
    client = new Anthropic({ apiKey: 'sk-test', baseURL: fake.url, maxRetries: 0 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('a reply without thinking followed by one that thought and called a tool goes back as the API accepts it', async () => {
    fake.script([{ thinking: 'Read the file first.', toolUses: [{ name: 'fs__read', input: {} }] }]);
    const first = await client.messages.create({
      model: MODEL,
      max_tokens: 20_000,
      thinking: { type: 'adaptive' },
      tools,
      messages: [{ role: 'user', content: 'read it' }],
    });
    const content: ChatContentBlock[] = first.content.flatMap((block): ChatContentBlock[] =>
      block.type === 'thinking'
        ? [{ type: 'thinking', thinking: block.thinking, signature: block.signature }]
        : block.type === 'tool_use'
          ? [
              {
                type: 'tool_use',
                id: block.id,
                server: 'fs',
                tool: 'read',
                apiName: block.name,
                input: block.input as Record<string, unknown>,
              },
            ]
          : [],
    );
    const toolUseId = first.content.find((block) => block.type === 'tool_use')?.id ?? '';
    const saved: ChatMessage[] = [
      { id: 'p', role: 'user', createdAt: 0, content: [{ type: 'text', text: 'read it' }] },
      { id: 'a0', role: 'assistant', createdAt: 0, content: [{ type: 'text', text: 'Let me look.' }] },
      { id: 'a1', role: 'assistant', createdAt: 0, content },
      {
        id: 'r',
        role: 'user',
        createdAt: 0,
        content: [{ type: 'tool_result', toolUseId, content: [{ type: 'text', text: 'file text' }], isError: false }],
      },
    ];
    const messages = toApiMessages(saved);
    fake.script([{ text: 'Done.' }]);
    const next = await client.messages.create({
      model: MODEL,
      max_tokens: 20_000,
      thinking: { type: 'adaptive' },
      tools,
      messages,
    });
    expect(next.content).toMatchObject([{ type: 'text', text: 'Done.' }]);
    const reply = messages[1]?.content;
    expect(Array.isArray(reply) ? reply.map((block) => block.type) : reply).toEqual(['thinking', 'text', 'tool_use']);
  });
});
