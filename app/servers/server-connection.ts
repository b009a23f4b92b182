import { HostError } from '../../shared/result';
import { secondsOf, serverError } from '../../shared/domain/server-errors';
import { isSpecType } from '@modelcontextprotocol/client';
import type { CallToolResult, DiscoverResult, JSONRPCMessage, PriorDiscovery } from '@modelcontextprotocol/client';
import type { LogLevel, ProtocolEra, ToolInfo, TransportKind } from '../../shared/domain/server';
import type { HostMessage } from '../../shared/domain/host-message';
import { formatSeconds } from '../format-seconds';
import { BerthClient, acceptResultsWithoutType, listAllTools } from './berth-client';
import { DeclaredCapabilities } from './declared-capabilities';
import { closedReason, lostReason, messageOrInvalidResult, requestFailure, startFailure } from './connection-errors';
import type { FailureContext } from './connection-errors';
import { Listeners } from './connection-scope';
import type { Disposable } from './connection-scope';
import { createConnectionTransport, initialTransportKind, transportName } from './connection-transport';
import type { ConnectionTransport } from './connection-transport';
import type {
  CallToolOptions,
  ConnectionEvents,
  ConnectionFacts,
  ServerConnectionOptions,
  SupervisedConnection,
} from './connection-options';
import { describeHttpError, suggestsLegacySse } from './http-transport';
import { LinkWatch } from './link-watch';
import { followListChanges } from './list-changes';
import type { ListKind } from './list-changes';
import { describeExit } from './process-stdio-options';
import type { ExitInfo } from './process-stdio-options';
import { withPausableTimeout } from './pausable-timeout';
import { ServerLog, secretValues } from './server-log';
import { LateProgress } from './late-progress';
import { ServerStartError, startFailureWords } from '../../shared/domain/server-start-error';
import type { StartStage } from '../../shared/domain/server-start-error';
import { EraProbeClock, PROBE_QUIET_MS } from './era-probe-clock';
import { twinDefinition } from './tool-twin-definition';
import { toolTwinChange, toolTwinNote } from './tool-twin-notes';

export { SessionLostError } from './connection-errors';
export type {
  CallToolOptions,
  ConnectionEvents,
  ConnectionFacts,
  OpenConnection,
  ServerConnectionOptions,
  SupervisedConnection,
} from './connection-options';

/** Remote servers: how long the `server/discover` probe may stay unanswered (stdio: EraProbeClock decides). */
const HTTP_PROBE_TIMEOUT_MS = 10_000;
/** After a failed answer, how long a stdio server's last stderr lines get to arrive before the failure is put in words. */
const STDERR_CATCH_UP_MS = 100;

/**
 * One live MCP connection to one server, a local process (stdio) or a remote
 * endpoint (Streamable HTTP or legacy HTTP+SSE): start, era negotiation
 * (remembered between runs), handshake, tool list, logging, and the way the
 * link ends. A new process or session means a new ServerConnection.
 */
export class ServerConnection implements SupervisedConnection {
  readonly client: BerthClient;
  private readonly listeners = new Listeners<ConnectionEvents>();
  private readonly transport: ConnectionTransport;
  private readonly log: ServerLog;
  private toolList: ToolInfo[] = [];
  private ready = false;
  private closing = false;
  private sentInitialize = false;
  private readonly watch: LinkWatch;
  private readonly lateProgress = new LateProgress();
  /** The SDK's connect returned; with a remembered modern era that took no round trip. */
  private connected = false;
  /** Something came from the server: with `connected`, the handshake is behind. */
  private heard = false;
  /** The capabilities as the server sent them (the SDK drops keys it does not know). */
  private readonly declared = new DeclaredCapabilities();
  /** stdio, while this start probes the era. */
  private probeClock: EraProbeClock | undefined;
  /** The probe Berth stopped waiting for, and the DiscoverResult if the server answered it after all. */
  private abandonedProbe: string | number | undefined;
  private lateDiscover: DiscoverResult | undefined;

