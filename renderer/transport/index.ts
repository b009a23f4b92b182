import { WS_PATH } from '../../shared/contract/wire';
import type { BerthPreloadApi } from '../../shared/contract/preload-api';
import { PRELOAD_GLOBAL } from '../../shared/contract/preload-api';
import type { RendererTransport } from './connection';
import { createIpcTransport } from './ipc-transport';
import { takeBridgeToken } from './token';
import { withValidatedEvents } from './validated-events';
import { createWsTransport } from './ws-transport';

export { withValidatedEvents } from './validated-events';
export type { ConnectionState, ConnectionStatus, RendererTransport } from './connection';

/** Why no transport could be made; the app shows a full-page explanation. */
export type TransportChoice = { kind: 'ready'; transport: RendererTransport } | { kind: 'missing-token' };

/**
 * Electron's preload puts the bridge on `window.berth`; anywhere else we are
 * in browser mode and need the token from the URL Berth printed.
 */
export function chooseTransport(): TransportChoice {
  const preload = (window as unknown as Record<string, unknown>)[PRELOAD_GLOBAL] as BerthPreloadApi | undefined;
  if (preload && typeof preload.on === 'function' && typeof preload.methods === 'object') {
    return { kind: 'ready', transport: withValidatedEvents(createIpcTransport(preload)) };
  }
  const token = takeBridgeToken();
  if (!token) return { kind: 'missing-token' };
  const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${WS_PATH}`;
  return { kind: 'ready', transport: withValidatedEvents(createWsTransport({ url, token })) };
}
