import type { CallToolResult, Client, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { TaskStatus } from '../../shared/domain/task';
import type { HostMessage } from '../../shared/domain/host-message';
import type { LogLevel, ServerConfig, ServerStateOf, ToolInfo } from '../../shared/domain/server';
import type { LogSink } from '../logs/log-sink';
import type { BerthClient } from './berth-client';
import type { Disposable } from './connection-scope';
import type { ConnectionTransport, CreateTransportOptions } from './connection-transport';
import type { EraCache } from './era-cache';
import type { ListKind } from './list-changes';
import type { PersonWaits } from './pausable-timeout';
import type { LaunchWrapper } from './server-launch';

/** What one connection needs from the supervisor. */
export interface ServerConnectionOptions {
  name: string;
  config: ServerConfig;
  /** The host's environment; the server's `env` is laid over it. */
  hostEnv: NodeJS.ProcessEnv;
  /** stdio: the command the log shows instead of `config`'s (a wrapper's own command line is not the person's). */
  shownCommand?: string;
  /** stdio: the launch runs a wrapper that takes its own environment and is given the server's on fd 3 (the sandbox). */
  wrapper?: LaunchWrapper;
  logs: LogSink;
  eraCache: EraCache;
  clientVersion: string;
  /** Requested log level, applied during startup. */
  logLevel?: LogLevel;
  /** Aborting cancels a start in progress (its process tree is killed). */
  signal?: AbortSignal;
  /** Remote servers: OAuth tokens (app/oauth); never starts a sign-in by itself. */
  authProvider?: OAuthClientProvider;
  /** During the start: the server's process was spawned (stdio). */
  onSpawn?: (pid: number) => void;
  /**
   * Called with each new SDK client before it connects: the host declares the
   * client capabilities it implements (sampling, elicitation…) and registers
   * their request handlers here. A start may build more than one client (era
   * probe retry); each one gets this call.
   */
  clientSetup?: (server: string, client: Client) => void;
  /** stdio: how long the era probe may go unanswered after the server's first output; default PROBE_QUIET_MS (era-probe-clock.ts). */
  probeQuietMs?: number;
  /** Builds the link each attempt talks over; default createConnectionTransport (a child process or HTTP). Tests pass their own. */
  createTransport?: (options: CreateTransportOptions) => ConnectionTransport;
}

/** What a ready connection tells whoever listens (ServerConnection.on). */
export interface ConnectionEvents {
  /** The server said its list of `kind` changed. Tools: Berth has read the new list already (`tools`); other kinds are re-read by whoever wants them. */
  listChanged: (kind: ListKind) => void;
  /** The server went away on its own after it was ready (a process exit, a remote link found gone). */
  lost: (reason: string, message?: HostMessage) => void;
}

/** What the supervisor needs from a live connection: ServerConnection, or a test's stand-in. */
export interface SupervisedConnection {
  readonly client: BerthClient;
  /** Why the server went away by itself after it was ready; undefined while it runs. */
  readonly lostReason: string | undefined;
  /** `lostReason` as a code, for the renderer to word (absent from a test's stand-in). */
  readonly lostMessage?: HostMessage | undefined;
  readonly tools: ToolInfo[];
  facts(): ConnectionFacts;
  on<E extends keyof ConnectionEvents>(event: E, listener: ConnectionEvents[E]): Disposable;
  callTool(tool: string, args: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  request<T>(
    method: string,
    what: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    send: (client: BerthClient) => Promise<T>,
  ): Promise<T>;
  setLogLevel(level: LogLevel): Promise<void>;
  forgetLogLevel(): void;
  /** Ends the connection; resolves when the process tree is gone or the HTTP session ended. */
  close(): Promise<void>;
}

/** How the supervisor opens a connection (ServerConnection.open; a fake in the state machine's unit tests). */
export type OpenConnection = (options: ServerConnectionOptions) => Promise<SupervisedConnection>;

/** Options for one tool call. */
export interface CallToolOptions {
  timeoutMs?: number;
  /** Upper bound for the whole call even while progress keeps resetting `timeoutMs` (time spent waiting for the person excluded). */
  maxTotalMs?: number;
  signal?: AbortSignal;
  /** While the person is asked something for this call (its sampling review, its elicitation form), its clock stands still. */
  personWaits?: PersonWaits;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Where the call came from, when a chat turn made it: a task it runs as names it (TaskRecord). */
  origin?: { conversationId: string; toolUseId: string };
  /** The call runs as an MCP task (app/tasks): its Berth task id, status and the server's status message, at each change. */
  onTask?: (task: { taskId: string; status: TaskStatus; statusMessage?: string }) => void;
  /**
   * The call may go on in the background (a chat call): once its task has run a short while without finishing, the
   * call answers at once (app/tasks/background-task.ts) and the task's result comes later. Hears the Berth task id
   * just before that answer.
   */
  onBackground?: (taskId: string) => void;
}

/** The facts about a ready connection that end up in ServerState. */
export type ConnectionFacts = Pick<
  ServerStateOf<'ready'>,
  'pid' | 'protocolVersion' | 'era' | 'serverInfo' | 'capabilities' | 'instructions' | 'tools' | 'transport'
>;
