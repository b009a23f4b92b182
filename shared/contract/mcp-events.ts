import { z } from 'zod';
import {
  EVENT_ACTIONS,
  EventNoticeSchema,
  EventsCatalogSchema,
  EventSubscriptionViewSchema,
  InboxEntrySchema,
} from '../domain/mcp-events';
import { method } from './define';

const Id = z.string().min(1).max(100);
const Ids = z.array(Id).max(10_000);

export const mcpEventsMethods = {
  'events.catalog': method({
    summary:
      "MCP Events (a draft extension): every ready server's event types (events/list) and the person's subscriptions.",
    input: z.object({}).strict(),
    output: EventsCatalogSchema,
  }),
  'events.subscribe': method({
    summary:
      "Subscribe to a server's event type with the arguments of its inputSchema; what each event does (notify, Inbox, a conversation with the person's prompt).",
    input: z
      .object({
        server: z.string().min(1).max(200),
        event: z.string().min(1).max(200),
        arguments: z.record(z.string(), z.unknown()),
        action: z.enum(EVENT_ACTIONS),
        prompt: z.string().min(1).max(20_000).optional(),
      })
      .strict(),
    output: EventSubscriptionViewSchema,
  }),
  'events.setPaused': method({
    summary: 'Pause a subscription (no polling, no stream) or resume it from its saved cursor.',
    input: z.object({ id: Id, paused: z.boolean() }).strict(),
    output: EventSubscriptionViewSchema,
  }),
  'events.unsubscribe': method({
    summary: 'Remove a subscription: its delivery stops; its events stay in the Inbox.',
    input: z.object({ id: Id }).strict(),
    output: z.object({ removed: Id }),
  }),
  'events.inbox': method({
    summary: 'The Inbox: events kept for the person, newest last (the server’s data, shown as its words).',
    input: z.object({}).strict(),
    output: z.object({ entries: z.array(InboxEntrySchema), unread: z.number().int().nonnegative() }),
  }),
  'events.markRead': method({
    summary: 'Mark Inbox entries read (all when no ids are given).',
    input: z.object({ ids: Ids.optional() }).strict(),
    output: z.object({ unread: z.number().int().nonnegative() }),
  }),
  'events.removeFromInbox': method({
    summary: 'Remove Inbox entries (all when no ids are given); returns them, so the view can offer Undo.',
    input: z.object({ ids: Ids.optional() }).strict(),
    output: z.object({ removed: z.array(InboxEntrySchema) }),
  }),
  'events.restoreToInbox': method({
    summary: 'Undo of the last removal: its entries (by id) go back where they were by time.',
    input: z.object({ ids: Ids }).strict(),
    output: z.object({ unread: z.number().int().nonnegative() }),
  }),
};

export const mcpEventsTopics = {
  /** The catalog after any change (a server's event types, a subscription added, paused, failing). */
  'events.changed': EventsCatalogSchema,
  /** The Inbox changed (new events, read, removed): its unread count. */
  'events.inboxChanged': z.object({ unread: z.number().int().nonnegative() }),
  /** A subscription set to notify has new events (coalesced: one notice per interval, with a count). */
  'events.notice': EventNoticeSchema,
};