  private constructor(
    private readonly options: ServerConnectionOptions,
    kind: TransportKind,
  ) {
    const { config } = options;
    this.log = new ServerLog(options.logs, options.name, secretValues(config));
    this.transport = (options.createTransport ?? createConnectionTransport)({
      config,
      kind,
      env: options.wrapper?.env ?? { ...options.hostEnv, ...config.env },
      ...(options.wrapper === undefined ? {} : { fd3Input: options.wrapper.input }),
      headers: config.headers,
      ...(options.shownCommand === undefined ? {} : { description: options.shownCommand }),
      ...(options.authProvider === undefined ? {} : { authProvider: options.authProvider }),
      hooks: {
        onTrace: (direction, message, bytes, raw) => {
          if (direction === 'out' && 'method' in message && message.method === 'initialize') this.sentInitialize = true;
          if (direction === 'in') this.heard = true;
          if (this.declared.seen(direction, message) === 'too-large')
            this.log.host(
              'warning',
              'the server declared capabilities of over 64 KB: only those the SDK knows are kept',
            );
          this.watchProbe(direction, message);
          if (direction === 'out') this.lateProgress.sent(message);
          this.log.trace(direction, message, bytes, raw);
        },
        onHostLog: (level, text) => this.log.host(level, text),
        onStderrLine: (line) => {
          this.probeClock?.output(line);
          this.log.stderr(line);
        },
        onSpawn: (pid) => {
          this.log.host('info', `spawned pid ${pid}: ${this.transport.description}`);
          options.onSpawn?.(pid);
        },
        onExit: (info) => this.onProcessExit(info),
      },
    });
    if (kind !== 'stdio') this.log.host('info', `connecting to ${this.transport.description}`);
    this.client = new BerthClient(
      { name: 'Berth', version: options.clientVersion },
      {
        // Berth declares only what it implements: the host adds each capability
        // together with its handler through `clientSetup`.
        capabilities: {},
        // stdio: no SDK limit of its own (it would count from the spawn, and call a timeout legacy); the probe
        // gets the handshake's time and EraProbeClock ends it. Remote: a timeout is an error, never a verdict.
        versionNegotiation: { mode: 'auto', probe: kind === 'stdio' ? {} : { timeoutMs: HTTP_PROBE_TIMEOUT_MS } },
        // No `listChanged`: connectAndList follows list changes (list-changes.ts says why).
      },
    );
    this.watch = new LinkWatch({
      live: () => this.ready && !this.closing,
      ping: () => this.client.ping({ timeout: Math.min(10_000, options.config.timeouts.requestMs) }),
      lostReason: (error) => lostReason(error, this.failureContext()),
      closedReason: () => closedReason(this.failureContext()),
      log: (level, text) => this.log.host(level, text),
      lost: (reason, message) => this.listeners.emit('lost', reason, message),
      close: () => this.close(),
    });
    this.client.requestLogLevel = options.logLevel;
    this.client.setNotificationHandler('notifications/message', (notification) =>
      this.log.notification(notification.params),
    );
    this.client.onerror = (error) => this.onTransportError(error);
    this.client.onclose = () => this.watch.closed();
    options.clientSetup?.(options.name, this.client);
  }

  /**
   * Start the server and finish the MCP handshake within `startupMs`: with the
   * remembered era if there is one (cleared and renegotiated once if it fails),
   * otherwise probing in place; a server that exits on the probe is retried
   * once on a fresh process with a plain `initialize`.
   */
  static async open(options: ServerConnectionOptions): Promise<ServerConnection> {
    const { name, config, eraCache } = options;
    const deadline = Date.now() + config.timeouts.startupMs;
    const kind = initialTransportKind(config);
    try {
      return await ServerConnection.negotiate(options, kind, deadline);
    } catch (error) {
      // The spec's backwards compatibility: an old HTTP+SSE server answers a 4xx to the Streamable HTTP POST.
      if (!(
        kind === 'streamable-http' &&
        config.type === undefined &&
        error instanceof ServerStartError &&
        suggestsLegacySse(error.cause)
      ))
        throw error;
      const http = describeHttpError(error.cause) ?? 'an HTTP error';
      options.logs.append({
        server: name,
        time: Date.now(),
        source: 'host',
        level: 'info',
        text: `Streamable HTTP was refused (${http}); trying the legacy HTTP+SSE transport`,
      });
      await eraCache.forget(name);
      return ServerConnection.negotiate(options, 'sse', deadline);
    }
  }

