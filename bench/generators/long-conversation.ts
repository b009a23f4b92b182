import type { ChatMessage, Conversation } from '../../shared/domain/chat';

/** What a generated conversation looks like; the defaults are a heavy user's. */
export interface LongConversationOptions {
  id?: string;
  /** Total messages, tool-result messages included. */
  messages?: number;
  /** How many of the assistant messages call a tool (each adds a tool-result message). */
  toolCalls?: number;
  model?: string;
  /** Epoch ms of the first message; one second apart after it. */
  startedAt?: number;
}

const PARAGRAPH =
  'Here is what I found. The **configuration** lists three servers; two of them are ready and one is still starting. ' +
  'You can switch a server off for this conversation from the Tools menu, and `berth` keeps that choice per conversation.';

/**
 * A deterministic conversation of `messages` messages (2,000 by default) with
 * `toolCalls` tool calls (249 by default) spread evenly: person message, then an
 * assistant reply in Markdown; every so often the reply calls a tool and a
 * tool-result message follows. Same options, same conversation.
 */
export function generateLongConversation(options: LongConversationOptions = {}): Conversation {
  const total = options.messages ?? 2_000;
  const wantedCalls = options.toolCalls ?? 249;
  const start = options.startedAt ?? Date.UTC(2026, 0, 1);
  // One of Berth's default models, so a bench can send in the conversation.
  const model = options.model ?? 'claude-sonnet-5';
  const id = options.id ?? 'bench-long-conversation';
  if (!Number.isInteger(total) || total < 0) throw new Error(`messages must be a whole number ≥ 0, got ${total}`);
  if (!Number.isInteger(wantedCalls) || wantedCalls < 0)
    throw new Error(`toolCalls must be a whole number ≥ 0, got ${wantedCalls}`);
  // A tool exchange takes 3 messages (person, assistant with tool_use, tool result) plus the closing reply.
  if (wantedCalls * 4 > total)
    throw new Error(`${wantedCalls} tool calls need at least ${wantedCalls * 4} messages, got ${total}`);

  const messages: ChatMessage[] = [];
  const at = () => start + messages.length * 1_000;
  // Exchanges are 2 messages (person, reply) or 4 with a tool call (person, call, result, reply).
  const exchanges = Math.floor((total - wantedCalls * 2) / 2);
  const callEvery = wantedCalls === 0 ? Infinity : exchanges / wantedCalls;
  let calls = 0;
  for (let exchange = 0; messages.length < total; exchange++) {
    messages.push({
      id: `m${messages.length}`,
      role: 'user',
      createdAt: at(),
      content: [{ type: 'text', text: `Question ${exchange + 1}: what changed in step ${exchange}?` }],
    });
    if (messages.length >= total) break;
    const withTool = calls < wantedCalls && exchange >= Math.floor(calls * callEvery) && messages.length + 3 <= total;
    if (withTool) {
      const toolUseId = `tu${calls}`;
      messages.push({
        id: `m${messages.length}`,
        role: 'assistant',
        createdAt: at(),
        model,
        stopReason: 'tool_use',
        content: [
          { type: 'text', text: 'Let me look that up.' },
          {
            type: 'tool_use',
            id: toolUseId,
            server: `server-${calls % 50}`,
            tool: `tool_${calls % 40}`,
            apiName: `server-${calls % 50}__tool_${calls % 40}`,
            input: { step: exchange, path: `/tmp/item-${exchange}` },
          },
        ],
      });
      messages.push({
        id: `m${messages.length}`,
        role: 'user',
        createdAt: at(),
        content: [
          {
            type: 'tool_result',
            toolUseId,
            isError: calls % 17 === 0,
            content: [{ type: 'text', text: `Result of step ${exchange}: ${'ok '.repeat(20)}` }],
            structuredContent: { step: exchange, ok: true },
          },
        ],
      });
      calls++;
    }
    messages.push({
      id: `m${messages.length}`,
      role: 'assistant',
      createdAt: at(),
      model,
      stopReason: 'end_turn',
      content: [{ type: 'text', text: `${PARAGRAPH}\n\n- item ${exchange}\n- item ${exchange + 1}` }],
    });
  }
  messages.length = Math.min(messages.length, total);
  return {
    id,
    title: `${total} messages`,
    createdAt: start,
    updatedAt: at(),
    model,
    messages,
    disabledServers: [],
    disabledTools: [],
  };
}

/** How many tool calls a conversation holds (for a bench to check what it measured). */
export function countToolCalls(conversation: Conversation): number {
  return conversation.messages.reduce((n, m) => n + m.content.filter((b) => b.type === 'tool_use').length, 0);
}
