import type { Result } from '../../shared/result';
import type { HostEventListener } from '../events/event-hub';
import type { SecretStore } from '../secrets/secret-store';
import type { RetryPolicy } from '../providers/model-call-retries';

export type { HostEventListener };

/**
 * The host as a shell sees it: one dispatch function for every contract
 * method, one event stream, and a graceful shutdown. Electron IPC and the
 * loopback WebSocket are both thin adapters over this.
 */
export interface Host {
  /** Validates `method` and `input` against the contract; never throws. */
  dispatch(method: unknown, input: unknown): Promise<Result<unknown>>;
  /** Subscribe to every host event; returns an unsubscribe function. */
  subscribe(listener: HostEventListener): () => void;
  /**
   * Stop running chat turns, withdraw every pending request ('Berth is
   * quitting'), stop every server (whole process trees) and flush pending
   * writes. Idempotent.
   */
  shutdown(): Promise<void>;
  /**
   * The shell reports how many windows are connected (WebSocket clients, or
   * the Electron window). At 0, requests waiting for the person are withdrawn
   * (deny / reject / cancel) after a grace period unless a window comes back.
   * Optional so minimal test hosts need not implement it; createHost does.
   */
  clientsChanged?(count: number): void;
}

export interface HostOptions {
  /** Directory holding config.json, state and logs. */
  configDir: string;
  shell: 'electron' | 'browser';
  /**
   * The host's environment: spawned servers get it (minus ANTHROPIC_API_KEY),
   * and ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL are read from it. Defaults to process.env.
   */
  env?: NodeJS.ProcessEnv;
  /** Where secrets live: Electron passes a safeStorage-backed store; default `<configDir>/secrets.json` (0600). */
  secrets?: SecretStore;
  /**
   * Opens a URL-mode elicitation link in the system browser, after the person
   * agreed. Default: in browser mode the renderer opens the link itself, so
   * this does nothing; under Electron without it, links cannot be opened.
   */
  openExternal?: (url: string) => Promise<void>;
  /** How long pending requests survive with no window connected (default 30 s). */
  clientGraceMs?: number;
  /** How long a chat's model call waits and asks again after a rate limit or a network drop (default DEFAULT_RETRY_POLICY). */
  chatRetries?: Partial<RetryPolicy>;
  /** How long a chat's tool call waits for its MCP task before the turn goes on without it (default 8 s; app/tasks/background-task.ts). */
  backgroundTaskAfterMs?: number;
  /**
   * The system's folder dialog, for picking a root (Electron). Resolves with
   * the chosen folder, or null when the person cancelled. Absent in browser
   * mode: the renderer uses the host's folder browser instead.
   */
  pickFolder?: () => Promise<string | null>;
  /**
   * Where the MCP Apps sandbox proxy is served (an origin other than Berth's
   * own UI: a second loopback port in browser mode, berth-app:// in
   * Electron). Undefined, or a function answering undefined: apps.sandbox
   * says apps cannot be shown, and cards show the text result.
   */
  appSandboxProxyUrl?: () => string | undefined;
  /** Loopback ports Berth itself listens on, read when asked (browser mode's bridge and app sandbox): a sandboxed server may never reach them. */
  ownPorts?: () => readonly number[];
  /** The OS's preferred languages, most wanted first (Electron's app.getPreferredSystemLanguages()); absent in browser mode, where the renderer goes by the browser's. */
  systemLanguages?: () => readonly string[];
}
