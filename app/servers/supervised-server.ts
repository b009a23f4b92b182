import type { CallToolResult, Client, OAuthClientProvider } from '@modelcontextprotocol/client';
import { HostError } from '../../shared/result';
import { notReadyError, secondsOf, serverError, type ReconnectWait } from '../../shared/domain/server-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { serverStateReason } from '../../shared/domain/server-state-reasons';
import type { HostMessage } from '../../shared/domain/host-message';
import { personSignsIn } from '../../shared/domain/server';
import { serverReason } from '../../shared/domain/server-state-read';
import type { LogLevel, ServerCommon, ServerConfig, ServerPhase, ServerState } from '../../shared/domain/server';
import { errorMessage } from '../../shared/error-message';
import { ServerStartError } from '../../shared/domain/server-start-error';
import { formatSeconds } from '../format-seconds';
import { afterCrash, type CrashOutcome } from './backoff';
import { classifyConfigChange } from './config-change';
import { SessionLostError } from './connection-errors';
import type { CallToolOptions, OpenConnection, SupervisedConnection } from './connection-options';
import { ConnectionScope, type Disposable } from './connection-scope';
import type { EraCache } from './era-cache';
import { maskState } from './mask-state';
import { plainLaunch, type ServerLaunch } from './server-launch';
import { authAfterChange, signedInAuth } from './sign-in-state';
import type { SupervisorOptions } from './supervisor-options';

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

/** What `send` needs to know about a request. */
interface ConnectionRequest extends Pick<ServerRequest, 'action' | 'signal'> {
  /** How long to wait for a reconnect; each send has its own timeout too. */
  timeoutMs: number;
}

/** What every supervised server shares with the others: the supervisor's options and services. */
export interface SupervisedServerContext {
  options: SupervisorOptions;
  eraCache: EraCache;
  env: NodeJS.ProcessEnv;
  clientVersion: string;
  stableAfterMs: number;
  openConnection: OpenConnection;
  /** The host is shutting down: nothing starts any more, and a crash is not restarted. */
  shuttingDown(): boolean;
}

/**
 * One configured server and everything going on with it: its config and
 * state, the queue its operations run in one after another (start, stop,
 * config changes), its live connection with what was registered for it, the
 * restart after a crash, and the requests the host sends it (which survive a
 * lost HTTP session). The supervisor holds one per name.
 */
export class SupervisedServer {
  private config: ServerConfig;
  /** The state is these two: what holds in any status, and the status with what belongs to it. */
  private common: ServerCommon;
  private phase: ServerPhase = { status: 'stopped' };
  private connection: SupervisedConnection | undefined;
  /** What was registered for `connection` (its listeners, the stable-run timer); closed when the server lets go of it. */
  private scope: ConnectionScope | undefined;
  /** Operations on this server run one after another. */
  private queue: Promise<unknown> = Promise.resolve();
  private startAbort: AbortController | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Resets the restart counter once the connection has stayed ready long enough (lives in `scope`). */
  private stableTimer: Disposable | undefined;
  private removed = false;
  /** The person stopped this server: config syncs must not start it again behind their back (only a start/restart clears this). */
  private heldByPerson = false;
  /** Called after every state change (requests waiting for a reconnect look at the state). */
  private readonly watchers = new Set<() => void>();

  /** A server just configured: stopped, nothing running (`report` tells it, once the supervisor holds it). */
  constructor(
    readonly name: string,
    config: ServerConfig,
    private readonly context: SupervisedServerContext,
  ) {
    this.config = config;
    this.common = { name, config, restartCount: 0, ...(config.logLevel ? { logLevel: config.logLevel } : {}) };
  }

  /** Reports the state as it is now: a listener that asks the supervisor about this server then finds it. */
  report(): void {
    this.emit();
  }

  /** The whole state, secrets not masked (only for this class). */
  private get current(): ServerState {
    return { ...this.common, ...this.phase } as ServerState;
  }

  /** The state as it may be shown: secrets masked. */
  get state(): ServerState {
    return maskState(this.current);
  }

