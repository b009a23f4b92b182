import type { CallToolResult, Client, OAuthClientProvider } from '@modelcontextprotocol/client';
import { HostError } from '../../shared/result';
import { personSignsIn, type LogLevel, type ServerConfig, type ServerState } from '../../shared/domain/server';
import { errorMessage } from '../../shared/error-message';
import { formatSeconds } from '../format-seconds';
import { afterCrash, type CrashOutcome } from './backoff';
import { classifyConfigChange } from './config-change';
import { adoptConnection, releaseConnection } from './entry-connection';
import { adoptLiveChange } from './live-config-change';
import { EraCache } from './era-cache';
import { ServerConnection } from './server-connection';
import type { CallToolOptions, OpenConnection, SupervisedConnection } from './server-connection';
import { plainLaunch, type ServerLaunch } from './server-launch';
import { authAfterChange, signedInAuth } from './sign-in-state';
import { ServerStartError } from '../../shared/domain/server-start-error';
import { RUNTIME_RESET, enqueue, maskState, newEntry, type Entry } from './supervisor-entry';
import type { SupervisorOptions } from './supervisor-options';
import { withConnection, type ServerRequest } from './with-connection';

export { maskState } from './supervisor-entry';
export type { SupervisorOptions } from './supervisor-options';

/**
 * Starts, watches, restarts and stops every configured server (stdio or remote). States
 * are truthful: stopped → starting → ready; failures → error (with the reason)
 * or crashed → restarting per the backoff policy. Operations on one server are
 * serialized; different servers proceed in parallel.
 */
export class ServerSupervisor {
  private readonly entries = new Map<string, Entry>();
  private readonly eraCache: EraCache;
  private readonly env: NodeJS.ProcessEnv;
  private readonly clientVersion: string;
  private readonly stableAfterMs: number;
  private readonly openConnection: OpenConnection;
  private shuttingDown: Promise<void> | undefined;

  constructor(private readonly options: SupervisorOptions) {
    this.eraCache = new EraCache({ stateDir: options.stateDir, logs: options.logs });
    this.env = options.env ?? process.env;
    this.clientVersion = options.clientVersion ?? '0.0.0';
    this.stableAfterMs = options.stableAfterMs ?? 60_000;
    this.openConnection = options.openConnection ?? ServerConnection.open;
  }

  /** Reconcile with the config: add new, restart changed (if running), stop+forget removed, start enabled ones that are stopped. */
  async sync(configs: Record<string, ServerConfig>): Promise<void> {
    this.assertRunning();
    const work: Promise<unknown>[] = [];
    for (const name of [...this.entries.keys()]) {
      if (!(name in configs)) work.push(this.remove(name));
    }
    for (const [name, config] of Object.entries(configs)) {
      const entry = this.entries.get(name);
      if (entry === undefined) {
        const created = this.addEntry(name, config);
        if (config.enabled) work.push(this.start(created.name));
        continue;
      }
      const change = classifyConfigChange(entry.config, config);
      if (change === 'restart') {
        // Whatever it was doing, the old config is stale: stop it, then start
        // the new one if enabled (a changed config may well fix an error).
        this.cancelPending(entry);
        work.push(
          enqueue(entry, async () => {
            const wasStopped = entry.state.status === 'stopped';
            await this.doStop(entry, wasStopped && entry.state.reason ? entry.state.reason : 'config changed');
            const levelChanged = config.logLevel !== entry.config.logLevel;
            // A sign-in belongs to the URL: for a new one, nothing is known until it is tried.
            const authStale = config.url !== entry.config.url;
            entry.config = config;
            this.update(entry, {
              config,
              ...(levelChanged ? { logLevel: config.logLevel } : {}),
              ...(authStale ? { auth: undefined } : {}),
            });
            if (config.enabled && !entry.heldByPerson) await this.doStart(entry, true);
          }),
        );
        continue;
      }
      if (change === 'live')
        work.push(
          adoptLiveChange(entry, config, {
            update: (changed, patch) => this.update(changed, patch),
            hostLog: (changed, level, text) => this.hostLog(changed, level, text),
          }),
        );
      if (config.enabled && entry.state.status === 'stopped' && !entry.heldByPerson) {
        work.push(enqueue(entry, async () => this.doStart(entry, true)));
      } else if (!config.enabled && entry.state.status !== 'stopped') {
        work.push(this.stopEntry(entry));
      }
    }
    await Promise.all(work);
  }