  /** {@linkcode open} over one transport kind. */
  private static async negotiate(
    options: ServerConnectionOptions,
    kind: TransportKind,
    deadline: number,
  ): Promise<ServerConnection> {
    const { name, config, eraCache } = options;
    const prior = await eraCache.get(name, config);
    if (prior !== undefined) {
      const connection = new ServerConnection(options, kind);
      try {
        await connection.handshake(prior, deadline);
        return connection;
      } catch (error) {
        const failure = error as ServerStartError;
        if (failure.kind === 'config' || failure.kind === 'cancelled') throw failure;
        // A server that dies on `initialize` after a legacy verdict is broken,
        // not upgraded: renegotiating would only spawn it twice more.
        if (failure.kind === 'exited' && prior.kind === 'legacy') throw failure;
        await eraCache.forget(name);
        // No time left to renegotiate; the next start will, as the verdict is gone.
        if (failure.kind === 'timeout') throw failure;
        connection.log.host(
          'warning',
          `remembered ${prior.kind} era did not work (${failure.message}); negotiating again`,
        );
      }
    }
    const connection = new ServerConnection(options, kind);
    try {
      await connection.handshake(undefined, deadline);
      return connection;
    } catch (error) {
      const failure = error as ServerStartError;
      if (failure.kind !== 'exited' || connection.sentInitialize) throw failure;
      connection.log.host(
        'info',
        'exited during the server/discover probe; retrying with initialize on a fresh process',
      );
    }
    const retry = new ServerConnection(options, kind);
    await retry.handshake({ kind: 'legacy' }, deadline, true);
    return retry;
  }

  /** Listen to what the connection tells (ConnectionEvents) until the returned Disposable is disposed. */
  on<E extends keyof ConnectionEvents>(event: E, listener: ConnectionEvents[E]): Disposable {
    return this.listeners.on(event, listener);
  }

  /** Why the server went away by itself after it was ready; undefined while it runs. */
  get lostReason(): string | undefined {
    return this.watch.lost?.text;
  }

  get lostMessage(): HostMessage | undefined {
    return this.watch.lost?.hostMessage;
  }

  get pid(): number | undefined {
    return this.transport.pid ?? undefined;
  }

  get exitInfo(): ExitInfo | undefined {
    return this.transport.exitInfo;
  }

  get tools(): ToolInfo[] {
    return this.toolList;
  }

  get era(): ProtocolEra | undefined {
    return this.client.getProtocolEra();
  }

  /** Everything about the live connection that the UI shows. */
  facts(): ConnectionFacts {
    const serverInfo = this.client.getServerVersion();
    const instructions = this.client.getInstructions();
    return {
      pid: this.pid,
      protocolVersion: this.client.getNegotiatedProtocolVersion(),
      era: this.era,
      serverInfo:
        serverInfo === undefined
          ? undefined
          : {
              name: serverInfo.name,
              version: serverInfo.version,
              ...(serverInfo.title !== undefined ? { title: serverInfo.title } : {}),
            },
      capabilities: this.declared.over(this.client.getServerCapabilities() as Record<string, unknown> | undefined),
      instructions,
      tools: this.toolList,
      transport: this.transport.kind,
    };
  }

  /**
   * A tool call on Berth's pausable clock (withPausableTimeout): the time the person takes to answer its questions
   * does not count. `tool` is Berth's name for it: a renamed twin goes out under the name the server listed.
   */
  callTool(tool: string, args: Record<string, unknown>, options: CallToolOptions = {}): Promise<CallToolResult> {
    const timeoutMs = options.timeoutMs ?? this.options.config.timeouts.requestMs;
    const maxTotalMs = options.maxTotalMs ?? this.options.config.timeouts.maxTotalMs;
    const definition = twinDefinition(this.toolList, tool);
    const name = definition?.name ?? tool;
    return this.request('tools/call', `tool '${tool}'`, timeoutMs, options.signal, (client) =>
      withPausableTimeout({ ...options, timeoutMs, maxTotalMs }, (sdk) =>
        client.callTool(
          { name, arguments: args },
          definition === undefined ? sdk : { ...sdk, toolDefinition: definition },
        ),
      ),
    );
  }

