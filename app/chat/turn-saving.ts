import { randomUUID } from 'node:crypto';
import { isPersonMessage } from '../../shared/domain/chat';
import type { ChatContentBlock, ChatMessage, ChatPartial } from '../../shared/domain/chat';
import { sumUsage } from '../../shared/domain/chat-usage';
import { HOST_TOOL_SERVER } from '../../shared/domain/host-tools';
import type { LlmContentBlock } from '../providers/llm-provider';
import type { ActiveTurn, TurnOutcome } from './active-turn';
import type { ChatEventPump } from './chat-event-pump';
import type { ConversationStore } from './conversation-store';
import type { PartialReply } from './partial-reply';
import type { ToolOffer } from './tool-offer';

/**
 * Saves what a turn produces as it goes — each reply, an unfinished one with its mark, the failed mark on the
 * message nothing answered — and tells the UI (`message-saved`), so a crash loses at most the reply being streamed.
 */
export class TurnSaving {
  constructor(
    private readonly store: ConversationStore,
    private readonly pump: ChatEventPump,
    private readonly onError: (error: unknown) => void,
  ) {}

  async save(turn: ActiveTurn, message: ChatMessage): Promise<void> {
    turn.replied = true;
    await this.store.appendMessage(turn.conversationId, message);
    this.pump.emit({ type: 'message-saved', conversationId: turn.conversationId, turnId: turn.turnId, message });
  }

  /** Saves what an unfinished reply streamed (nothing when it streamed nothing worth keeping), marked why it ended. */
  async savePartial(turn: ActiveTurn, model: string, partial: PartialReply, mark: ChatPartial): Promise<void> {
    const content = partial.content();
    if (content.length === 0) return;
    // Summary requests of the turn not yet saved (compaction) go with it, so the conversation's totals keep them.
    const usage = sumUsage(turn.unsavedUsages);
    turn.unsavedUsages = [];
    await this.save(turn, {
      id: randomUUID(),
      role: 'assistant',
      createdAt: Date.now(),
      content,
      model,
      partial: mark,
      ...(usage !== undefined ? { usage } : {}),
    });
  }

  /**
   * The turn failed before any reply: the person's message it answered is marked failed with the reason (saved, so a
   * reload shows it), and left out of later requests until retried. Its id; undefined when no such message ends it.
   */
  async markFailed(turn: ActiveTurn, outcome: Extract<TurnOutcome, { status: 'failed' }>): Promise<string | undefined> {
    try {
      const { messages } = await this.store.get(turn.conversationId);
      const index = messages.findLastIndex(isPersonMessage);
      const message = messages[index];
      // Only a message nothing answered: a task's notice may follow it, a reply may not.
      if (message === undefined || messages.slice(index + 1).some((later) => later.role === 'assistant')) return;
      const failed = {
        reason: outcome.message,
        ...(outcome.hostMessage !== undefined ? { reasonMessage: outcome.hostMessage } : {}),
      };
      await this.store.setFailed(turn.conversationId, message.id, failed);
      return message.id;
    } catch (error) {
      // The failure is still told (turn-failed); the mark is what a reload would add to it.
      this.onError(error);
      return undefined;
    }
  }
}

/**
 * A model's reply as the conversation keeps it. Tool calls run only when the model stopped to use tools: a reply cut
 * by max_tokens may hold a tool_use with half its input, which must not run.
 */
export function replyContent(
  blocks: readonly LlmContentBlock[],
  offer: ToolOffer,
  runTools: boolean,
  thinkingSpans: readonly number[],
): ChatContentBlock[] {
  const content: ChatContentBlock[] = [];
  let thought = 0;
  for (const block of blocks) {
    if (block.type === 'text') {
      if (block.text !== '') content.push({ type: 'text', text: block.text });
    } else if (block.type === 'thinking') {
      // Kept whole, signature included: Anthropic wants it back unchanged in the next request.
      const durationMs = thinkingSpans[thought];
      thought += 1;
      content.push({ ...block, ...(durationMs !== undefined ? { durationMs } : {}) });
    } else if (runTools) {
      // Host tool names are never an MCP tool's (ToolNameMap.build reserves them), so the order cannot matter. One not
      // offered in this request is still Berth's: runHostTool answers that it is not offered now.
      const ref = offer.hostToolNames.has(block.name)
        ? { server: HOST_TOOL_SERVER, tool: block.name }
        : offer.names.resolve(block.name);
      content.push({
        type: 'tool_use',
        id: block.id,
        server: ref?.server ?? '',
        tool: ref?.tool ?? block.name,
        apiName: block.name,
        input: block.input,
      });
    }
  }
  return content;
}
