import { isStoppedResult } from '../../../shared/domain/chat-text';
import type { ChatToolResultBlock } from '../../../shared/domain/chat';
import type { AppToolOutcome } from './app-session';

// The reasons below go to the app over the protocol (`ui/notifications/tool-cancelled`), as protocol text for
// its code: Berth shows its own words for a denied or stopped call on the card.
/* eslint-disable lingui/no-unlocalized-strings */

/**
 * What the app in a card is told about its call: the result (also after a
 * reload, from the saved message), or that the call was cancelled — denied,
 * stopped, or its task cancelled. Undefined while the call runs.
 */
export function cardOutcome(
  result: ChatToolResultBlock | undefined,
  taskCancelled: boolean,
): AppToolOutcome | undefined {
  if (result === undefined) return undefined;
  if (result.denied)
    return {
      kind: 'cancelled',
      reason: result.denied.reason ? `Denied by the person: ${result.denied.reason}` : 'Denied by the person.',
    };
  if (isStoppedResult(result)) return { kind: 'cancelled', reason: 'Stopped by the person before it finished.' };
  if (taskCancelled || result.taskCancelled === true)
    return { kind: 'cancelled', reason: 'Its task was cancelled before it finished.' };
  return {
    kind: 'result',
    content: result.content,
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    isError: result.isError,
  };
}
