import type { Client, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { ServerConfig, ServerState } from '../../shared/domain/server';
import type { LogSink } from '../logs/log-sink';
import type { Jitter } from './backoff';
import type { OpenConnection } from './connection-options';
import type { ListKind } from './list-changes';
import type { PrepareLaunch } from './server-launch';

/** What the supervisor needs from the host. */
export interface SupervisorOptions {
  logs: LogSink;
  /** For eras.json. */
  stateDir: string;
  /** Every change, config MASKED (secret env values and secret headers → SECRET_MASK). */
  onState: (state: ServerState) => void;
  /** Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Builds each start's env and resolved config (login-shell PATH, secrets); default: `env` and the config as it is. */
  prepareLaunch?: PrepareLaunch;
  clientVersion?: string;
  /** ms a server must stay ready before its restart counter resets (default 60_000). */
  stableAfterMs?: number;
  /** Spreads restart delays; none by default. */
  jitter?: Jitter;
  /** Declares client capabilities and registers their handlers on each new SDK client (see ServerConnectionOptions). */
  clientSetup?: (server: string, client: Client) => void;
  /** A ready server said its list of `kind` changed (tools: the state has the new list already). */
  onListChanged?: (server: string, kind: ListKind) => void;
  /** Remote servers: the OAuth provider for this start (app/oauth), or undefined for none; it also tells the state's `auth`. */
  authProviderFor?: (server: string, config: ServerConfig) => OAuthClientProvider | undefined;
  /** Opens each start's connection; default ServerConnection.open (a real process or HTTP link). The state machine's unit tests pass a fake. */
  openConnection?: OpenConnection;
}
