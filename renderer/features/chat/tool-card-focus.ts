import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, type RefObject } from 'react';
import { useBerth } from '../../store';
import type { TimelineItem } from './chat-model';

/** Frames to wait for the scrolled-to row to render before giving up (about half a second). */
const MAX_FRAMES = 30;

function findCard(scroller: HTMLElement | null, toolUseId: string): HTMLElement | undefined {
  if (!scroller) return undefined;
  // Compared in JS rather than in a selector: a tool_use id is the model's text, not a safe CSS token.
  return [...scroller.querySelectorAll<HTMLElement>('[data-tool-use]')].find(
    (card) => card.dataset.toolUse === toolUseId,
  );
}

/**
 * The scroll-to-card seam of the message list: when the store asks for a
 * tool card of this conversation (`toolCardFocus`, set by "Show in chat"),
 * the list scrolls its row into view (the row may not be rendered: the list
 * is virtualized), stops following new text, and moves keyboard focus to
 * the card. The request is cleared once handled, or when the card never
 * renders. A call that is not in this conversation's messages yet keeps
 * the request until it is.
 */
export function useToolCardFocus(
  conversationId: string,
  items: readonly TimelineItem[],
  virtualizer: Pick<Virtualizer<HTMLDivElement, Element>, 'scrollToIndex'>,
  scroller: RefObject<HTMLDivElement | null>,
  following: { current: boolean },
): void {
  const request = useBerth((s) => s.toolCardFocus);
  const clear = useBerth((s) => s.clearToolCardFocus);
  const target = request?.conversationId === conversationId ? request.toolUseId : undefined;
  const index = useMemo(
    () =>
      target === undefined
        ? -1
        : items.findIndex(
            (item) =>
              item.kind === 'assistant' &&
              item.parts.some((part) => part.kind === 'tool-call' && part.use.id === target),
          ),
    [items, target],
  );

  useEffect(() => {
    if (target === undefined || index < 0) return;
    // The person asked to look at this card: new text must not pull the list away from it.
    following.current = false;
    let frames = 0;
    // Scrolled from the next frame, not during the commit: the virtualizer re-renders synchronously when it scrolls.
    let frame = requestAnimationFrame(function focusWhenRendered() {
      if (frames === 0) virtualizer.scrollToIndex(index, { align: 'center' });
      const card = findCard(scroller.current, target);
      if (card !== undefined) {
        card.focus();
        clear();
      } else if (++frames < MAX_FRAMES) frame = requestAnimationFrame(focusWhenRendered);
      else clear();
    });
    return () => cancelAnimationFrame(frame);
  }, [target, index, virtualizer, scroller, following, clear]);
}
