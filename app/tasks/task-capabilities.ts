import type { ClientCapabilities } from '@modelcontextprotocol/client';

/**
 * The request kinds Berth runs as tasks when a server asks (2025-11-25
 * `tasks.requests`), as the receiver declares them: e.g.
 * `{ sampling: { createMessage: {} }, elicitation: { create: {} } }`.
 */
export type ReceiverTaskRequests = Record<string, Record<string, Record<string, never>>>;

/**
 * Berth's client `tasks` capability for the 2025-11-25 era.
 *
 * Running a server's tool as a task (requester side) needs no client
 * capability: the server's own `tasks.requests.tools.call` is what counts.
 * The client's `tasks` object tells what Berth answers as a *receiver*:
 * `list` and `cancel` are its answers to the server's `tasks/list` and
 * `tasks/cancel`, and `requests` the request kinds it runs as tasks. So the
 * capability is declared only together with the receiver, from the receiver's
 * part, and nothing is claimed without one.
 */
export function legacyTasksCapability(receiver: ReceiverTaskRequests | undefined): ClientCapabilities['tasks'] | undefined {
  if (receiver === undefined || Object.keys(receiver).length === 0) return undefined;
  return { list: {}, cancel: {}, requests: structuredClone(receiver) };
}
