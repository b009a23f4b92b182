import { HostError } from '../../shared/result';
import { formatSeconds } from '../format-seconds';
import { SessionLostError } from './connection-errors';
import type { SupervisedConnection } from './connection-options';
import type { Entry } from './supervisor-entry';

/** A request a host service sends to a server (ServerSupervisor.request). */
export interface ServerRequest {
  /** The MCP method, for the wording of a failure: `prompts/get`. */
  method: string;
  /** What it is about, e.g. `prompt 'greet'`; may be empty. */
  what: string;
  /** For "not ready: cannot …", e.g. `get prompt 'greet'`. */
  action: string;
  /** The person's (or a newer keystroke's) cancel: a cancelled request is never sent again. */
  signal?: AbortSignal | undefined;
}

/** What `withConnection` needs to know about a request. */
export interface ConnectionRequest extends Pick<ServerRequest, 'action' | 'signal'> {
  /** How long to wait for a reconnect; each send has its own timeout too. */
  timeoutMs: number;
}

/**
 * Every request the host sends to a server goes through here (tools,
 * prompts, resources, completions), so each one survives a lost HTTP
 * session the same way:
 *
 * - a remote server that is being reconnected is waited for (within the
 *   timeout) instead of being reported as not ready;
 * - a request that failed with SessionLostError was never run (the server
 *   answered 404 / "no valid session" before looking at it), so once the
 *   connection is back it is sent once more, on the new session. Only then:
 *   any other failure may have reached the server and is not resent, a
 *   second loss is reported, and a cancelled request stays cancelled.
 *
 * The person is told by the connection's "no longer knows this session …;
 * reconnecting" line and the restart that follows in the server's log.
 */
export async function withConnection<T>(
  entry: Entry,
  request: ConnectionRequest,
  send: (connection: SupervisedConnection) => Promise<T>,
): Promise<T> {
  const { timeoutMs, signal } = request;
  if (entry.config.url !== undefined && (entry.state.status === 'starting' || entry.state.status === 'restarting')) {
    await waitForReconnect(
      entry,
      timeoutMs,
      new HostError('NOT_READY', `server '${entry.name}' is reconnecting`),
      signal,
    );
  }
  try {
    return await send(readyConnection(entry, request.action));
  } catch (error) {
    if (!(error instanceof SessionLostError) || signal?.aborted === true) throw error;
    await waitForReconnect(entry, timeoutMs, error, signal);
    return send(readyConnection(entry, request.action));
  }
}

/** The server's live connection, or NOT_READY saying what it is doing instead. */
export function readyConnection(entry: Entry, action: string): SupervisedConnection {
  const connection = entry.connection;
  if (entry.state.status !== 'ready' || connection === undefined) {
    throw new HostError('NOT_READY', `server '${entry.name}' is ${entry.state.status}, not ready: cannot ${action}`);
  }
  return connection;
}

/**
 * Resolves when the server is ready again; rejects with `cause` if it stops,
 * fails for good or takes longer than `timeoutMs`, and as cancelled if
 * `signal` aborts meanwhile.
 */
export function waitForReconnect(entry: Entry, timeoutMs: number, cause: Error, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (failure?: Error): void => {
      clearTimeout(timer);
      entry.watchers.delete(watch);
      signal?.removeEventListener('abort', onAbort);
      if (failure === undefined) resolve();
      else reject(failure);
    };
    const watch = (): void => {
      const { status } = entry.state;
      const fail = (): void =>
        done(
          new HostError(
            'SERVER_ERROR',
            `${cause.message}, but could not reconnect: ${entry.state.reason ?? entry.state.status}`,
          ),
        );
      if (status === 'ready' && entry.connection !== undefined) done();
      else if (status === 'stopped' || status === 'error') fail();
      // 'crashed' is followed at once by 'restarting' unless the policy gave up.
      else if (status === 'crashed')
        queueMicrotask(() => {
          if (entry.state.status === 'crashed') fail();
        });
    };
    const onAbort = (): void =>
      done(new HostError('SERVER_ERROR', `${cause.message}; cancelled while waiting for the reconnect`));
    const timer = setTimeout(
      () => done(new HostError('TIMEOUT', `${cause.message}, but it was not back within ${formatSeconds(timeoutMs)}`)),
      timeoutMs,
    );
    entry.watchers.add(watch);
    signal?.addEventListener('abort', onAbort);
    if (signal?.aborted === true) onAbort();
    else watch();
  });
}
