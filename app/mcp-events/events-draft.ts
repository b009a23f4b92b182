import { z } from 'zod';

/*
 * MCP Events is a draft extension (modelcontextprotocol/experimental-ext-triggers-events,
 * docs/design-sketch-proposal.md; SEP-3415 moves the capability under `extensions`). Every name the draft
 * chose — methods, notifications, the capability's two spellings, error codes, the wire shapes — is here and
 * nowhere else, so the final version is a change to this file.
 */

/** The capability's key under `capabilities.extensions` (SEP-3415); the design sketch puts it at `capabilities.events`. */
export const EVENTS_EXTENSION = 'io.modelcontextprotocol/events';

export const EVENTS_METHODS = {
  list: 'events/list',
  poll: 'events/poll',
  stream: 'events/stream',
} as const;

export const EVENTS_NOTIFICATIONS = {
  listChanged: 'notifications/events/list_changed',
  active: 'notifications/events/active',
  event: 'notifications/events/event',
  heartbeat: 'notifications/events/heartbeat',
  error: 'notifications/events/error',
  terminated: 'notifications/events/terminated',
} as const;

/** Where each push notification names its stream: the JSON-RPC id of the `events/stream` request. */
export const SUBSCRIPTION_ID_META = 'io.modelcontextprotocol/subscriptionId';

/**
 * The draft's error codes (design sketch, "Error Codes"). SEP-3415 renumbers them; both tables are read the same way,
 * by meaning, so a server of either draft is understood.
 */
export const EVENTS_ERROR_CODES = {
  notFound: [-32011],
  forbidden: [-32012],
  resourceExhausted: [-32013],
  unsupported: [-32014],
} as const satisfies Record<string, readonly number[]>;

export type EventsErrorKind = keyof typeof EVENTS_ERROR_CODES;

/** The meaning of a JSON-RPC error code a server answered an events request with; undefined for any other code. */
export function eventsErrorKind(code: number): EventsErrorKind | undefined {
  for (const [kind, codes] of Object.entries(EVENTS_ERROR_CODES))
    if ((codes as readonly number[]).includes(code)) return kind as EventsErrorKind;
  return undefined;
}

export interface EventsCapability {
  /** The server tells when its list of event types changes (`notifications/events/list_changed`). */
  listChanged: boolean;
}

/** The events capability a server declared, under either spelling; undefined when it declared none. */
export function declaredEvents(
  capabilities: Readonly<Record<string, unknown>> | undefined,
): EventsCapability | undefined {
  const extensions = capabilities?.extensions;
  const declared =
    (isObject(extensions) ? extensions[EVENTS_EXTENSION] : undefined) ??
    (isObject(capabilities) ? capabilities.events : undefined);
  if (!isObject(declared)) return undefined;
  return { listChanged: declared.listChanged === true };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const DELIVERY_MODES = ['poll', 'push', 'webhook'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** One event type of `events/list`. Loose: a server's extra fields are kept, its junk refused by field. */
export const EventDefinitionSchema = z.looseObject({
  name: z.string().min(1).max(200),
  title: z.string().max(500).optional(),
  description: z.string().max(10_000).optional(),
  delivery: z.array(z.string()).min(1),
  inputSchema: z.looseObject({ type: z.literal('object').optional() }).optional(),
  payloadSchema: z.looseObject({}).optional(),
});
export type EventDefinition = z.infer<typeof EventDefinitionSchema>;

export const EventListResultSchema = z.looseObject({
  events: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** One occurrence, in `events/poll`'s `events[]` and in `notifications/events/event`. */
export const EventOccurrenceSchema = z.looseObject({
  eventId: z.string().min(1).max(1_000),
  name: z.string().min(1).max(200),
  timestamp: z.string().max(100),
  data: z.looseObject({}),
  cursor: z.string().nullable().optional(),
});
export type EventOccurrence = z.infer<typeof EventOccurrenceSchema>;

export const PollResultSchema = z.looseObject({
  events: z.array(z.unknown()),
  cursor: z.string().nullable().optional(),
  truncated: z.boolean().optional(),
  hasMore: z.boolean().optional(),
  nextPollMs: z.number().optional(),
});
export type PollResult = z.infer<typeof PollResultSchema>;

/** What `events/poll` and `events/stream` send for one subscription. */
export interface SubscriptionRequest {
  name: string;
  arguments: Record<string, unknown>;
  /** Null: start from now (the server answers with no events and a fresh cursor). */
  cursor: string | null;
  /** Do not replay events older than this. */
  maxAgeMs?: number;
  maxEvents?: number;
}