  /** One request: a failure comes back in words, and a remote link found gone is reported lost (SessionLostError: the server never saw it). */
  async request<T>(
    method: string,
    what: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    send: (client: BerthClient) => Promise<T>,
  ): Promise<T> {
    // Sent at once (not a tick later): a caller that cancels right after must find it on its way. A synchronous throw is a rejection too.
    let sent: Promise<T>;
    try {
      sent = send(this.client);
    } catch (error) {
      sent = Promise.reject(error as Error);
    }
    try {
      return await this.watch.track(sent);
    } catch (error) {
      throw error instanceof HostError ? error : this.requestError(method, what, timeoutMs, error, signal);
    }
  }

  /** Legacy era: `logging/setLevel`. Modern era: the level rides in every request's `_meta`. */
  async setLogLevel(level: LogLevel): Promise<void> {
    if (this.client.getServerCapabilities()?.logging === undefined) {
      throw HostError.coded('SERVER_ERROR', serverError('server-errors.no-logging', { name: this.options.name }));
    }
    if (this.era === 'modern') {
      this.client.requestLogLevel = level;
      this.log.host(
        'info',
        `log level ${level} (sent in each request's _meta: the 2026-07-28 era has no logging/setLevel)`,
      );
      return;
    }
    const timeoutMs = this.options.config.timeouts.requestMs;
    await this.request('logging/setLevel', `level '${level}'`, timeoutMs, undefined, (client) =>
      client.setLoggingLevel(level, { timeout: timeoutMs }),
    );
    this.client.requestLogLevel = level;
    this.log.host('info', `log level ${level}`);
  }

  /**
   * The person went back to the server's own default. Modern era: requests
   * stop carrying a level. Legacy era: logging/setLevel cannot unset a level,
   * so the server keeps the last one until it restarts.
   */
  forgetLogLevel(): void {
    this.client.requestLogLevel = undefined;
    if (this.era === 'modern') this.log.host('info', 'log level: server default (no longer sent in _meta)');
    else
      this.log.host(
        'info',
        'log level: server default from the next start (logging/setLevel cannot unset a level, so the current one stays until then)',
      );
  }

  /** MCP shutdown: the process tree is gone, or the HTTP session ended; resolves when it is. */
  async close(): Promise<void> {
    const reachable = !this.closing && this.watch.lost === undefined;
    this.closing = true;
    if (reachable) await this.transport.endSession();
    try {
      await this.client.close();
    } catch (error) {
      this.log.host('debug', `client close: ${messageOrInvalidResult(error)}`);
    }
    await this.transport.close();
  }