  list(): ServerState[] {
    return [...this.entries.values()]
      .map((entry) => maskState(entry.state))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): ServerState | undefined {
    const entry = this.entries.get(name);
    return entry === undefined ? undefined : maskState(entry.state);
  }

  /** Resolves when ready OR failed (the state tells which). */
  async start(name: string): Promise<ServerState> {
    this.assertRunning();
    const entry = this.entry(name);
    entry.heldByPerson = false;
    return enqueue(entry, async () => {
      await this.doStart(entry, true);
      return maskState(entry.state);
    });
  }

  /** Resolves when the whole tree is gone. */
  /** A stop the person asked for: later config syncs leave the server stopped. */
  async stop(name: string): Promise<ServerState> {
    const entry = this.entry(name);
    entry.heldByPerson = true;
    return this.stopEntry(entry);
  }

  private async stopEntry(entry: Entry): Promise<ServerState> {
    this.cancelPending(entry);
    return enqueue(entry, async () => {
      await this.doStop(entry, 'stopped');
      return maskState(entry.state);
    });
  }

  async restart(name: string): Promise<ServerState> {
    this.assertRunning();
    const entry = this.entry(name);
    entry.heldByPerson = false;
    this.cancelPending(entry);
    return enqueue(entry, async () => {
      await this.doStop(entry, 'restarting');
      await this.doStart(entry, true);
      return maskState(entry.state);
    });
  }

  /** Resolves once the protocol eras remembered so far are saved (servers are reported ready before that). */
  erasSaved(): Promise<void> {
    return this.eraCache.flush();
  }

  /** Stop + forget. */
  async remove(name: string): Promise<void> {
    const entry = this.entry(name);
    this.cancelPending(entry);
    await enqueue(entry, async () => {
      entry.removed = true;
      await this.doStop(entry, 'removed');
      if (this.entries.get(name) === entry) this.entries.delete(name);
      await this.eraCache.forget(name);
    });
  }

  /**
   * The person chose a level: a ready server gets it now (failures are
   * thrown), any other is started with it next time. The caller stores it in
   * the config, so the next sync finds nothing to change.
   */
  async setLogLevel(name: string, level: LogLevel): Promise<ServerState> {
    const entry = this.entry(name);
    return enqueue(entry, async () => {
      const connection = entry.state.status === 'ready' ? entry.connection : undefined;
      // Recorded even if the server refuses it now: it is still what the next start asks for.
      entry.config = { ...entry.config, logLevel: level };
      this.update(entry, { config: entry.config, logLevel: level });
      if (connection !== undefined) await connection.setLogLevel(level);
      return maskState(entry.state);
    });
  }

  /**
   * The server's stored OAuth tokens changed (a sign-in finished, or the
   * person signed out): the state's `auth` is read again now, without
   * waiting for a start, so a stopped server shows it too.
   */
  async signInChanged(name: string): Promise<ServerState> {
    const entry = this.entry(name);
    // Only a person's sign-in has a state (and a no-person grant's stored config holds references, not the key its provider reads).
    const provider = personSignsIn(entry.config) ? this.options.authProviderFor?.(entry.name, entry.config) : undefined;
    const auth = await authAfterChange(provider, entry.state.auth);
    if (this.entries.get(name) === entry) this.update(entry, { auth });
    return maskState(entry.state);
  }

  callTool(
    name: string,
    tool: string,
    args: Record<string, unknown>,
    options?: CallToolOptions,
  ): Promise<CallToolResult> {
    return this.withEntry(name, (entry) => {
      const request = {
        action: `call tool '${tool}'`,
        timeoutMs: options?.timeoutMs ?? entry.config.timeouts.requestMs,
        signal: options?.signal,
      };
      return withConnection(entry, request, (connection) => connection.callTool(tool, args, options));
    });
  }

  /**
   * How the host's services (prompts, resources, completions) reach a server: `send` on its client, with its
   * request timeout. Failures come back in words; a lost HTTP session is survived like a tool call's (withConnection).
   */
  request<T>(
    name: string,
    request: ServerRequest,
    send: (client: Client, timeoutMs: number) => Promise<T>,
  ): Promise<T> {
    return this.withEntry(name, (entry) => {
      const { method, what, signal } = request;
      const timeoutMs = entry.config.timeouts.requestMs;
      return withConnection(entry, { ...request, timeoutMs }, (connection) =>
        connection.request(method, what, timeoutMs, signal, (client) => send(client, timeoutMs)),
      );
    });
  }

