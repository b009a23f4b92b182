import type { JSONRPCMessage, OAuthClientProvider, Transport } from '@modelcontextprotocol/client';
import type { ServerConfig, TransportKind } from '../../shared/domain/server';
import { TracedHttpTransport } from './http-transport';
import { ProcessStdioTransport } from './process-stdio-transport';
import type { ExitInfo } from './process-stdio-options';
import { errorMessage } from '../../shared/error-message';

/** What a connection hears from its transport, whichever it is. */
export interface ConnectionTransportHooks {
  onTrace: (direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, raw: string) => void;
  /** A note for the server's log, in words. */
  onHostLog: (level: 'debug' | 'info' | 'warning' | 'error', text: string) => void;
  /** stdio only. */
  onStderrLine: (line: string) => void;
  onSpawn: (pid: number) => void;
  onExit: (info: ExitInfo) => void;
}

/**
 * The link to one server: a child process over stdio or a remote endpoint
 * over HTTP. The connection talks MCP through `sdk`; the rest is what it
 * needs to describe and end the link truthfully.
 */
export interface ConnectionTransport {
  readonly kind: TransportKind;
  readonly sdk: Transport;
  /** stdio: the server process. */
  readonly pid: number | undefined;
  /** stdio: how the process ended, once it has. */
  readonly exitInfo: ExitInfo | undefined;
  /** stdio: the server broke the link while its process still ran ("closed its output …"), and Berth stopped it. */
  readonly brokenReason: string | undefined;
  /** Streamable HTTP: the session the server gave us. */
  readonly sessionId: string | undefined;
  /** "spawned pid 12 …" / "https://… over Streamable HTTP", for the log. */
  readonly description: string;
  /** Streamable HTTP: DELETE the session (before the client closes the transport). Never throws. */
  endSession(): Promise<void>;
  /** End the link for good. stdio: resolves when no process of the tree is left. */
  close(): Promise<void>;
}

const KIND_NAMES: Record<TransportKind, string> = {
  stdio: 'stdio',
  'streamable-http': 'Streamable HTTP',
  sse: 'legacy HTTP+SSE',
};

/** "Streamable HTTP", "legacy HTTP+SSE": what the person sees as the negotiated transport. */
export function transportName(kind: TransportKind): string {
  return KIND_NAMES[kind];
}

/** The first transport to try for a config: its `type`, else Streamable HTTP (with the SSE fallback in ServerConnection.open). */
export function initialTransportKind(config: Pick<ServerConfig, 'url' | 'type'>): TransportKind {
  if (config.url === undefined) return 'stdio';
  return config.type === 'sse' ? 'sse' : 'streamable-http';
}

/** Options for {@linkcode createConnectionTransport}. */
export interface CreateTransportOptions {
  config: ServerConfig;
  kind: TransportKind;
  /** stdio: the environment the process gets (host env with the server's laid over it). */
  env: NodeJS.ProcessEnv;
  /** stdio: bytes written to the process's fd 3 right after the spawn, then closed. */
  fd3Input?: Buffer;
  /** stdio: the command line the log shows, when not `config`'s own. */
  description?: string;
  /** HTTP: the headers to send (secrets resolved). */
  headers: Record<string, string>;
  /** HTTP: OAuth tokens for the server, when it is signed in to (or may ask for a sign-in). */
  authProvider?: OAuthClientProvider;
  hooks: ConnectionTransportHooks;
}

export function createConnectionTransport(options: CreateTransportOptions): ConnectionTransport {
  const { config, kind, hooks } = options;
  if (kind === 'stdio') {
    const command = config.command;
    if (command === undefined) throw new Error('a stdio transport needs a command');
    const process = new ProcessStdioTransport({
      command,
      args: config.args,
      cwd: config.cwd,
      env: options.env,
      ...(options.fd3Input === undefined ? {} : { fd3Input: options.fd3Input }),
      hooks: {
        onTrace: hooks.onTrace,
        onStderrLine: hooks.onStderrLine,
        onStdoutGarbage: (description) => hooks.onHostLog('warning', description),
        onSpawn: hooks.onSpawn,
        onExit: hooks.onExit,
        onLeftovers: (description) => hooks.onHostLog('warning', description),
        onBroken: (reason) => hooks.onHostLog('error', `${reason}; stopping it`),
      },
    });
    return {
      kind,
      sdk: process,
      get pid() {
        return process.pid ?? undefined;
      },
      get exitInfo() {
        return process.exitInfo;
      },
      get brokenReason() {
        return process.brokenReason;
      },
      sessionId: undefined,
      description: options.description ?? [command, ...config.args].join(' '),
      endSession: () => Promise.resolve(),
      close: () => process.close(),
    };
  }
  const url = config.url;
  if (url === undefined) throw new Error('an HTTP transport needs a url');
  const http = new TracedHttpTransport({
    url,
    kind,
    headers: options.headers,
    onTrace: hooks.onTrace,
    ...(options.authProvider === undefined ? {} : { authProvider: options.authProvider }),
  });
  return {
    kind,
    sdk: http,
    pid: undefined,
    exitInfo: undefined,
    brokenReason: undefined,
    get sessionId() {
      return http.sessionId;
    },
    description: `${url} over ${transportName(kind)}`,
    async endSession() {
      try {
        await http.terminateSession();
      } catch (error) {
        // The session ends on the server's side anyway; nothing for the person to do.
        hooks.onHostLog('debug', `could not end the HTTP session: ${errorMessage(error)}`);
      }
    },
    close: () => http.close(),
  };
}
