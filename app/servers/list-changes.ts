import type { Client, ServerCapabilities, SubscriptionFilter } from '@modelcontextprotocol/client';
import { messageOrInvalidResult } from './connection-errors';

/**
 * The lists whose changes a server announces (`notifications/<kind>/list_changed`)
 * and Berth follows. A new kind is added here and handled by the one service
 * that wants it.
 */
export const LIST_KINDS = ['tools', 'prompts', 'resources'] as const;
export type ListKind = (typeof LIST_KINDS)[number];

const NOTIFICATION = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
} as const satisfies Record<ListKind, string>;

const FILTER_KEY = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const satisfies Record<ListKind, keyof SubscriptionFilter>;

/** The kinds whose changes the server says it announces (`listChanged` in its capabilities). */
export function announcedListKinds(capabilities: ServerCapabilities | undefined): ListKind[] {
  return LIST_KINDS.filter((kind) => Boolean(capabilities?.[kind]?.listChanged));
}

export interface FollowListChangesOptions {
  /** How long the server may take to acknowledge the 2026-07-28 subscription. */
  timeoutMs: number;
  /** A list changed. Whoever wants it re-reads it their own way (tools every page with each tool checked, the prompt catalog, the resource browser's page): nothing is fetched here. */
  changed: (kind: ListKind) => void;
  /** Changes will not be heard, in words (the server refused the subscription or never acknowledged it). */
  unfollowed: (why: string) => void;
}

/**
 * Follows the changes of every list the connected server announces. In the 2025
 * era the server sends them unsolicited; in the 2026-07-28 era only on a
 * `subscriptions/listen` stream, whose notifications the SDK hands to the same
 * handlers. Berth opens that stream itself rather than through the SDK's
 * `listChanged` option, which opened it inside connect() and waited for the
 * acknowledgement (a round trip per server before its tools could be listed,
 * which bare clients do not make), and did not open it at all on a connect with
 * a remembered era, so those servers' changes were never heard. Call it right
 * after connect, before anything is listed: the request then goes out first on
 * the same ordered stream, so a server that takes requests in order has the
 * subscription in place before it lists anything. It is not awaited.
 */
export function followListChanges(client: Client, options: FollowListChangesOptions): void {
  const kinds = announcedListKinds(client.getServerCapabilities());
  for (const kind of kinds) client.setNotificationHandler(NOTIFICATION[kind], () => options.changed(kind));
  if (client.getProtocolEra() !== 'modern' || kinds.length === 0) return;
  const filter: SubscriptionFilter = {};
  for (const kind of kinds) filter[FILTER_KEY[kind]] = true;
  client.listen(filter, { timeout: options.timeoutMs }).catch((error: unknown) => {
    options.unfollowed(
      `could not subscribe to ${kinds.join(', ')} list changes (${messageOrInvalidResult(error)}); those lists are read again only when the server restarts`,
    );
  });
}
