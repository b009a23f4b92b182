import type { PendingRequest } from '../../../shared/domain/pending';
import type { BerthStore } from '../../store';
import { describeRequest } from './pending-model';
import { isolatedName } from '../../../shared/domain/showable-name';
import { translate } from '../../i18n/use-t';

/** localStorage key: the person was offered desktop notifications once (whatever they chose). */
export const NOTIFICATIONS_OFFERED_KEY = 'berth.notificationsOffered';
const BASE_TITLE = 'Berth';
/** A server's words in a system notification stay short. */
const MAX_BODY = 140;

/** The pieces of the browser the attention signals use, injectable for tests. */
export interface AttentionEnvironment {
  document: Pick<Document, 'title' | 'hasFocus' | 'visibilityState'>;
  /** The Notification constructor, when this browser has one. */
  Notification:
    | ((new (title: string, options?: NotificationOptions) => Pick<Notification, 'close' | 'onclick'>) & {
        permission: NotificationPermission;
      })
    | undefined;
  focusWindow(): void;
}

export function browserAttentionEnvironment(): AttentionEnvironment {
  return {
    document,
    Notification: typeof Notification === 'undefined' ? undefined : Notification,
    focusWindow: () => window.focus(),
  };
}

/** The window's title with the number of requests waiting, as mail and chat apps badge their tab. */
export function titleWithCount(count: number): string {
  return count > 0 ? `(${count}) ${BASE_TITLE}` : BASE_TITLE;
}

function notificationBody(request: PendingRequest): string {
  const line = describeRequest(request).replace(/\s+/g, ' ').trim();
  return line.length > MAX_BODY ? `${line.slice(0, MAX_BODY - 1)}…` : line;
}

/**
 * Makes a waiting request noticeable when the person is elsewhere: the title
 * carries the count (the tab in browser mode, the window and taskbar in
 * Electron), and a request that arrives while the window is not focused raises
 * a desktop notification, when the person allowed them. Clicking it brings the
 * window forward with that request open. Nothing here answers anything.
 * Returns the unsubscribe function.
 */
export function watchAttention(
  store: BerthStore,
  env: AttentionEnvironment = browserAttentionEnvironment(),
): () => void {
  const shown = new Map<string, Pick<Notification, 'close' | 'onclick'>>();
  const apply = (pending: readonly PendingRequest[], before: readonly PendingRequest[]) => {
    env.document.title = titleWithCount(pending.length);
    const ids = new Set(pending.map((request) => request.id));
    for (const [id, notification] of shown) {
      if (ids.has(id)) continue;
      notification.close(); // answered or withdrawn: the notification would point at nothing
      shown.delete(id);
    }
    const away = !env.document.hasFocus() || env.document.visibilityState === 'hidden';
    if (!away || env.Notification === undefined || env.Notification.permission !== 'granted') return;
    const known = new Set(before.map((request) => request.id));
    for (const request of pending) {
      if (known.has(request.id) || shown.has(request.id)) continue;
      const notification = new env.Notification(
        translate('pending.notify.waiting', { server: isolatedName(request.server) }),
        {
          body: notificationBody(request),
          tag: `berth-${request.id}`,
        },
      );
      notification.onclick = () => {
        env.focusWindow();
        store.getState().focusPending(request.id);
        notification.close();
      };
      shown.set(request.id, notification);
    }
  };
  apply(store.getState().pending, store.getState().pending);
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.pending !== previous.pending) apply(state.pending, previous.pending);
  });
  return () => {
    unsubscribe();
    for (const notification of shown.values()) notification.close();
    shown.clear();
  };
}

/** Whether to offer desktop notifications: the browser has them, nobody decided yet, and Berth has not asked before. */
export function shouldOfferNotifications(
  env: Pick<AttentionEnvironment, 'Notification'>,
  storage: Pick<Storage, 'getItem'>,
): boolean {
  if (env.Notification === undefined || env.Notification.permission !== 'default') return false;
  try {
    return storage.getItem(NOTIFICATIONS_OFFERED_KEY) === null;
  } catch {
    return false;
  }
}

/** Remembers that the offer was made (the person clicked either button). */
export function markNotificationsOffered(storage: Pick<Storage, 'setItem'>): void {
  try {
    storage.setItem(NOTIFICATIONS_OFFERED_KEY, '1');
  } catch (error) {
    console.error('Berth: could not remember the notifications choice', error);
  }
}
