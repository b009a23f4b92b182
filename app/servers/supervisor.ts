import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import type { LogLevel, ServerConfig, ServerState } from '../../shared/domain/server';
import { EraCache } from './era-cache';
import { ServerConnection } from './server-connection';
import type { CallToolOptions } from './server-connection';
import { SupervisedServer, type ServerRequest, type SupervisedServerContext } from './supervised-server';
import type { SupervisorOptions } from './supervisor-options';

export { maskState } from './mask-state';
export type { ServerRequest } from './supervised-server';
export type { SupervisorOptions } from './supervisor-options';

/**
 * Starts, watches, restarts and stops every configured server (stdio or
 * remote): one SupervisedServer per name, which owns that server's states,
 * queue and connection. States are truthful: stopped → starting → ready;
 * failures → error (with the reason) or crashed → restarting per the backoff
 * policy. Operations on one server are serialized; different servers proceed
 * in parallel. What is about all servers lives here: reconciling with the
 * config, the listing order, and the shutdown of all.
 */
export class ServerSupervisor {
  private readonly servers = new Map<string, SupervisedServer>();
  private readonly eraCache: EraCache;
  private readonly context: SupervisedServerContext;
  private shuttingDown: Promise<void> | undefined;

  constructor(options: SupervisorOptions) {
    this.eraCache = new EraCache({ stateDir: options.stateDir, logs: options.logs });
    this.context = {
      options,
      eraCache: this.eraCache,
      env: options.env ?? process.env,
      clientVersion: options.clientVersion ?? '0.0.0',
      stableAfterMs: options.stableAfterMs ?? 60_000,
      openConnection: options.openConnection ?? ServerConnection.open,
      shuttingDown: () => this.shuttingDown !== undefined,
    };
  }

  /** Reconcile with the config: add new, restart changed (if running), stop+forget removed, start enabled ones that are stopped. */
  async sync(configs: Record<string, ServerConfig>): Promise<void> {
    this.assertRunning();
    const work: Promise<unknown>[] = [];
    for (const name of [...this.servers.keys()]) {
      if (!(name in configs)) work.push(this.remove(name));
    }
    for (const [name, config] of Object.entries(configs)) {
      const server = this.servers.get(name);
      if (server !== undefined) {
        work.push(server.syncConfig(config));
        continue;
      }
      const created = new SupervisedServer(name, config, this.context);
      this.servers.set(name, created);
      created.report();
      if (config.enabled) work.push(this.start(name));
    }
    await Promise.all(work);
  }

  /** Every server's state, by name. */
  list(): ServerState[] {
    return [...this.servers.values()].map((server) => server.state).sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): ServerState | undefined {
    return this.servers.get(name)?.state;
  }

  /** Resolves when ready OR failed (the state tells which). */
  async start(name: string): Promise<ServerState> {
    this.assertRunning();
    return this.server(name).start();
  }

  /** A stop the person asked for: later config syncs leave the server stopped. Resolves when the whole tree is gone. */
  async stop(name: string): Promise<ServerState> {
    return this.server(name).stop();
  }

  async restart(name: string): Promise<ServerState> {
    this.assertRunning();
    return this.server(name).restart();
  }

  /** Resolves once the protocol eras remembered so far are saved (servers are reported ready before that). */
  erasSaved(): Promise<void> {
    return this.eraCache.flush();
  }

  /** Stop + forget. */
  async remove(name: string): Promise<void> {
    const server = this.server(name);
    await server.remove(async () => {
      if (this.servers.get(name) === server) this.servers.delete(name);
      await this.eraCache.forget(name);
    });
  }

  /** See SupervisedServer.setLogLevel. */
  async setLogLevel(name: string, level: LogLevel): Promise<ServerState> {
    return this.server(name).setLogLevel(level);
  }

  /** The server's stored OAuth tokens changed: see SupervisedServer.signInChanged. */
  async signInChanged(name: string): Promise<ServerState> {
    return this.server(name).signInChanged();
  }

  callTool(
    name: string,
    tool: string,
    args: Record<string, unknown>,
    options?: CallToolOptions,
  ): Promise<CallToolResult> {
    return this.withServer(name, (server) => server.callTool(tool, args, options));
  }

  /**
   * How the host's services (prompts, resources, completions) reach a server: `send` on its client, with its
   * request timeout. Failures come back in words; a lost HTTP session is survived like a tool call's.
   */
  request<T>(
    name: string,
    request: ServerRequest,
    send: (client: Client, timeoutMs: number) => Promise<T>,
  ): Promise<T> {
    return this.withServer(name, (server) => server.request(request, send));
  }

  /** Whether `client` belongs to the server's live connection: a late message from a replaced one is not. */
  isCurrentClient(name: string, client: Client): boolean {
    return this.servers.get(name)?.isCurrentClient(client) ?? false;
  }

  /** `notifications/roots/list_changed` to a ready server; undefined (nothing sent) when it is not ready: it asks when it starts. */
  notifyRootsChanged(name: string): Promise<void> | undefined {
    return this.servers.get(name)?.notifyRootsChanged();
  }

  /** Stop every server in parallel, cancel timers; idempotent. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      await Promise.all([...this.servers.values()].map((server) => server.shutDown()));
      await this.eraCache.flush();
    })();
    return this.shuttingDown;
  }

  private server(name: string): SupervisedServer {
    const server = this.servers.get(name);
    if (server === undefined) throw HostError.coded('NOT_FOUND', serverError('server-errors.not-supervised', { name }));
    return server;
  }

  /** An unknown name is a rejection like any other failure, not a synchronous throw (without an async frame per call). */
  private withServer<T>(name: string, run: (server: SupervisedServer) => Promise<T>): Promise<T> {
    try {
      return run(this.server(name));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private assertRunning(): void {
    if (this.shuttingDown !== undefined)
      throw HostError.coded('NOT_READY', serverError('server-errors.shutting-down', {}));
  }
}
