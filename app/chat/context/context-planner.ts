import { isPersonMessage } from '../../../shared/domain/chat';
import type { ChatMessage } from '../../../shared/domain/chat';

// Where to cut a conversation that no longer fits: only before a message the person wrote, so a turn
// (the person's message, the model's tool calls and their results, the answer) stays whole and no
// tool_use is ever sent without its tool_result; never the newest turn, which the model must answer.

export interface CutPlan {
  /** Index of the last message left out (the cut is after it). */
  through: number;
  /** Estimated tokens of the request after the cut (the fixed part included). */
  tokensAfter: number;
  /** Whether that is within the target; false when even the newest turn alone is above it. */
  fits: boolean;
}

/**
 * The smallest cut that brings the request to `target` tokens: `fixed` (tools, system, the preface)
 * plus the messages kept, each as `messageTokens` estimates it. undefined when there is nothing to
 * cut (one turn only).
 */
export function planCut(
  messages: readonly ChatMessage[],
  messageTokens: readonly number[],
  fixed: number,
  target: number,
): CutPlan | undefined {
  const starts: number[] = [];
  for (let index = 1; index < messages.length; index += 1)
    if (isPersonMessage(messages[index] as ChatMessage)) starts.push(index);
  if (starts.length === 0) return undefined;
  // Tokens of messages[index..] for each index, from the end.
  const tail: number[] = new Array<number>(messages.length + 1).fill(0);
  for (let index = messages.length - 1; index >= 0; index -= 1)
    tail[index] = (tail[index + 1] ?? 0) + (messageTokens[index] ?? 0);
  for (const start of starts) {
    const tokensAfter = fixed + (tail[start] ?? 0);
    if (tokensAfter <= target) return { through: start - 1, tokensAfter, fits: true };
  }
  const last = starts.at(-1) as number;
  return { through: last - 1, tokensAfter: fixed + (tail[last] ?? 0), fits: false };
}