  /**
   * Reconcile with the config's entry for this server: a change that needs a
   * new process restarts it (if it runs), a live one is applied as it runs;
   * then it is started or stopped as `enabled` says (unless the person
   * stopped it).
   */
  syncConfig(config: ServerConfig): Promise<unknown> {
    const change = classifyConfigChange(this.config, config);
    if (change === 'restart') {
      // Whatever it was doing, the old config is stale: stop it, then start
      // the new one if enabled (a changed config may well fix an error).
      this.cancelPending();
      return this.enqueue(async () => {
        const stoppedFor = this.phase.status === 'stopped' ? this.phase : undefined;
        await this.doStop(
          stoppedFor?.reason
            ? { text: stoppedFor.reason, hostMessage: stoppedFor.reasonMessage }
            : serverStateReason('server-state.config-changed', {}),
        );
        const levelChanged = config.logLevel !== this.config.logLevel;
        // A sign-in belongs to the URL: for a new one, nothing is known until it is tried.
        const authStale = config.url !== this.config.url;
        this.config = config;
        this.update({
          config,
          ...(levelChanged ? { logLevel: config.logLevel } : {}),
          ...(authStale ? { auth: undefined } : {}),
        });
        if (config.enabled && !this.heldByPerson) await this.doStart(true);
      });
    }
    const work: Promise<unknown>[] = [];
    if (change === 'live') work.push(this.adoptLiveChange(config));
    if (config.enabled && this.phase.status === 'stopped' && !this.heldByPerson) {
      work.push(this.enqueue(() => this.doStart(true)));
    } else if (!config.enabled && this.phase.status !== 'stopped') {
      work.push(this.stopNow());
    }
    return Promise.all(work);
  }

  /** Resolves when ready OR failed (the state tells which). */
  start(): Promise<ServerState> {
    this.heldByPerson = false;
    return this.enqueue(async () => {
      await this.doStart(true);
      return this.state;
    });
  }

  /** A stop the person asked for: later config syncs leave the server stopped. Resolves when the whole tree is gone. */
  stop(): Promise<ServerState> {
    this.heldByPerson = true;
    return this.stopNow();
  }

  restart(): Promise<ServerState> {
    this.heldByPerson = false;
    this.cancelPending();
    return this.enqueue(async () => {
      await this.doStop(serverStateReason('server-state.restarting', {}));
      await this.doStart(true);
      return this.state;
    });
  }

  /** Stop for good; `forget` runs once it is stopped, still in its queue (the supervisor drops it there). */
  remove(forget: () => Promise<void>): Promise<void> {
    this.cancelPending();
    return this.enqueue(async () => {
      this.removed = true;
      await this.doStop(serverStateReason('server-state.removed', {}));
      await forget();
    });
  }

  /** The host is shutting down: the server stops, whatever it was doing. */
  shutDown(): Promise<void> {
    this.cancelPending();
    return this.enqueue(() => this.doStop(serverStateReason('server-state.host-shut-down', {})));
  }

  /**
   * The person chose a level: a ready server gets it now (failures are
   * thrown), any other is started with it next time. The caller stores it in
   * the config, so the next sync finds nothing to change.
   */
  setLogLevel(level: LogLevel): Promise<ServerState> {
    return this.enqueue(async () => {
      const connection = this.phase.status === 'ready' ? this.connection : undefined;
      // Recorded even if the server refuses it now: it is still what the next start asks for.
      this.config = { ...this.config, logLevel: level };
      this.update({ config: this.config, logLevel: level });
      if (connection !== undefined) await connection.setLogLevel(level);
      return this.state;
    });
  }

  /**
   * The server's stored OAuth tokens changed (a sign-in finished, or the
   * person signed out): the state's `auth` is read again now, without
   * waiting for a start, so a stopped server shows it too.
   */
  async signInChanged(): Promise<ServerState> {
    // Only a person's sign-in has a state (and a no-person grant's stored config holds references, not the key its provider reads).
    const provider = personSignsIn(this.config)
      ? this.context.options.authProviderFor?.(this.name, this.config)
      : undefined;
    const auth = await authAfterChange(provider, this.common.auth);
    if (!this.removed) this.update({ auth });
    return this.state;
  }

  callTool(tool: string, args: Record<string, unknown>, options: CallToolOptions | undefined): Promise<CallToolResult> {
    const request = {
      action: `call tool '${tool}'`,
      timeoutMs: options?.timeoutMs ?? this.config.timeouts.requestMs,
      signal: options?.signal,
    };
    return this.send(request, (connection) => connection.callTool(tool, args, options));
  }

  /** `send` on the server's client, with its request timeout; failures in words, a lost HTTP session survived (see `send`). */
  request<T>(request: ServerRequest, send: (client: Client, timeoutMs: number) => Promise<T>): Promise<T> {
    const { method, what, signal } = request;
    const timeoutMs = this.config.timeouts.requestMs;
    return this.send({ ...request, timeoutMs }, (connection) =>
      connection.request(method, what, timeoutMs, signal, (client) => send(client, timeoutMs)),
    );
  }

