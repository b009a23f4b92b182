import { z } from 'zod';

/*
 * A subscription to a server's events (MCP Events, a draft extension: app/mcp-events). In the draft the client
 * owns the subscription list: this is Berth's, saved, shown, paused and removed by the person.
 */

/** What an event of the subscription does: tell the person, keep it in the Inbox, or start/continue a conversation. */
export const EVENT_ACTIONS = ['notify', 'inbox', 'conversation'] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

/** The event ids a subscription remembers, newest last, to drop an occurrence delivered twice (a replay, a restart). */
export const SEEN_EVENT_IDS = 500;

export const EventSubscriptionSchema = z.object({
  id: z.string().min(1).max(100),
  server: z.string().min(1).max(200),
  /** The event type's name, as `events/list` gave it. */
  event: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()),
  action: z.enum(EVENT_ACTIONS),
  /** The person's prompt for `conversation`, filled with the event's data. */
  prompt: z.string().max(20_000).optional(),
  /** The conversation the events continue, once one was started. */
  conversationId: z.string().max(100).optional(),
  paused: z.boolean(),
  createdAt: z.number(),
  /** The server's position after the last saved batch; null: start from now (or the event type has no replay). */
  cursor: z.string().max(10_000).nullable(),
  seen: z.array(z.string().max(1_000)).max(SEEN_EVENT_IDS),
  /** When the server last said it skipped events (a stale cursor, too old), for the person to see. */
  truncatedAt: z.number().optional(),
});
export type EventSubscription = z.infer<typeof EventSubscriptionSchema>;

/** A subscription as the person sees it: no seen ids; the last problem its delivery had, if any. */
export const EventSubscriptionViewSchema = EventSubscriptionSchema.omit({ seen: true }).extend({
  /** Why the last delivery failed or what was refused (English; the server's words inside are shown as given). */
  lastProblem: z.string().max(5_000).optional(),
  /** Actions held back by the rate limit since the last one ran (the events are still in the Inbox). */
  heldBack: z.number().int().nonnegative().optional(),
});
export type EventSubscriptionView = z.infer<typeof EventSubscriptionViewSchema>;

/** One event type a server offers (events/list), as the Events tab shows it and builds its subscribe form. */
export const EventTypeViewSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  delivery: z.array(z.string()),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  payloadSchema: z.record(z.string(), z.unknown()).optional(),
});
export type EventTypeView = z.infer<typeof EventTypeViewSchema>;

export const ServerEventTypesViewSchema = z.object({
  server: z.string(),
  types: z.array(EventTypeViewSchema),
  /** Entries of the server's list Berth could not read. */
  refused: z.number().int().nonnegative(),
  problem: z.string().optional(),
});

/** Every ready server's event types and the person's subscriptions (`events.catalog`, `events.changed`). */
export const EventsCatalogSchema = z.object({
  servers: z.array(ServerEventTypesViewSchema),
  subscriptions: z.array(EventSubscriptionViewSchema),
  /** Why the saved subscriptions could not be read at start (the file was moved aside). */
  problem: z.string().optional(),
});
export type EventsCatalog = z.infer<typeof EventsCatalogSchema>;

/** The Inbox keeps this many entries; older ones go first. */
export const INBOX_LIMIT = 1_000;

/** An event kept in the Inbox: the server's untrusted data, shown as its words and capped by the view. */
export const InboxEntrySchema = z.object({
  id: z.string(),
  subscriptionId: z.string(),
  server: z.string(),
  event: z.string(),
  eventId: z.string(),
  /** When the server says it happened (its words: shown as given). */
  timestamp: z.string(),
  receivedAt: z.number(),
  data: z.record(z.string(), z.unknown()),
  read: z.boolean(),
});
export type InboxEntry = z.infer<typeof InboxEntrySchema>;

/** A notification to show for a subscription's new events: coalesced, so a flood is one notice with a count. */
export const EventNoticeSchema = z.object({
  subscriptionId: z.string(),
  server: z.string(),
  event: z.string(),
  /** Events this notice stands for. */
  count: z.number().int().positive(),
  /** The newest of them. */
  latest: InboxEntrySchema,
});
export type EventNotice = z.infer<typeof EventNoticeSchema>;
