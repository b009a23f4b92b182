import type { Result } from '../shared/result';
import type { TopicName, TopicPayload } from '../shared/contract';

export type HostEventListener = <T extends TopicName>(topic: T, payload: TopicPayload<T>) => void;

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
  /** Stop every server (whole process trees) and flush pending writes. Idempotent. */
  shutdown(): Promise<void>;
}

export interface HostOptions {
  /** Directory holding config.json, state and logs. */
  configDir: string;
  shell: 'electron' | 'browser';
  /** Environment for spawned servers (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
}