  private async handshake(
    prior: PriorDiscovery | undefined,
    deadline: number,
    concludesNegotiation = prior === undefined,
  ): Promise<void> {
    const { config, signal } = this.options;
    if (signal?.aborted) throw new ServerStartError('start was cancelled', 'cancelled');
    const remaining = Math.max(0, deadline - Date.now());
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const interrupted = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.timeoutFailure()), remaining);
      onAbort = () => reject(new ServerStartError('start was cancelled', 'cancelled'));
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort);
    });
    if (prior === undefined && this.transport.kind === 'stdio')
      this.probeClock = new EraProbeClock({
        quietMs: this.options.probeQuietMs ?? PROBE_QUIET_MS,
        startupMs: remaining,
        giveUp: (id, waitedMs) => this.giveUpProbe(id, waitedMs),
      });
    try {
      await Promise.race([this.connectAndList(prior, remaining), interrupted]);
    } catch (error) {
      // stdout and stderr are two pipes: the line a server wrote just before its error answer may come a moment later.
      if (this.transport.kind === 'stdio' && !(error instanceof ServerStartError))
        await new Promise((resolve) => setTimeout(resolve, STDERR_CATCH_UP_MS));
      // Classify before close(): our own kill must not read as the server exiting.
      const failure = startFailure(error, this.failureContext());
      await this.close();
      throw failure;
    } finally {
      clearTimeout(timer);
      this.probeClock?.stop();
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    }
    if (this.transport.exitInfo !== undefined) {
      // It died in the instant between the last answer and now.
      const failure = startFailure(new Error('the server exited'), this.failureContext());
      await this.close();
      throw failure;
    }
    this.ready = true;
    const era = this.era;
    // Only the server's answer tells its era: a probe Berth gave up on says nothing about the next start.
    const unanswered = this.probeClock?.timedOut === true;
    const discover = unanswered ? this.lateDiscover : this.client.getDiscoverResult();
    if (concludesNegotiation && era !== undefined && (!unanswered || discover !== undefined)) {
      if (unanswered)
        this.log.host(
          'info',
          'the server answered server/discover late: its 2026-07-28 era is used from the next start',
        );
      // Not waited for: the write (two fsyncs) only saves a probe on the next start, and fifty servers
      // ready together waited for it. Failures are logged by the cache; the supervisor flushes it at shutdown.
      void this.options.eraCache.remember(
        this.options.name,
        config,
        discover !== undefined && (era === 'modern' || unanswered) ? { kind: 'modern', discover } : { kind: 'legacy' },
      );
    }
    const via = prior === undefined ? '' : prior.kind === 'legacy' && concludesNegotiation ? '' : ', remembered era';
    const over = this.transport.kind === 'stdio' ? '' : ` over ${transportName(this.transport.kind)}`;
    this.log.host(
      'info',
      `ready${over}: protocol ${this.client.getNegotiatedProtocolVersion() ?? 'unknown'} (${era ?? 'unknown'} era${via}), ${this.toolList.length} tools`,
    );
  }

  private async connectAndList(prior: PriorDiscovery | undefined, remaining: number): Promise<void> {
    // The SDK's own timeout is set past ours so the person sees our wording.
    await this.client.connect(this.transport.sdk, { prior, timeout: remaining + 1_000 });
    this.connected = true;
    if (this.era === 'modern')
      acceptResultsWithoutType(this.transport.sdk, () =>
        this.log.host('info', 'the server sent a result without resultType; read as "complete" as SEP-2322 says'),
      );
    const level = this.options.logLevel;
    const capabilities = this.client.getServerCapabilities();
    // Before tools/list, so a 2026-07-28 subscription goes out first; not waited for (list-changes.ts).
    followListChanges(this.client, {
      timeoutMs: remaining + 1_000,
      changed: (kind) => this.listChanged(kind),
      unfollowed: (why) => !this.closing && this.log.host('warning', this.log.redact(why)),
    });
    if (level !== undefined && this.era === 'legacy' && capabilities?.logging !== undefined) {
      try {
        await this.client.setLoggingLevel(level, { timeout: remaining + 1_000 });
      } catch (error) {
        this.log.host('warning', `could not set log level ${level}: ${messageOrInvalidResult(error)}`);
      }
    }
    if (capabilities?.tools !== undefined) {
      const { tools, skipped } = await listAllTools(this.client, remaining + 1_000);
      this.toolList = tools;
      const twins = toolTwinNote(tools);
      if (twins !== undefined) this.log.host('warning', this.log.redact(twins));
      if (skipped.length > 0)
        this.log.host(
          'warning',
          `left out ${skipped.length} tool${skipped.length === 1 ? '' : 's'} that ${skipped.length === 1 ? 'is' : 'are'} not valid MCP: ${this.log.redact(skipped.join(' · '))}`,
        );
    }
  }

  /** A failed request in words; a remote link that is gone for good is reported lost first. */
  private requestError(
    method: string,
    what: string,
    timeoutMs: number,
    error: unknown,
    signal?: AbortSignal,
  ): HostError {
    const context = this.failureContext();
    const failure = requestFailure(method, what, timeoutMs, error, signal, context);
    const lost = context.closing ? undefined : lostReason(error, context);
    if (lost !== undefined) this.watch.markLost(lost);
    return failure;
  }

  /** What the start is doing, for the words of its failure: the tool listing once the server has answered. */
  private get stage(): StartStage {
    return this.connected && this.heard ? 'tools' : 'handshake';
  }

  /** The start took all its time: at which stage, and what the server last said was wrong. */
  private timeoutFailure(): ServerStartError {
    const serverLine = this.log.lastErrorLine();
    const words = startFailureWords({
      code: 'timeout',
      seconds: secondsOf(this.options.config.timeouts.startupMs),
      stage: this.stage,
      ...(serverLine === undefined ? {} : { serverLine }),
    });
    return new ServerStartError(words.text, 'timeout', undefined, undefined, words.hostMessage);
  }

  /** Feeds the era probe's clock: the probe going out, its answer, and any sign that the server runs. */
  private watchProbe(direction: 'in' | 'out', message: JSONRPCMessage): void {
    const clock = this.probeClock;
    if (clock === undefined) return;
    const id = 'id' in message ? message.id : undefined;
    if (direction === 'out') {
      if ('method' in message && message.method === 'server/discover' && id !== undefined) clock.sent(id);
      return;
    }
    if (!('method' in message) && id !== undefined) clock.answered(id);
    clock.output();
    if (id !== undefined && id === this.abandonedProbe && 'result' in message) {
      // The SDK checks a remembered DiscoverResult again before it adopts it (and Berth negotiates afresh if it fails).
      if (isSpecType.DiscoverResult(message.result)) this.lateDiscover = message.result;
    }
  }

  /**
   * No answer to the probe in time: it is ended as the SDK ends a silent
   * stdio probe (legacy fallback, `initialize` on this same process), with an
   * error answer Berth makes itself, since the SDK's own limit cannot be
   * started late. The trace keeps only what the server really sent.
   */
  private giveUpProbe(id: string | number, waitedMs: number): void {
    this.abandonedProbe = id;
    this.log.host(
      'info',
      `no answer to server/discover after ${formatSeconds(waitedMs)}; trying initialize on the same process (not remembered: the next start asks again)`,
    );
    this.transport.sdk.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: { code: -32001, message: `Berth stopped waiting for an answer to server/discover` },
    });
  }

  private failureContext(): FailureContext {
    return {
      name: this.options.name,
      stage: this.stage,
      transport: this.transport,
      url: this.options.config.url,
      closing: this.closing,
      redact: (text) => this.log.redact(text),
      lastStderrLine: () => this.log.lastStderrLine(),
      lastErrorLine: () => this.log.lastErrorLine(),
    };
  }

  /** Tools are re-read here first (every page, each tool checked on its own, like at start-up); other lists by whoever listens. */
  private listChanged(kind: ListKind): void {
    if (kind === 'tools') void this.refreshTools();
    else this.listeners.emit('listChanged', kind);
  }

  private async refreshTools(): Promise<void> {
    try {
      const { tools, skipped } = await listAllTools(this.client, this.options.config.timeouts.requestMs);
      const twins = toolTwinChange(this.toolList, tools);
      this.toolList = tools;
      const left =
        skipped.length === 0
          ? ''
          : `; left out ${skipped.length} that ${skipped.length === 1 ? 'is' : 'are'} not valid MCP: ${this.log.redact(skipped.join(' · '))}`;
      this.log.host(skipped.length === 0 ? 'info' : 'warning', `tool list changed: ${tools.length} tools${left}`);
      if (twins !== undefined) this.log.host('warning', this.log.redact(twins));
      this.listeners.emit('listChanged', 'tools');
    } catch (error) {
      if (!this.closing)
        this.log.host('warning', `could not refresh the tool list: ${this.log.redact(messageOrInvalidResult(error))}`);
    }
  }

  private onProcessExit(info: ExitInfo): void {
    const expected = this.closing;
    const level: LogLevel = expected || (info.code === 0 && info.signal === null) ? 'info' : 'error';
    this.log.host(level, `${expected ? 'stopped: ' : ''}exited with ${describeExit(info)}`);
  }

  /** Transport errors are not fatal by themselves; over HTTP the link watch checks whether it is still there. */
  private onTransportError(error: Error): void {
    const late = this.lateProgress.requestOf(error);
    if (late !== undefined) {
      this.log.host(
        'debug',
        `ignored a progress notification for request #${late}, which has already ended (cancelled or answered)`,
      );
      return;
    }
    const quiet = !this.ready || this.closing;
    this.log.host(
      quiet ? 'debug' : 'warning',
      `${this.transport.kind === 'stdio' ? 'protocol' : 'transport'}: ${this.log.redact(describeHttpError(error) ?? error.message)}`,
    );
    if (!quiet && this.transport.kind !== 'stdio') this.watch.checkAfterError();
  }
}