  /** Whether `client` belongs to the live connection: a late message from a replaced one does not. */
  isCurrentClient(client: Client): boolean {
    return this.connection !== undefined && this.connection.client === client;
  }

  /** `notifications/roots/list_changed` when ready; undefined (nothing sent) otherwise: it asks when it starts. */
  notifyRootsChanged(): Promise<void> | undefined {
    if (this.phase.status !== 'ready' || this.connection === undefined) return undefined;
    return this.connection.client.sendRootsListChanged();
  }

  /** Runs `operation` after the server's earlier operations have settled (whether they failed or not). */
  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private stopNow(): Promise<ServerState> {
    this.cancelPending();
    return this.enqueue(async () => {
      await this.doStop(serverStateReason('server-state.stopped', {}));
      return this.state;
    });
  }

  /**
   * The config's level changed and nothing else did (an edit of the file or
   * the form): applied live instead of restarting. Nobody waits for this, so
   * a server that refuses the level gets a warning in its log.
   */
  private adoptLiveChange(config: ServerConfig): Promise<void> {
    return this.enqueue(async () => {
      if (this.removed) return;
      const level = config.logLevel;
      const connection = this.phase.status === 'ready' && level !== this.config.logLevel ? this.connection : undefined;
      this.config = config;
      this.update({ config, logLevel: level });
      if (connection === undefined) return;
      if (level === undefined) {
        connection.forgetLogLevel();
        return;
      }
      try {
        await connection.setLogLevel(level);
      } catch (error) {
        this.hostLog('warning', `could not apply log level ${level} from the config: ${errorMessage(error)}`);
      }
    });
  }

  /** Abort a start in progress and any timer, so a stop does not wait behind them. */
  private cancelPending(): void {
    this.startAbort?.abort();
    this.clearTimers();
  }

  private clearTimers(): void {
    clearTimeout(this.restartTimer);
    this.stableTimer?.dispose();
    this.restartTimer = undefined;
    this.stableTimer = undefined;
  }

  private async doStart(manual: boolean): Promise<void> {
    if (this.removed || this.context.shuttingDown()) return;
    if (this.connection !== undefined && this.phase.status === 'ready') return;
    this.clearTimers();
    const abort = new AbortController();
    this.startAbort = abort;
    this.update(manual ? { restartCount: 0 } : {}, { status: 'starting' });
    const { options } = this.context;
    let connection: SupervisedConnection;
    let launch: ServerLaunch | undefined;
    let authProvider: OAuthClientProvider | undefined;
    try {
      launch =
        options.prepareLaunch === undefined
          ? plainLaunch(this.config, this.context.env)
          : await options.prepareLaunch(this.name, this.config);
      connection = await this.context.openConnection({
        name: this.name,
        config: launch.config,
        hostEnv: launch.env,
        ...(launch.shownCommand === undefined ? {} : { shownCommand: launch.shownCommand }),
        ...(launch.wrapper === undefined ? {} : { wrapper: launch.wrapper }),
        logs: options.logs,
        eraCache: this.context.eraCache,
        clientVersion: this.context.clientVersion,
        logLevel: this.common.logLevel,
        signal: abort.signal,
        authProvider: (authProvider = options.authProviderFor?.(this.name, launch.config)),
        onSpawn: (pid) => {
          if (this.startAbort === abort && this.phase.status === 'starting')
            this.update({}, { status: 'starting', pid });
        },
        ...(options.clientSetup !== undefined ? { clientSetup: options.clientSetup } : {}),
      });
    } catch (error) {
      if (this.startAbort === abort) this.startAbort = undefined;
      const started = error instanceof ServerStartError ? error : new ServerStartError(String(error), 'protocol');
      const failure = launch === undefined ? started : launch.explain(started);
      if (failure.kind === 'cancelled') return;
      const why = { text: failure.message, hostMessage: failure.wording };
      if (failure.kind === 'exited' || failure.kind === 'spawn' || failure.kind === 'unreachable') this.crashed(why);
      // Still an error (nothing runs), but one the person fixes by signing in: the UI says so instead of "Error".
      else if (failure.kind === 'sign-in')
        this.update({ auth: { state: 'needs-sign-in' } }, { status: 'error', ...stateReason(why) });
      else this.update({}, { status: 'error', ...stateReason(why) });
      return;
    }
    // Read before the checks below: they must see what happened while it was read.
    const auth = await signedInAuth(authProvider);
    this.startAbort = undefined;
    if (abort.signal.aborted || this.removed) {
      await connection.close();
      return;
    }
    if (connection.lostReason !== undefined) {
      // It went away between its handshake and this line: a crash like any other.
      this.crashed({ text: connection.lostReason, hostMessage: connection.lostMessage });
      return;
    }
    this.adoptConnection(connection);
    // Ready without stored tokens: this server wants no sign-in (any longer).
    this.update({ auth }, { ...connection.facts(), status: 'ready', readySince: Date.now() });
  }

