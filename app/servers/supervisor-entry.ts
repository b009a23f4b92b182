import { OAUTH_SECRET_FIELDS, SECRET_MASK, isSecretHeader } from '../../shared/domain/server';
import type { ServerConfig, ServerState } from '../../shared/domain/server';
import type { SupervisedConnection } from './connection-options';
import type { ConnectionScope, Disposable } from './connection-scope';

/** One configured server and everything that is going on with it. */
export interface Entry {
  name: string;
  config: ServerConfig;
  state: ServerState;
  connection?: SupervisedConnection;
  /** What was registered for `connection` (its listeners, the stable-run timer); closed when the entry lets go of it. */
  scope?: ConnectionScope;
  /** Operations on this server run one after another. */
  queue: Promise<unknown>;
  startAbort?: AbortController;
  restartTimer?: NodeJS.Timeout;
  /** Resets the restart counter once the connection has stayed ready long enough (lives in `scope`). */
  stableTimer?: Disposable;
  removed: boolean;
  /**
   * The person stopped this server: config syncs must not start it again
   * behind their back (only an explicit start/restart clears this).
   */
  heldByPerson: boolean;
  /** Called after every state change (callers waiting for a reconnect look at the state). */
  watchers: Set<() => void>;
}

/** A server just configured: stopped, nothing running. */
export function newEntry(name: string, config: ServerConfig): Entry {
  return {
    name,
    config,
    state: {
      name,
      config,
      status: 'stopped',
      tools: [],
      restartCount: 0,
      ...(config.logLevel ? { logLevel: config.logLevel } : {}),
    },
    queue: Promise.resolve(),
    removed: false,
    heldByPerson: false,
    watchers: new Set(),
  };
}

/** Runs `operation` after the server's earlier operations have settled (whether they failed or not). */
export function enqueue<T>(entry: Entry, operation: () => Promise<T>): Promise<T> {
  const run = entry.queue.then(operation, operation);
  entry.queue = run.catch(() => undefined);
  return run;
}

/** A copy of the state that is safe to show: secret env values, secret headers and OAuth client credentials masked. */
export function maskState(state: ServerState): ServerState {
  const secrets = new Set(state.config.secretEnv);
  const env = Object.fromEntries(
    Object.entries(state.config.env).map(([key, value]) => [key, secrets.has(key) ? SECRET_MASK : value]),
  );
  const headers = Object.fromEntries(
    Object.entries(state.config.headers).map(([name, value]) => [
      name,
      isSecretHeader(state.config, name) ? SECRET_MASK : value,
    ]),
  );
  const oauth = state.config.oauth === undefined ? undefined : { ...state.config.oauth };
  for (const field of OAUTH_SECRET_FIELDS) if (oauth?.[field] !== undefined) oauth[field] = SECRET_MASK;
  return {
    ...state,
    config: { ...state.config, env, headers, ...(oauth === undefined ? {} : { oauth }) },
    tools: [...state.tools],
  };
}

/** What a state loses when its connection goes. */
export const RUNTIME_RESET = {
  pid: undefined,
  protocolVersion: undefined,
  era: undefined,
  serverInfo: undefined,
  capabilities: undefined,
  instructions: undefined,
  tools: [],
  readySince: undefined,
  nextRestartAt: undefined,
  transport: undefined,
} satisfies Partial<ServerState>;
