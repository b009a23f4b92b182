import { INJECTED_TOKEN_GLOBAL } from '../../shared/contract/wire';

/** sessionStorage key: the token survives reloads of this tab but not the browser session. */
export const TOKEN_STORAGE_KEY = 'berth.bridgeToken';

/** The browser pieces token handling touches, injectable for tests. */
export interface TokenEnvironment {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  history: Pick<History, 'replaceState' | 'state'>;
  /** Where the window Berth opened itself finds the token (INJECTED_TOKEN_GLOBAL). */
  global: Record<string, unknown>;
}

/**
 * The bridge token. In the window Berth opened itself, it was defined before
 * this page's scripts ran (again at every reload) and is used from memory
 * only: sessionStorage is written to the browser profile on disk. Otherwise it
 * comes from `#token=…` (the URL printed by `npm start`), is kept in
 * sessionStorage and removed from the visible URL, so it is not shared by
 * copying the address bar, yet a reload still connects.
 */
export function takeBridgeToken(env: TokenEnvironment = browserEnvironment()): string | undefined {
  const injected = env.global[INJECTED_TOKEN_GLOBAL];
  if (typeof injected === 'string' && injected !== '') {
    // Nothing else on the page needs it; the transport keeps its own copy.
    delete env.global[INJECTED_TOKEN_GLOBAL];
    return injected;
  }
  const hash = env.location.hash.startsWith('#') ? env.location.hash.slice(1) : env.location.hash;
  const fromHash = new URLSearchParams(hash).get('token')?.trim();
  if (fromHash) {
    try {
      env.storage.setItem(TOKEN_STORAGE_KEY, fromHash);
    } catch (error) {
      // Storage can be disabled; the token still works for this page load.
      console.error('Berth: could not keep the bridge token in sessionStorage', error);
    }
    env.history.replaceState(env.history.state, '', env.location.pathname + env.location.search);
    return fromHash;
  }
  try {
    return env.storage.getItem(TOKEN_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function browserEnvironment(): TokenEnvironment {
  return {
    location: window.location,
    storage: window.sessionStorage,
    history: window.history,
    global: window as unknown as Record<string, unknown>,
  };
}
