// How the bridge is reached, kept apart from the schemas so that the renderer's first
// screen can use these names without loading zod and the contract (see renderer/transport).

/** Electron IPC channel names. */
export const IPC_CALL_CHANNEL = 'berth:call';
export const IPC_EVENT_CHANNEL = 'berth:event';
/** WebSocket path and subprotocols for browser mode; the token rides in the second subprotocol. */
export const WS_PATH = '/bridge';
export const WS_PROTOCOL = 'berth.v1';
export const WS_TOKEN_PROTOCOL_PREFIX = 'berth.token.';
/**
 * The window Berth opens itself gets the token on this global, set by a script
 * Berth hands to the browser over its private DevTools pipe before every page
 * load, so the token is never in the browser's command line, history or storage.
 */
export const INJECTED_TOKEN_GLOBAL = '__berthBridgeToken';
