import type { BridgeTransport } from '../../shared/contract';
import { translate } from '../i18n/use-t';

/**
 * `connecting`: a socket is being opened (calls queue up); `open`: calls flow;
 * `lost`: the socket closed and a retry is scheduled (calls fail at once).
 */
export type ConnectionState = 'connecting' | 'open' | 'lost';

/** What the UI shows in its connection banner. */
export interface ConnectionStatus {
  state: ConnectionState;
  /** Whether the bridge has ever been open in this page's life. */
  everOpened: boolean;
  /** Failed attempts since the last successful open. */
  failedAttempts: number;
  /** When `lost`: epoch ms of the next attempt. */
  retryAt?: number;
}

/** Observable connection state of a transport. */
export interface ConnectionMonitor {
  get(): ConnectionStatus;
  subscribe(listener: (status: ConnectionStatus) => void): () => void;
  /** Skip the backoff wait and try to reconnect now (no-op unless `lost`). */
  retryNow(): void;
}

/** The bridge as the renderer uses it: the contract transport plus its connection state. */
export interface RendererTransport extends BridgeTransport {
  readonly connection: ConnectionMonitor;
  /** Close for good (page teardown, tests). */
  close(): void;
}

/** A monitor for transports that cannot lose their connection (Electron IPC). */
export function alwaysOpenMonitor(): ConnectionMonitor {
  const status: ConnectionStatus = { state: 'open', everOpened: true, failedAttempts: 0 };
  return {
    get: () => status,
    subscribe: () => () => undefined,
    retryNow: () => undefined,
  };
}

/** The message every pending or refused call gets when the bridge is down, in the active language. */
export function connectionLostMessage(): string {
  return translate('transport.connectionLost');
}