  /** Whether `client` belongs to the server's live connection: a late message from a replaced one is not. */
  isCurrentClient(name: string, client: Client): boolean {
    const connection = this.entries.get(name)?.connection;
    return connection !== undefined && connection.client === client;
  }

  /** `notifications/roots/list_changed` to a ready server; undefined (nothing sent) when it is not ready: it asks when it starts. */
  notifyRootsChanged(name: string): Promise<void> | undefined {
    const entry = this.entries.get(name);
    if (entry?.state.status !== 'ready' || entry.connection === undefined) return undefined;
    return entry.connection.client.sendRootsListChanged();
  }

  /** Stop every server in parallel, cancel timers; idempotent. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      const entries = [...this.entries.values()];
      for (const entry of entries) this.cancelPending(entry);
      await Promise.all(entries.map((entry) => enqueue(entry, () => this.doStop(entry, 'host shut down'))));
      await this.eraCache.flush();
    })();
    return this.shuttingDown;
  }

  private addEntry(name: string, config: ServerConfig): Entry {
    const entry = newEntry(name, config);
    this.entries.set(name, entry);
    this.emit(entry);
    return entry;
  }

  private entry(name: string): Entry {
    const entry = this.entries.get(name);
    if (entry === undefined) throw new HostError('NOT_FOUND', `no server named '${name}'`);
    return entry;
  }

  /** An unknown name is a rejection like any other failure, not a synchronous throw (without an async frame per call). */
  private withEntry<T>(name: string, run: (entry: Entry) => Promise<T>): Promise<T> {
    try {
      return run(this.entry(name));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private assertRunning(): void {
    if (this.shuttingDown !== undefined) throw new HostError('NOT_READY', 'the host is shutting down');
  }

  /** Abort a start in progress and any timer, so a stop does not wait behind them. */
  private cancelPending(entry: Entry): void {
    entry.startAbort?.abort();
    this.clearTimers(entry);
  }

  private clearTimers(entry: Entry): void {
    clearTimeout(entry.restartTimer);
    entry.stableTimer?.dispose();
    entry.restartTimer = undefined;
    entry.stableTimer = undefined;
  }

  private async doStart(entry: Entry, manual: boolean): Promise<void> {
    if (entry.removed || this.shuttingDown !== undefined) return;
    if (entry.connection !== undefined && entry.state.status === 'ready') return;
    this.clearTimers(entry);
    const abort = new AbortController();
    entry.startAbort = abort;
    this.update(entry, {
      ...RUNTIME_RESET,
      status: 'starting',
      reason: undefined,
      ...(manual ? { restartCount: 0 } : {}),
    });
    let connection: SupervisedConnection;
    let launch: ServerLaunch | undefined;
    let authProvider: OAuthClientProvider | undefined;
    try {
      launch =
        this.options.prepareLaunch === undefined
          ? plainLaunch(entry.config, this.env)
          : await this.options.prepareLaunch(entry.name, entry.config);
      connection = await this.openConnection({
        name: entry.name,
        config: launch.config,
        hostEnv: launch.env,
        ...(launch.shownCommand === undefined ? {} : { shownCommand: launch.shownCommand }),
        ...(launch.wrapper === undefined ? {} : { wrapper: launch.wrapper }),
        logs: this.options.logs,
        eraCache: this.eraCache,
        clientVersion: this.clientVersion,
        logLevel: entry.state.logLevel,
        signal: abort.signal,
        authProvider: (authProvider = this.options.authProviderFor?.(entry.name, launch.config)),
        onSpawn: (pid) => {
          if (entry.startAbort === abort) this.update(entry, { pid });
        },
        ...(this.options.clientSetup !== undefined ? { clientSetup: this.options.clientSetup } : {}),
      });
    } catch (error) {
      if (entry.startAbort === abort) entry.startAbort = undefined;
      const started = error instanceof ServerStartError ? error : new ServerStartError(String(error), 'protocol');
      const failure = launch === undefined ? started : launch.explain(started);
      if (failure.kind === 'cancelled') return;
      if (failure.kind === 'exited' || failure.kind === 'spawn' || failure.kind === 'unreachable')
        this.crashed(entry, failure.message);
      // Still an error (nothing runs), but one the person fixes by signing in: the UI says so instead of "Error".
      else if (failure.kind === 'sign-in')
        this.update(entry, {
          ...RUNTIME_RESET,
          status: 'error',
          reason: failure.message,
          auth: { state: 'needs-sign-in' },
        });
      else this.update(entry, { ...RUNTIME_RESET, status: 'error', reason: failure.message });
      return;
    }
    // Read before the checks below: they must see what happened while it was read.
    const auth = await signedInAuth(authProvider);
    entry.startAbort = undefined;
    if (abort.signal.aborted || entry.removed) {
      await connection.close();
      return;
    }
    if (connection.lostReason !== undefined) {
      // It went away between its handshake and this line: a crash like any other.
      this.crashed(entry, connection.lostReason);
      return;
    }
    adoptConnection(entry, connection, this.stableAfterMs, {
      listChanged: (kind) => {
        if (kind === 'tools') this.update(entry, { tools: connection.tools });
        this.options.onListChanged?.(entry.name, kind);
      },
      lost: (reason) => this.crashed(entry, reason),
      stable: () => {
        if (entry.state.restartCount !== 0) this.update(entry, { restartCount: 0 });
      },
    });
    // Ready without stored tokens: this server wants no sign-in (any longer).
    this.update(entry, {
      ...connection.facts(),
      status: 'ready',
      reason: undefined,
      readySince: Date.now(),
      nextRestartAt: undefined,
      auth,
    });
  }

  private async doStop(entry: Entry, reason: string): Promise<void> {
    this.clearTimers(entry);
    const connection = releaseConnection(entry);
    if (connection !== undefined) await connection.close();
    const wasStopped = entry.state.status === 'stopped' && connection === undefined;
    if (!wasStopped || entry.state.reason !== reason)
      this.update(entry, { ...RUNTIME_RESET, status: 'stopped', reason });
  }

  /** Show the crash, then either schedule the next restart or give up. */
  private crashed(entry: Entry, reason: string): void {
    this.clearTimers(entry);
    // A server being removed, or a host shutting down, is not restarted.
    const ending = entry.removed || this.shuttingDown !== undefined;
    const outcome: CrashOutcome = ending
      ? { reason, gaveUp: false }
      : afterCrash(reason, entry.state.restartCount, entry.config.restart, this.options.jitter);
    // Shown as crashed first, so the UI (and the log of states) tells the truth.
    this.update(entry, { ...RUNTIME_RESET, status: 'crashed', reason: outcome.reason });
    if (outcome.gaveUp) this.hostLog(entry, 'error', outcome.reason);
    if (outcome.restart === undefined) return;
    const { attempt, delayMs } = outcome.restart;
    this.update(entry, { status: 'restarting', restartCount: attempt, nextRestartAt: Date.now() + delayMs, reason });
    this.hostLog(
      entry,
      'warning',
      `${reason}; restart ${attempt} of ${entry.config.restart.maxRestarts} in ${formatSeconds(delayMs)}`,
    );
    entry.restartTimer = setTimeout(() => {
      entry.restartTimer = undefined;
      enqueue(entry, async () => {
        if (entry.state.status === 'restarting') await this.doStart(entry, false);
      }).catch((error: unknown) => {
        // doStart reports failures in the state; reaching here is a bug, and it must not vanish.
        this.hostLog(entry, 'error', `automatic restart failed: ${errorMessage(error)}`);
      });
    }, delayMs);
  }

  private update(entry: Entry, patch: Partial<ServerState>): void {
    const next = { ...entry.state, ...patch };
    for (const key of Object.keys(next) as (keyof ServerState)[]) {
      if (next[key] === undefined) delete next[key];
    }
    entry.state = next;
    this.emit(entry);
    for (const watch of [...entry.watchers]) watch();
  }

  private emit(entry: Entry): void {
    if (entry.removed && entry.state.status !== 'stopped') return;
    try {
      this.options.onState(maskState(entry.state));
    } catch (error) {
      this.hostLog(entry, 'error', `state listener failed: ${errorMessage(error)}`);
    }
  }

  /** A line from Berth in the server's log. */
  private hostLog(entry: Entry, level: 'warning' | 'error', text: string): void {
    this.options.logs.append({ server: entry.name, time: Date.now(), source: 'host', level, text });
  }
}
