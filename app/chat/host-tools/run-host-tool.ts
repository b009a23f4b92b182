import type { ChatToolResultBlock, ChatToolUseBlock, Conversation } from '../../../shared/domain/chat';
import { errorMessage } from '../../../shared/error-message';
import type { HostTool } from './host-tool';

/** What the engine gives a host tool call: the tools offered for this request, and the conversation the model saw. */
export interface HostToolDeps {
  tools: ReadonlyMap<string, HostTool>;
  conversation: Conversation;
  /** How a result carrying a server's text is cut for the model (as runToolCall's capRecord). */
  capRecord?: (server: string, result: ChatToolResultBlock) => ChatToolResultBlock['capped'];
}

/**
 * One host tool call, answered by Berth. No consent is asked: a host tool only reads or changes
 * Berth's own state for this conversation (which tool definitions it sends, a stored result, a
 * skill the person already approved) — it runs nothing of a server's and reaches nothing outside
 * Berth. Whatever it leads to (calling a loaded tool) still goes through consent as any call does.
 */
export async function runHostTool(
  deps: HostToolDeps,
  use: ChatToolUseBlock,
  signal: AbortSignal,
): Promise<ChatToolResultBlock> {
  const tool = deps.tools.get(use.tool);
  if (tool === undefined) {
    return {
      type: 'tool_result',
      toolUseId: use.id,
      content: [{ type: 'text', text: `Berth's tool "${use.tool}" is not offered in this conversation now.` }],
      isError: true,
    };
  }
  try {
    const { summary, source, ...outcome } = await tool.run(use.input, {
      conversationId: deps.conversation.id,
      toolUseId: use.id,
      signal,
      conversation: deps.conversation,
    });
    const result: ChatToolResultBlock = { type: 'tool_result', toolUseId: use.id, ...outcome, hostSummary: summary };
    // A server's text (a 16 MiB skill) is no smaller for coming through Berth: it is capped like that server's results.
    const capped = source === undefined ? undefined : deps.capRecord?.(source, result);
    return capped === undefined ? result : { ...result, capped };
  } catch (error) {
    return {
      type: 'tool_result',
      toolUseId: use.id,
      content: [{ type: 'text', text: `Berth could not answer ${use.tool}: ${errorMessage(error)}` }],
      isError: true,
    };
  }
}