  /**
   * The live connection from now on. What is registered for it (its
   * listeners and the stable-run timer) lives in one scope that
   * `releaseConnection` closes: once the server has let go, nothing the old
   * connection tells reaches it, so no handler has to check that its
   * connection is still the current one.
   */
  private adoptConnection(connection: SupervisedConnection): void {
    const scope = new ConnectionScope();
    this.connection = connection;
    this.scope = scope;
    scope.add(
      connection.on('listChanged', (kind) => {
        if (kind === 'tools' && this.phase.status === 'ready')
          this.update({}, { ...this.phase, tools: connection.tools });
        this.context.options.onListChanged?.(this.name, kind);
      }),
    );
    scope.add(
      connection.on('lost', (reason, message) => {
        // A lost connection closes itself.
        this.releaseConnection();
        this.crashed({ text: reason, hostMessage: message });
      }),
    );
    this.stableTimer = scope.timeout(this.context.stableAfterMs, () => {
      this.stableTimer = undefined;
      if (this.common.restartCount !== 0) this.update({ restartCount: 0 });
    });
  }

  /** No live connection any more, and its scope is closed. Returns the connection, for the caller to close. */
  private releaseConnection(): SupervisedConnection | undefined {
    const connection = this.connection;
    this.connection = undefined;
    this.scope?.dispose();
    this.scope = undefined;
    return connection;
  }

  private async doStop(why: StateReason): Promise<void> {
    this.clearTimers();
    const connection = this.releaseConnection();
    if (connection !== undefined) await connection.close();
    const wasStopped = this.phase.status === 'stopped' && connection === undefined;
    if (!wasStopped || this.phase.reason !== why.text) this.update({}, { status: 'stopped', ...stateReason(why) });
  }

