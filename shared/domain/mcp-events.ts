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
