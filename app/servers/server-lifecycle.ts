import type { Client } from '@modelcontextprotocol/client';
import type { ServerState } from '../../shared/domain/server';
import type { Disposable } from './connection-scope';
import type { ListKind } from './list-changes';

/**
 * What a per-server service hears about servers. Every hook is optional; a
 * service implements the ones it needs and joins with
 * {@linkcode ServerLifecycle.register}. A new per-server feature (tasks, MCP
 * Apps) joins here without touching the supervisor or the connection.
 */
export interface ServerLifecycleListener {
  /**
   * A connection was opened and its SDK client is not connected yet: declare
   * capabilities, set request and notification handlers. The client is the
   * one of this connection only; keep it to tell a late call from a replaced one.
   */
  clientSetup?(server: string, client: Client): void;
  /** Any change of a server's state (starting, ready, crashed, stopped, a new config). */
  serverChanged?(state: ServerState): void;
  /** A server announced that one of its lists changed (`notifications/<kind>/list_changed`). */
  listChanged?: Partial<Record<ListKind, (server: string) => void>>;
  /** The server left the config; its process is gone. Forget what was kept for it. */
  serverRemoved?(server: string): void;
  /** The host is shutting down: stop background work. Servers still report their last states after this. */
  shuttingDown?(): void;
}

export interface ServerLifecycleOptions {
  /** A listener threw; the other listeners still heard the event. */
  reportError(what: string, error: unknown): void;
}

/**
 * The one path by which per-server services hear about servers: the
 * supervisor reports connections, states and list changes here, the config
 * sync reports removals, the host reports its shutdown.
 *
 * Order: every event reaches the listeners in the order they registered, one
 * after the other, synchronously. A listener registered while an event is
 * being delivered hears the next one; one disposed meanwhile hears no more.
 * A listener that throws is reported and the rest still run, except for
 * `clientSetup`: there every listener runs, then the first error is thrown
 * on, so a connection whose client lacks a handler fails to start instead of
 * answering a server's requests wrongly.
 */
export class ServerLifecycle {
  /** One box per registration: the same listener registered twice hears everything twice and leaves once per dispose. */
  private readonly registered: { listener: ServerLifecycleListener }[] = [];
  private shutDown = false;

  constructor(private readonly options: ServerLifecycleOptions) {}

  /** Join; disposing leaves (twice is harmless). */
  register(listener: ServerLifecycleListener): Disposable {
    const registration = { listener };
    this.registered.push(registration);
    return {
      dispose: () => {
        const index = this.registered.indexOf(registration);
        if (index >= 0) this.registered.splice(index, 1);
      },
    };
  }

  clientSetup(server: string, client: Client): void {
    const errors = this.deliver(`setting up the client of '${server}'`, (listener) =>
      listener.clientSetup?.(server, client),
    );
    if (errors.length > 0) throw errors[0];
  }

  serverChanged(state: ServerState): void {
    this.deliver(`hearing the new state of '${state.name}'`, (listener) => listener.serverChanged?.(state));
  }

  listChanged(server: string, kind: ListKind): void {
    this.deliver(`hearing that the ${kind} of '${server}' changed`, (listener) =>
      listener.listChanged?.[kind]?.(server),
    );
  }

  serverRemoved(server: string): void {
    this.deliver(`forgetting the removed server '${server}'`, (listener) => listener.serverRemoved?.(server));
  }

  /** Tells every listener once; later calls do nothing. */
  shutdown(): void {
    if (this.shutDown) return;
    this.shutDown = true;
    this.deliver('shutting down', (listener) => listener.shuttingDown?.());
  }

  /** Calls `hear` on each listener registered now and still registered when its turn comes; returns what they threw. */
  private deliver(what: string, hear: (listener: ServerLifecycleListener) => void): unknown[] {
    const errors: unknown[] = [];
    for (const registration of [...this.registered]) {
      if (!this.registered.includes(registration)) continue;
      try {
        hear(registration.listener);
      } catch (error) {
        errors.push(error);
        try {
          this.options.reportError(`a service failed ${what}`, error);
        } catch (reportError) {
          console.error(`[berth] reporting a lifecycle listener error failed:`, reportError, error);
        }
      }
    }
    return errors;
  }
}
