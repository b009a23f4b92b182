import type { Handlers } from '../../shared/contract';
import type { mcpEventsMethods } from '../../shared/contract/mcp-events';
import type { McpEvents } from '../mcp-events/mcp-events';

/** The MCP Events methods of the contract. */
export type McpEventsHandlers = Pick<Handlers, keyof typeof mcpEventsMethods>;

/** Servers' event types, the person's subscriptions, and the Inbox. */
export function createMcpEventsHandlers(events: McpEvents): McpEventsHandlers {
  return {
    'events.catalog': async () => events.catalog(),
    'events.subscribe': async (input) => events.subscribe(input),
    'events.setPaused': async ({ id, paused }) => events.setPaused(id, paused),
    'events.unsubscribe': async ({ id }) => events.unsubscribe(id),
    'events.inbox': async () => events.inboxView(),
    'events.markRead': async ({ ids }) => events.markRead(ids),
    'events.removeFromInbox': async ({ ids }) => events.removeFromInbox(ids),
    'events.restoreToInbox': async ({ ids }) => events.restoreToInbox(ids),
  };
}
