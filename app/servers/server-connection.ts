import { Client, LOG_LEVEL_META_KEY, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { CallToolResult, PriorDiscovery, Tool } from '@modelcontextprotocol/client';
import { HostError } from '../../shared/result';
import type { LogLevel, ProtocolEra, ServerConfig, ServerState, ToolInfo } from '../../shared/domain/server';
import type { LogSink } from '../logs/log-sink';
import type { EraCache } from './era-cache';
import { ProcessStdioTransport, describeExit } from './process-stdio-transport';
import type { ExitInfo } from './process-stdio-transport';
import { ServerLog, secretValues } from './server-log';
import { describeInvalidResult } from './invalid-result';
import { ServerStartError } from './spawn-errors';

/** How long the `server/discover` probe may stay unanswered before the server counts as legacy. */
const PROBE_TIMEOUT_MS = 10_000;

/** What one connection needs from the supervisor. */
export interface ServerConnectionOptions {
  name: string;
  config: ServerConfig;
  /** The host's environment; the server's `env` is laid over it. */
  hostEnv: NodeJS.ProcessEnv;
  logs: LogSink;
  eraCache: EraCache;
  clientVersion: string;
  /** Requested log level, applied during startup. */
  logLevel?: LogLevel;
  /** Aborting cancels a start in progress (its process tree is killed). */
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  onToolsChanged?: (tools: ToolInfo[]) => void;
  /** The server said its prompt list changed (the listener re-reads it). */
  onPromptsChanged?: () => void;
  /** The server said its resource list changed. */
  onResourcesChanged?: () => void;
  /** The server went away on its own after it was ready. */
  onUnexpectedExit?: (reason: string) => void;
  /**
   * Called with each new SDK client before it connects: the host declares the
   * client capabilities it implements (sampling, elicitation…) and registers
   * their request handlers here. A start may build more than one client (era
   * probe retry); each one gets this call.
   */
  clientSetup?: (server: string, client: Client) => void;
}

/** Options for one tool call. */
export interface CallToolOptions {
  timeoutMs?: number;
  /** Upper bound for the whole call even while progress keeps resetting `timeoutMs`. */
  maxTotalMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * The SDK client with one addition: in the 2026-07-28 era there is no
 * `logging/setLevel`, the level travels in each request's `_meta`, so the
 * envelope the SDK attaches gets the requested level added.
 */
class BerthClient extends Client {
  requestLogLevel: LogLevel | undefined;

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (envelope === undefined || this.requestLogLevel === undefined) return envelope;
    return { ...envelope, [LOG_LEVEL_META_KEY]: this.requestLogLevel };
  }
}

function toToolInfo(tool: Tool): ToolInfo {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations as Record<string, unknown> } : {}),
  };
}

/** "30 s", "2.5 s". */
export function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function errorMessage(error: unknown): string {
  // A schema-invalid result arrives as a JSON dump of validator issues; say it in one line.
  return describeInvalidResult(error) ?? (error instanceof Error ? error.message : String(error));
}

/** The facts about a ready connection that end up in ServerState. */
export type ConnectionFacts = Pick<ServerState, 'pid' | 'protocolVersion' | 'era' | 'serverInfo' | 'capabilities' | 'instructions' | 'tools'>;

/**
 * One live MCP connection to one server process: spawn, era negotiation
 * (remembered between runs), handshake, tool list, logging, and the way the
 * process ends. A new process means a new ServerConnection.
 */
export class ServerConnection {
  readonly client: BerthClient;
  private readonly transport: ProcessStdioTransport;
  private readonly log: ServerLog;
  private toolList: ToolInfo[] = [];
  private ready = false;
  private closing = false;
  private sentInitialize = false;
  private lost: string | undefined;

