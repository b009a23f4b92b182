import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, type RefObject } from 'react';
import type { ChatMessage } from '../../../shared/domain/chat';
import { useBerth } from '../../store';
import type { TimelineItem } from './chat-model';

/** Frames to wait for the scrolled-to row to render before giving up (about half a second). */
const MAX_FRAMES = 30;
/** How long a found message stays highlighted. */
export const FOUND_HIGHLIGHT_MS = 2_500;

/**
 * The row showing `messageId`: its own, or — for a message without a row of its own (tool results go on the card of
 * the call before them) — the row of the nearest message before it that has one.
 */
export function rowIndexOf(
  items: readonly TimelineItem[],
  messages: readonly ChatMessage[],
  messageId: string,
): number {
  const rows = new Map(items.map((item, index) => [item.message.id, index]));
  const at = messages.findIndex((message) => message.id === messageId);
  for (let index = at; index >= 0; index -= 1) {
    const row = rows.get(messages[index]!.id);
    if (row !== undefined) return row;
  }
  return -1;
}

function findRow(scroller: HTMLElement | null, messageId: string): HTMLElement | undefined {
  if (!scroller) return undefined;
  // Compared in JS rather than in a selector: a message id is not a safe CSS token.
  return [...scroller.querySelectorAll<HTMLElement>('[data-message]')].find((row) => row.dataset.message === messageId);
}

/**
 * The scroll-to-message seam of the message list (a search hit, `messageFocus`): the list scrolls the message's row
 * into view (it may not be rendered: the list is virtualized), stops following new text, focuses the row and marks it
 * `data-found` for a moment (the highlight), then clears the request. Like tool-card-focus.ts for a tool card.
 */
export function useMessageFocus(
  conversation: { id: string; messages: readonly ChatMessage[] },
  items: readonly TimelineItem[],
  virtualizer: Pick<Virtualizer<HTMLDivElement, Element>, 'scrollToIndex'>,
  scroller: RefObject<HTMLDivElement | null>,
  following: { current: boolean },
): void {
  const request = useBerth((s) => s.messageFocus);
  const clear = useBerth((s) => s.clearMessageFocus);
  const target = request?.conversationId === conversation.id ? request.messageId : undefined;
  const index = useMemo(
    () => (target === undefined ? -1 : rowIndexOf(items, conversation.messages, target)),
    [items, conversation.messages, target],
  );

  useEffect(() => {
    if (target === undefined || index < 0) return;
    following.current = false;
    const shown = items[index]!.message.id;
    let frames = 0;
    let frame = requestAnimationFrame(function markWhenRendered() {
      if (frames === 0) virtualizer.scrollToIndex(index, { align: 'center' });
      const row = findRow(scroller.current, shown);
      if (row !== undefined) {
        row.dataset.found = 'true';
        if (!row.hasAttribute('tabindex')) row.tabIndex = -1;
        row.focus({ preventScroll: true });
        // Not cancelled with the effect: clearing the request re-runs it, and the highlight must still fade.
        setTimeout(() => delete row.dataset.found, FOUND_HIGHLIGHT_MS);
        clear();
      } else if (++frames < MAX_FRAMES) frame = requestAnimationFrame(markWhenRendered);
      else clear();
    });
    return () => cancelAnimationFrame(frame);
  }, [target, index, items, virtualizer, scroller, following, clear]);
}
