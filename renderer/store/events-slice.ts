import type { InboxEntry } from '../../shared/domain/mcp-events';
import type { EventsSlice } from './events-types';
import type { SliceCreator } from './types';
import { words, verbatim } from '../i18n/words';

/** The host keeps the Inbox oldest first; the person reads it newest first. */
const newestFirst = (entries: readonly InboxEntry[]): InboxEntry[] =>
  [...entries].sort((a, b) => b.receivedAt - a.receivedAt || (a.id < b.id ? 1 : -1));

export const createEventsSlice: SliceCreator<EventsSlice> = (transport) => (set, get) => ({
  eventsCatalog: undefined,
  inbox: undefined,
  inboxUnread: 0,
  inboxError: undefined,

  applyEventsCatalog(catalog) {
    set({ eventsCatalog: catalog });
  },
  applyInboxChanged(unread) {
    set({ inboxUnread: unread });
    if (get().inbox !== undefined) void get().loadInbox();
  },
  applyEventNotice(notice) {
    get().pushToast({
      tone: 'info',
      title: words('events.notice.title', {
        count: notice.count,
        event: verbatim(notice.event),
        server: verbatim(notice.server),
      }),
      action: { label: words('events.notice.open'), run: () => get().showView('inbox') },
    });
  },
  async loadEventsCatalog() {
    const result = await transport.call('events.catalog', {});
    // Without a catalog the Events tab stays hidden; nothing the person did failed.
    if (result.ok) set({ eventsCatalog: result.value });
  },
  async loadInbox() {
    const result = await transport.call('events.inbox', {});
    if (result.ok)
      set({ inbox: newestFirst(result.value.entries), inboxUnread: result.value.unread, inboxError: undefined });
    else set({ inboxError: result.message });
  },
  async subscribeToEvent(input) {
    const result = await transport.call('events.subscribe', input);
    if (!result.ok) {
      get().toastFailure(words('events.toast.subscribeFailed'), result);
      return false;
    }
    await get().loadEventsCatalog();
    return true;
  },
  async setSubscriptionPaused(id, paused) {
    const result = await transport.call('events.setPaused', { id, paused });
    if (!result.ok)
      get().toastFailure(words(paused ? 'events.toast.pauseFailed' : 'events.toast.resumeFailed'), result);
    else await get().loadEventsCatalog();
  },
  async removeSubscription(id) {
    const result = await transport.call('events.unsubscribe', { id });
    if (!result.ok) get().toastFailure(words('events.toast.removeFailed'), result);
    else await get().loadEventsCatalog();
  },
  async markInboxRead(ids) {
    const result = await transport.call('events.markRead', ids === undefined ? {} : { ids });
    if (!result.ok) {
      get().toastFailure(words('events.toast.markFailed'), result);
      return;
    }
    const read = ids === undefined ? undefined : new Set(ids);
    set((s) => ({
      inboxUnread: result.value.unread,
      inbox: s.inbox?.map((entry) => (read === undefined || read.has(entry.id) ? { ...entry, read: true } : entry)),
    }));
  },
  async removeFromInbox(ids) {
    const result = await transport.call('events.removeFromInbox', { ids });
    if (!result.ok) {
      get().toastFailure(words('events.toast.removeEntryFailed'), result);
      return;
    }
    const gone = new Set(result.value.removed.map((entry) => entry.id));
    set((s) => ({ inbox: s.inbox?.filter((entry) => !gone.has(entry.id)) }));
    const restore = async () => {
      const back = await transport.call('events.restoreToInbox', { ids: [...gone] });
      if (!back.ok) get().toastFailure(words('events.toast.undoFailed'), back);
      else await get().loadInbox();
    };
    get().pushToast({
      tone: 'success',
      title: words('events.toast.removed', { count: gone.size }),
      action: { label: words('events.toast.undo'), run: () => void restore() },
    });
  },
});
