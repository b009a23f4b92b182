import type { VirtualItem } from '@tanstack/react-virtual';

/** Where a person left a conversation's message list, to put them back there when they return. */
export interface SavedScroll {
  /** True when they were at the bottom: they come back to the newest message, whatever arrived since. */
  stuck: boolean;
  offset: number;
  /** The row heights measured so far, so the offset means the same place on return. */
  measurements: VirtualItem[];
}

/** Enough for the conversations a person moves between; the oldest is forgotten first. */
const MAX_REMEMBERED = 50;

/** Per window, not saved: a restart opens each conversation at its newest message. */
const memory = new Map<string, SavedScroll>();

export function recallScroll(conversationId: string): SavedScroll | undefined {
  return memory.get(conversationId);
}

export function rememberScroll(conversationId: string, saved: SavedScroll): void {
  memory.delete(conversationId);
  memory.set(conversationId, saved);
  if (memory.size > MAX_REMEMBERED) memory.delete(memory.keys().next().value!);
}

/** For tests: each starts with nothing remembered. */
export function forgetScrollPositions(): void {
  memory.clear();
}
