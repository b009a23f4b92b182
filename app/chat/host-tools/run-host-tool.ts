import type { ChatToolResultBlock, ChatToolUseBlock, Conversation } from '../../../shared/domain/chat';
import { errorMessage } from '../../../shared/error-message';
import type { HostTool } from './host-tool';

/** What the engine gives a host tool call: the tools offered for this request, and the conversation the model saw. */
export interface HostToolDeps {
  tools: ReadonlyMap<string, HostTool>;
  conversation: Conversation;
}

/**
 * One host tool call, answered by Berth. No consent is asked: a host tool only reads or changes
 * Berth's own state for this conversation (which tool definitions it sends, a stored result, a
 * skill the person already approved) — it runs nothing of a server's and reaches nothing outside
 * Berth. Whatever it leads to (calling a loaded tool) still goes through consent as any call does.
 */
export async function runHostTool(deps: HostToolDeps, use: ChatToolUseBlock, signal: AbortSignal): Promise<ChatToolResultBlock> {
  const tool = deps.tools.get(use.tool);
  if (tool === undefined) {
    return { type: 'tool_result', toolUseId: use.id, content: [{ type: 'text', text: `Berth's tool "${use.tool}" is not offered in this conversation now.` }], isError: true };
  }
  try {
    const { summary, ...outcome } = await tool.run(use.input, { conversationId: deps.conversation.id, toolUseId: use.id, signal, conversation: deps.conversation });
    return { type: 'tool_result', toolUseId: use.id, ...outcome, hostSummary: summary };
  } catch (error) {
    return { type: 'tool_result', toolUseId: use.id, content: [{ type: 'text', text: `Berth could not answer ${use.tool}: ${errorMessage(error)}` }], isError: true };
  }
}
