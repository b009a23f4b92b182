import type { MethodInput } from '../../shared/contract';
import type { EventNotice, EventsCatalog, InboxEntry } from '../../shared/domain/mcp-events';

/** MCP Events as the person sees them: the servers' event types, their subscriptions and the Inbox. */
export interface EventsSlice {
  /** Undefined until the host answered `events.catalog`. */
  eventsCatalog: EventsCatalog | undefined;
  /** Newest first; undefined until read. */
  inbox: InboxEntry[] | undefined;
  inboxUnread: number;
  /** Why the Inbox could not be read, shown in its view with "Try again". */
  inboxError: string | undefined;
  applyEventsCatalog(catalog: EventsCatalog): void;
  /** `events.inboxChanged`: the count at once, the entries read again once the Inbox was shown. */
  applyInboxChanged(unread: number): void;
  /** `events.notice`: a toast that opens the Inbox. */
  applyEventNotice(notice: EventNotice): void;
  loadEventsCatalog(): Promise<void>;
  loadInbox(): Promise<void>;
  /** True when the host took it; a refusal is a toast. */
  subscribeToEvent(input: MethodInput<'events.subscribe'>): Promise<boolean>;
  setSubscriptionPaused(id: string, paused: boolean): Promise<void>;
  removeSubscription(id: string): Promise<void>;
  /** All when no ids are given. */
  markInboxRead(ids?: string[]): Promise<void>;
  /** Removes them with a toast that offers Undo. */
  removeFromInbox(ids: string[]): Promise<void>;
}
