import type { Client, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { LogLevel, ServerConfig, ServerState, ToolInfo } from '../../shared/domain/server';
import type { LogSink } from '../logs/log-sink';
import type { EraCache } from './era-cache';

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
  /** Remote servers: OAuth tokens (app/oauth); never starts a sign-in by itself. */
  authProvider?: OAuthClientProvider;
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

/** The facts about a ready connection that end up in ServerState. */
export type ConnectionFacts = Pick<ServerState, 'pid' | 'protocolVersion' | 'era' | 'serverInfo' | 'capabilities' | 'instructions' | 'tools' | 'transport'>;
