import type { BerthStore } from './create-store';
import type { BerthState } from './types';
import type { View } from './ui-types';

/** sessionStorage key: where the person was survives a reload of this window, not a new window. */
export const PLACE_STORAGE_KEY = 'berth.place';

const VIEWS: readonly View[] = ['chat', 'servers', 'tasks', 'inbox', 'roots', 'logs', 'settings'];
/** Names and ids are short; anything longer did not come from us. */
const MAX_ID = 512;

/** Where the person was: the view, and what it showed. */
export interface Place {
  view: View;
  selectedServer?: string;
  activeConversationId?: string;
  logServer?: string;
}

function pick(state: Pick<BerthState, 'view' | 'selectedServer' | 'activeConversationId' | 'logServer'>): Place {
  return {
    view: state.view,
    ...(state.selectedServer !== undefined ? { selectedServer: state.selectedServer } : {}),
    ...(state.activeConversationId !== undefined ? { activeConversationId: state.activeConversationId } : {}),
    ...(state.logServer !== undefined ? { logServer: state.logServer } : {}),
  };
}

const isId = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= MAX_ID;

/** The stored place, or nothing when it is missing or not ours (storage is shared with whatever else ran on this origin). */
export function readPlace(storage: Pick<Storage, 'getItem'>): Place | undefined {
  let raw: string | null;
  try {
    raw = storage.getItem(PLACE_STORAGE_KEY);
  } catch {
    return undefined; // storage disabled: start where a new window starts
  }
  if (raw === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record = parsed as Record<string, unknown>;
  if (!VIEWS.includes(record.view as View)) return undefined;
  return {
    view: record.view as View,
    ...(isId(record.selectedServer) ? { selectedServer: record.selectedServer } : {}),
    ...(isId(record.activeConversationId) ? { activeConversationId: record.activeConversationId } : {}),
    ...(isId(record.logServer) ? { logServer: record.logServer } : {}),
  };
}

/**
 * Puts the person back where they were before a reload (the view, the
 * selected server, the open conversation, the server whose logs they read)
 * and keeps that place up to date. A conversation or server that is gone by
 * then is dropped by the slices' own checks when their lists arrive.
 * Returns the unsubscribe function.
 */
export function rememberPlace(store: BerthStore, storage: Pick<Storage, 'getItem' | 'setItem'>): () => void {
  const place = readPlace(storage);
  if (place !== undefined) store.setState(place);
  // Runs on every store change (streamed tokens, log batches): compare four fields, write only when one moved.
  return store.subscribe((state, previous) => {
    if (
      state.view === previous.view &&
      state.selectedServer === previous.selectedServer &&
      state.activeConversationId === previous.activeConversationId &&
      state.logServer === previous.logServer
    )
      return;
    try {
      storage.setItem(PLACE_STORAGE_KEY, JSON.stringify(pick(state)));
    } catch (error) {
      // Storage full or disabled: a reload then starts on the first view, nothing else is lost.
      console.error('Berth: could not remember the current view', error);
    }
  });
}
