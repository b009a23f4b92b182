import type { Client } from '@modelcontextprotocol/client';

// ext-tasks' receiver binding installs its handlers in the SDK Client's
// request-handler map (it requires that map and throws without it). Berth
// needs two things the binding offers no option for, so it reaches the same
// map, and only here:
// - to see a task-augmented request BEFORE the binding makes a task of it
//   (check its params, refuse it, honour the TTL the server asked for);
// - to cancel one of the binding's tasks from Berth's side (the Tasks view),
//   through the binding's own `tasks/cancel` handler, so the binding's
//   record, its status notification and the server's `tasks/get` all agree.

/** A handler as the SDK stores it: the raw JSON-RPC request and the request context. */
export type InstalledHandler = (request: unknown, context: unknown) => Promise<unknown>;

interface ClientWithHandlers {
  _requestHandlers: Map<string, InstalledHandler>;
}

function handlerMap(client: Client): Map<string, InstalledHandler> {
  const handlers = (client as unknown as Partial<ClientWithHandlers>)._requestHandlers;
  if (!(handlers instanceof Map))
    throw new TypeError('this SDK Client keeps no request-handler map; the task receiver cannot be bound');
  return handlers;
}

/** Whether a handler for `method` is installed already. */
export function hasInstalledHandler(client: Client, method: string): boolean {
  return handlerMap(client).has(method);
}

/** Puts `wrap(installed)` in place of the handler installed for `method`; throws when there is none. */
export function wrapInstalledHandler(
  client: Client,
  method: string,
  wrap: (installed: InstalledHandler) => InstalledHandler,
): void {
  const handlers = handlerMap(client);
  const installed = handlers.get(method);
  if (installed === undefined) throw new Error(`no request handler is installed for ${method}`);
  handlers.set(method, wrap(installed));
}

/** The handler installed for `method` now, as a function to call later with params (a request Berth makes to itself). */
export function installedCaller(client: Client, method: string): (params: Record<string, unknown>) => Promise<unknown> {
  const installed = handlerMap(client).get(method);
  if (installed === undefined) throw new Error(`no request handler is installed for ${method}`);
  return (params) =>
    installed(
      { jsonrpc: '2.0', id: `berth-${method}`, method, params },
      { mcpReq: { id: `berth-${method}`, method, signal: new AbortController().signal } },
    );
}

/** Whether a request asks to be run as a task (2025-11-25: `params.task` present, whatever its value). */
export function isTaskAugmented(request: unknown): boolean {
  if (request === null || typeof request !== 'object') return false;
  const params = (request as { params?: unknown }).params;
  return params !== null && typeof params === 'object' && Object.hasOwn(params, 'task');
}

/** The `params.task.ttl` a task-augmented request asked for, when it is a whole number of ms. */
export function requestedTtlMs(request: unknown): number | undefined {
  const params = (request as { params?: { task?: unknown } } | null)?.params;
  const task = params?.task;
  if (task === null || typeof task !== 'object') return undefined;
  const ttl = (task as { ttl?: unknown }).ttl;
  return typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= 0 ? ttl : undefined;
}