  private constructor(private readonly options: ServerConnectionOptions) {
    const { config } = options;
    this.log = new ServerLog(options.logs, options.name, secretValues(config));
    this.transport = new ProcessStdioTransport({
      command: config.command,
      args: config.args,
      cwd: config.cwd,
      env: { ...options.hostEnv, ...config.env },
      hooks: {
        onTrace: (direction, message, bytes, raw) => {
          if (direction === 'out' && 'method' in message && message.method === 'initialize') this.sentInitialize = true;
          this.log.trace(direction, message, bytes, raw);
        },
        onStderrLine: (line) => this.log.stderr(line),
        onStdoutGarbage: (description) => this.log.host('warning', description),
        onSpawn: (pid) => {
          this.log.host('info', `spawned pid ${pid}: ${[config.command, ...config.args].join(' ')}`);
          options.onSpawn?.(pid);
        },
        onExit: (info) => this.onProcessExit(info),
        onLeftovers: (description) => this.log.host('warning', description),
      },
    });
    this.client = new BerthClient(
      { name: 'Berth', version: options.clientVersion },
      {
        // Berth declares only what it implements: the host adds each capability
        // together with its handler through `clientSetup`.
        capabilities: {},
        versionNegotiation: { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } },
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (error !== null) this.log.host('warning', `could not refresh the tool list: ${error.message}`);
              else if (tools !== null) this.setTools(tools);
            },
          },
          // Declared here so a modern-era connection also subscribes to prompt changes; the prompt catalog re-reads the list itself.
          prompts: {
            autoRefresh: false,
            onChanged: (error) => {
              if (error !== null) this.log.host('warning', `prompt list change: ${error.message}`);
              else this.options.onPromptsChanged?.();
            },
          },
          // Likewise for resources: the resource browser re-reads the page it shows.
          resources: {
            autoRefresh: false,
            onChanged: (error) => {
              if (error !== null) this.log.host('warning', `resource list change: ${error.message}`);
              else this.options.onResourcesChanged?.();
            },
          },
        },
      },
    );
    this.client.requestLogLevel = options.logLevel;
    this.client.setNotificationHandler('notifications/message', (notification) => this.log.notification(notification.params));
    this.client.onerror = (error) => this.log.host('warning', `protocol: ${error.message}`);
    this.client.onclose = () => this.onConnectionClosed();
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
    const prior = await eraCache.get(name, config);
    if (prior !== undefined) {
      const connection = new ServerConnection(options);
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
        connection.log.host('warning', `remembered ${prior.kind} era did not work (${failure.message}); negotiating again`);
      }
    }
    const connection = new ServerConnection(options);
    try {
      await connection.handshake(undefined, deadline);
      return connection;
    } catch (error) {
      const failure = error as ServerStartError;
      if (failure.kind !== 'exited' || connection.sentInitialize) throw failure;
      connection.log.host('info', 'exited during the server/discover probe; retrying with initialize on a fresh process');
    }
    const retry = new ServerConnection(options);
    await retry.handshake({ kind: 'legacy' }, deadline, true);
    return retry;
  }

  /** Why the server went away by itself after it was ready; undefined while it runs. */
  get lostReason(): string | undefined {
    return this.lost;
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
          : { name: serverInfo.name, version: serverInfo.version, ...(serverInfo.title !== undefined ? { title: serverInfo.title } : {}) },
      capabilities: this.client.getServerCapabilities() as Record<string, unknown> | undefined,
      instructions,
      tools: this.toolList,
    };
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallToolOptions = {}): Promise<CallToolResult> {
    const timeoutMs = options.timeoutMs ?? this.options.config.timeouts.requestMs;
    const maxTotalMs = options.maxTotalMs ?? this.options.config.timeouts.maxTotalMs;
    const onProgress = options.onProgress;
    try {
      return await this.client.callTool(
        { name: tool, arguments: args },
        {
          timeout: timeoutMs,
          signal: options.signal,
          resetTimeoutOnProgress: onProgress !== undefined,
          // Progress resets the per-request timeout; this bounds the whole call.
          maxTotalTimeout: Math.max(maxTotalMs, timeoutMs),
          onprogress:
            onProgress === undefined
              ? undefined
              : (p) => onProgress({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) }),
        },
      );
    } catch (error) {
      throw this.requestError('tools/call', `tool '${tool}'`, timeoutMs, error, options.signal);
    }
  }

  /** Legacy era: `logging/setLevel`. Modern era: the level rides in every request's `_meta`. */
  async setLogLevel(level: LogLevel): Promise<void> {
    if (this.client.getServerCapabilities()?.logging === undefined) {
      throw new HostError('SERVER_ERROR', `server '${this.options.name}' does not declare the logging capability, so its log level cannot be set`);
    }
    if (this.era === 'modern') {
      this.client.requestLogLevel = level;
      this.log.host('info', `log level ${level} (sent in each request's _meta: the 2026-07-28 era has no logging/setLevel)`);
      return;
    }
    const timeoutMs = this.options.config.timeouts.requestMs;
    try {
      await this.client.setLoggingLevel(level, { timeout: timeoutMs });
    } catch (error) {
      throw this.requestError('logging/setLevel', `level '${level}'`, timeoutMs, error);
    }
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
    else this.log.host('info', 'log level: server default from the next start (logging/setLevel cannot unset a level, so the current one stays until then)');
  }

  /** MCP shutdown of the whole tree; resolves when no process of it is left. */
  async close(): Promise<void> {
    this.closing = true;
    try {
      await this.client.close();
    } catch (error) {
      this.log.host('debug', `client close: ${errorMessage(error)}`);
    }
    await this.transport.close();
  }

  private async handshake(prior: PriorDiscovery | undefined, deadline: number, concludesNegotiation = prior === undefined): Promise<void> {
    const { config, signal } = this.options;
    if (signal?.aborted) throw new ServerStartError('start was cancelled', 'cancelled');
    const remaining = Math.max(0, deadline - Date.now());
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const interrupted = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServerStartError(`did not finish the MCP handshake within ${formatSeconds(config.timeouts.startupMs)}`, 'timeout')), remaining);
      onAbort = () => reject(new ServerStartError('start was cancelled', 'cancelled'));
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort);
    });
    try {
      await Promise.race([this.connectAndList(prior, remaining), interrupted]);
    } catch (error) {
      // Classify before close(): our own kill must not read as the server exiting.
      const failure = this.startError(error);
      await this.close();
      throw failure;
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    }
    if (this.transport.exitInfo !== undefined) {
      // It died in the instant between the last answer and now.
      const failure = this.startError(new Error('the server exited'));
      await this.close();
      throw failure;
    }
    this.ready = true;
    const era = this.era;
    if (concludesNegotiation && era !== undefined) {
      const discover = this.client.getDiscoverResult();
      await this.options.eraCache.remember(this.options.name, config, era === 'modern' && discover !== undefined ? { kind: 'modern', discover } : { kind: 'legacy' });
    }
    const via = prior === undefined ? '' : prior.kind === 'legacy' && concludesNegotiation ? '' : ', remembered era';
    this.log.host('info', `ready: protocol ${this.client.getNegotiatedProtocolVersion() ?? 'unknown'} (${era ?? 'unknown'} era${via}), ${this.toolList.length} tools`);
  }

  private async connectAndList(prior: PriorDiscovery | undefined, remaining: number): Promise<void> {
    // The SDK's own timeout is set past ours so the person sees our wording.
    await this.client.connect(this.transport, { prior, timeout: remaining + 1_000 });
    const level = this.options.logLevel;
    const capabilities = this.client.getServerCapabilities();
    if (level !== undefined && this.era === 'legacy' && capabilities?.logging !== undefined) {
      try {
        await this.client.setLoggingLevel(level, { timeout: remaining + 1_000 });
      } catch (error) {
        this.log.host('warning', `could not set log level ${level}: ${errorMessage(error)}`);
      }
    }
    if (capabilities?.tools !== undefined) {
      const { tools } = await this.client.listTools(undefined, { timeout: remaining + 1_000 });
      this.toolList = tools.map(toToolInfo);
    }
  }

  private startError(error: unknown): ServerStartError {
    if (error instanceof ServerStartError && error.kind !== 'exited') return error;
    const exit = this.transport.exitInfo;
    if (exit !== undefined && !(error instanceof ServerStartError && error.kind === 'config')) {
      const stderr = this.log.lastStderrLine();
      return new ServerStartError(`exited (${describeExit(exit)}) during the MCP handshake${stderr === undefined ? '' : ` — stderr: ${stderr}`}`, 'exited');
    }
    if (error instanceof ServerStartError) return error;
    return new ServerStartError(`MCP handshake failed: ${this.log.redact(errorMessage(error))}`, 'protocol');
  }

  /** A failed request, in words: which server, what was running, and why it ended. */
  private requestError(method: string, what: string, timeoutMs: number, error: unknown, signal?: AbortSignal): HostError {
    const name = this.options.name;
    const exit = this.transport.exitInfo;
    if (exit !== undefined && !this.closing) {
      return new HostError('SERVER_ERROR', `server '${name}' exited (${describeExit(exit)}) while ${method} was in progress`);
    }
    if (this.closing) return new HostError('SERVER_ERROR', `server '${name}' was stopped while ${method} was in progress`);
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      return new HostError('TIMEOUT', `${method} ${what} on server '${name}' did not answer within ${formatSeconds(timeoutMs)}`);
    }
    if (signal?.aborted) return new HostError('SERVER_ERROR', `${method} ${what} on server '${name}' was cancelled`);
    if (error instanceof ProtocolError) {
      return new HostError('SERVER_ERROR', `server '${name}' answered ${method} ${what} with error ${error.code}: ${this.log.redact(error.message)}`);
    }
    return new HostError('SERVER_ERROR', `${method} ${what} on server '${name}' failed: ${this.log.redact(errorMessage(error))}`);
  }

  private setTools(tools: Tool[]): void {
    this.toolList = tools.map(toToolInfo);
    this.log.host('info', `tool list changed: ${this.toolList.length} tools`);
    this.options.onToolsChanged?.(this.toolList);
  }

  private onProcessExit(info: ExitInfo): void {
    const expected = this.closing;
    const level: LogLevel = expected || (info.code === 0 && info.signal === null) ? 'info' : 'error';
    this.log.host(level, `${expected ? 'stopped: ' : ''}exited with ${describeExit(info)}`);
  }

  private onConnectionClosed(): void {
    if (!this.ready || this.closing) return;
    const exit = this.transport.exitInfo;
    const stderr = this.log.lastStderrLine();
    const reason = exit === undefined ? 'the connection to the server closed' : `exited with ${describeExit(exit)}`;
    this.lost = stderr === undefined || (exit?.code === 0 && exit.signal === null) ? reason : `${reason} — stderr: ${stderr}`;
    this.options.onUnexpectedExit?.(this.lost);
  }
}
