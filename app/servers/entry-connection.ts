import type { SupervisedConnection } from './connection-options';
import { ConnectionScope } from './connection-scope';
import type { ListKind } from './list-changes';
import type { Entry } from './supervisor-entry';

/** What the supervisor does with what its live connection tells. */
export interface LiveConnectionHandlers {
  listChanged: (kind: ListKind) => void;
  /** The server went away by itself; the entry has already let go of the connection. */
  lost: (reason: string) => void;
  /** The connection stayed ready for `stableAfterMs`. */
  stable: () => void;
}

/**
 * The entry's live connection from now on. What the supervisor registers for
 * it (its listeners and the stable-run timer) lives in one scope that
 * `releaseConnection` closes: once the entry has let go, nothing the old
 * connection tells reaches the supervisor, so no handler has to check that
 * its connection is still the current one.
 */
export function adoptConnection(
  entry: Entry,
  connection: SupervisedConnection,
  stableAfterMs: number,
  handlers: LiveConnectionHandlers,
): void {
  const scope = new ConnectionScope();
  entry.connection = connection;
  entry.scope = scope;
  scope.add(connection.on('listChanged', handlers.listChanged));
  scope.add(
    connection.on('lost', (reason) => {
      releaseConnection(entry);
      handlers.lost(reason);
    }),
  );
  entry.stableTimer = scope.timeout(stableAfterMs, () => {
    entry.stableTimer = undefined;
    handlers.stable();
  });
}

/** The entry no longer has a live connection, and its scope is closed. Returns the connection, for the caller to close (a lost one closes itself). */
export function releaseConnection(entry: Entry): SupervisedConnection | undefined {
  const connection = entry.connection;
  entry.connection = undefined;
  entry.scope?.dispose();
  entry.scope = undefined;
  return connection;
}