  /** Show the crash, then either schedule the next restart or give up. */
  private crashed(why: StateReason): void {
    const reason = why.text;
    this.clearTimers();
    // A server being removed, or a host shutting down, is not restarted.
    const ending = this.removed || this.context.shuttingDown();
    const outcome: CrashOutcome = ending
      ? { reason, gaveUp: false }
      : afterCrash(reason, this.common.restartCount, this.config.restart, this.context.options.jitter);
    // Shown as crashed first, so the UI (and the log of states) tells the truth.
    this.update({}, { status: 'crashed', ...stateReason(policyReason(outcome, why, this.common.restartCount)) });
    if (outcome.gaveUp) this.hostLog('error', outcome.reason);
    if (outcome.restart === undefined) return;
    const { attempt, delayMs } = outcome.restart;
    this.update(
      { restartCount: attempt },
      { status: 'restarting', ...stateReason(why), nextRestartAt: Date.now() + delayMs },
    );
    this.hostLog(
      'warning',
      `${reason}; restart ${attempt} of ${this.config.restart.maxRestarts} in ${formatSeconds(delayMs)}`,
    );
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.enqueue(async () => {
        if (this.phase.status === 'restarting') await this.doStart(false);
      }).catch((error: unknown) => {
        // doStart reports failures in the state; reaching here is a bug, and it must not vanish.
        this.hostLog('error', `automatic restart failed: ${errorMessage(error)}`);
      });
    }, delayMs);
  }

  /** Changes what holds in any status and, when given, enters `phase` (which replaces all of the old one). */
  private update(patch: Partial<ServerCommon>, phase: ServerPhase = this.phase): void {
    this.common = withoutUndefined({ ...this.common, ...patch });
    this.phase = withoutUndefined(phase);
    this.emit();
    for (const watch of [...this.watchers]) watch();
  }

  private emit(): void {
    if (this.removed && this.phase.status !== 'stopped') return;
    try {
      this.context.options.onState(maskState(this.current));
    } catch (error) {
      this.hostLog('error', `state listener failed: ${errorMessage(error)}`);
    }
  }

  /** A line from Berth in the server's log. */
  private hostLog(level: 'warning' | 'error', text: string): void {
    this.context.options.logs.append({ server: this.name, time: Date.now(), source: 'host', level, text });
  }

  /**
   * Every request the host sends to the server goes through here (tools,
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
  private async send<T>(
    request: ConnectionRequest,
    send: (connection: SupervisedConnection) => Promise<T>,
  ): Promise<T> {
    const { timeoutMs, signal } = request;
    if (this.config.url !== undefined && (this.phase.status === 'starting' || this.phase.status === 'restarting')) {
      await this.waitForReconnect(timeoutMs, { name: this.name, subject: '', cause: 'reconnecting' }, signal);
    }
    try {
      return await send(this.readyConnection(request.action));
    } catch (error) {
      if (!(error instanceof SessionLostError) || signal?.aborted === true) throw error;
      await this.waitForReconnect(
        timeoutMs,
        { name: error.server, subject: error.subject, cause: 'session-lost' },
        signal,
      );
      return send(this.readyConnection(request.action));
    }
  }

  /** A lost session's request whose server did not come back: the state's reason (its code nested), else the status. */
  private notBack(lost: ReconnectWait): CodedText {
    const state = this.current;
    const reason = serverReason(state);
    if (reason === undefined)
      return serverError('server-errors.reconnect-failed-status', { ...lost, status: this.phase.status });
    const message = state.status === 'ready' || state.status === 'starting' ? undefined : state.reasonMessage;
    return serverError('server-errors.reconnect-failed', { ...lost, reason }, message);
  }

  /** The live connection, or NOT_READY saying what the server is doing instead. */
  private readyConnection(action: string): SupervisedConnection {
    const connection = this.connection;
    if (this.phase.status !== 'ready' || connection === undefined) {
      throw HostError.coded('NOT_READY', notReadyError(this.name, this.phase.status, action));
    }
    return connection;
  }

  /**
   * Resolves when the server is ready again; rejects, naming what was waiting
   * (`lost`), if it stops, fails for good or takes longer than `timeoutMs`,
   * and as cancelled if `signal` aborts meanwhile.
   */
  private waitForReconnect(timeoutMs: number, lost: ReconnectWait, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (failure?: Error): void => {
        clearTimeout(timer);
        this.watchers.delete(watch);
        signal?.removeEventListener('abort', onAbort);
        if (failure === undefined) resolve();
        else reject(failure);
      };
      const watch = (): void => {
        const { status } = this.phase;
        const fail = (): void => done(HostError.coded('SERVER_ERROR', this.notBack(lost)));
        if (status === 'ready' && this.connection !== undefined) done();
        else if (status === 'stopped' || status === 'error') fail();
        // 'crashed' is followed at once by 'restarting' unless the policy gave up.
        else if (status === 'crashed')
          queueMicrotask(() => {
            if (this.phase.status === 'crashed') fail();
          });
      };
      const onAbort = (): void =>
        done(HostError.coded('SERVER_ERROR', serverError('server-errors.reconnect-cancelled', lost)));
      const timer = setTimeout(
        () =>
          done(
            HostError.coded(
              'TIMEOUT',
              serverError('server-errors.reconnect-timeout', { ...lost, seconds: secondsOf(timeoutMs) }),
            ),
          ),
        timeoutMs,
      );
      this.watchers.add(watch);
      signal?.addEventListener('abort', onAbort);
      if (signal?.aborted === true) onAbort();
      else watch();
    });
  }
}

/** The same object without its undefined fields: a state carries a field or not, never one set to undefined. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as T;
}

/** A state's reason: its English, and its code when Berth has one. */
interface StateReason {
  text: string;
  hostMessage?: HostMessage | undefined;
}

/** The crashed state's reason: the crash's own, or the restart policy's words around it (restart off, gave up). */
function policyReason(outcome: CrashOutcome, why: StateReason, restartCount: number): StateReason {
  if (outcome.reason === why.text) return why;
  const words = outcome.gaveUp
    ? serverStateReason('server-state.gave-up', { restarts: restartCount, reason: why.text }, why.hostMessage)
    : serverStateReason('server-state.restart-off', { reason: why.text }, why.hostMessage);
  // The policy's English is what the log says; a wrapper this module does not know keeps it, uncoded.
  return words.text === outcome.reason ? words : { text: outcome.reason };
}

/** The reason fields of a state: `reason`, and `reasonMessage` only when coded. */
function stateReason(why: StateReason): { reason: string; reasonMessage?: HostMessage } {
  return why.hostMessage === undefined ? { reason: why.text } : { reason: why.text, reasonMessage: why.hostMessage };
}
