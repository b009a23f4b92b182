import { describe, expect, it } from 'vitest';
import { ConversationSchema } from '../shared/domain/chat';
import { ChatToolsViewSchema } from '../shared/contract/chat';
import { countToolCalls, generateLongConversation } from '../bench/generators/long-conversation';
import { generateChatToolsView, generateServerTools } from '../bench/generators/many-tools';

describe('bench generators', () => {
  it('makes a valid 2,000-message conversation with 249 tool calls, each answered', () => {
    const conversation = ConversationSchema.parse(generateLongConversation());
    expect(conversation.messages).toHaveLength(2_000);
    expect(countToolCalls(conversation)).toBe(249);
    const results = conversation.messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_result'));
    expect(results).toHaveLength(249);
    expect(new Set(conversation.messages.map((m) => m.id)).size).toBe(2_000);
    expect(generateLongConversation()).toEqual(conversation);
  });

  it('refuses a shape it cannot make', () => {
    expect(() => generateLongConversation({ messages: 10, toolCalls: 5 })).toThrow(/need at least 20 messages/);
  });

  it('spreads 2,000 tools over 50 servers', () => {
    const servers = generateServerTools();
    expect(servers.size).toBe(50);
    expect([...servers.values()].every((tools) => tools.length === 40)).toBe(true);
    const view = ChatToolsViewSchema.parse(generateChatToolsView({ disabledTools: ['server-00/tool_000'] }));
    expect(view.tools).toHaveLength(2_000);
    expect(view.offeredCount).toBe(1_999);
  });
});
