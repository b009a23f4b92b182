import { describe, expect, it } from 'vitest';
import { INJECTED_TOKEN_GLOBAL } from '../../shared/contract';
import { takeBridgeToken, TOKEN_STORAGE_KEY, type TokenEnvironment } from './token';

function fakeEnv(url: string, stored?: string, global: Record<string, unknown> = {}) {
  const parsed = new URL(url);
  const storage = new Map<string, string>(stored ? [[TOKEN_STORAGE_KEY, stored]] : []);
  const replaced: string[] = [];
  const env: TokenEnvironment = {
    location: { hash: parsed.hash, pathname: parsed.pathname, search: parsed.search },
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
    history: { state: null, replaceState: (_state, _unused, next) => void replaced.push(String(next)) },
    global,
  };
  return { env, storage, replaced };
}

describe('takeBridgeToken', () => {
  it('takes the token from the hash, stores it and removes it from the address bar', () => {
    const { env, storage, replaced } = fakeEnv('http://127.0.0.1:4000/?x=1#token=abc-DEF_1');
    expect(takeBridgeToken(env)).toBe('abc-DEF_1');
    expect(storage.get(TOKEN_STORAGE_KEY)).toBe('abc-DEF_1');
    expect(replaced).toEqual(['/?x=1']);
  });

  it('falls back to the stored token after a reload without the hash', () => {
    const { env, replaced } = fakeEnv('http://127.0.0.1:4000/', 'kept');
    expect(takeBridgeToken(env)).toBe('kept');
    expect(replaced).toEqual([]);
  });

  it('prefers a new token in the hash over an old stored one (Berth restarted)', () => {
    const { env, storage } = fakeEnv('http://127.0.0.1:4000/#token=new', 'old');
    expect(takeBridgeToken(env)).toBe('new');
    expect(storage.get(TOKEN_STORAGE_KEY)).toBe('new');
  });

  it('returns undefined when there is no token anywhere', () => {
    expect(takeBridgeToken(fakeEnv('http://127.0.0.1:4000/').env)).toBeUndefined();
    expect(takeBridgeToken(fakeEnv('http://127.0.0.1:4000/#token=').env)).toBeUndefined();
  });

  it('uses the token Berth gave its own window from memory only: never stored, and gone from the page', () => {
    const global: Record<string, unknown> = {};
    Object.defineProperty(global, INJECTED_TOKEN_GLOBAL, { value: 'injected-Token_1', configurable: true });
    const { env, storage, replaced } = fakeEnv('http://127.0.0.1:4000/', 'old-stored', global);
    expect(takeBridgeToken(env)).toBe('injected-Token_1');
    // sessionStorage is written to the browser profile on disk: the token must not go there.
    expect(storage.get(TOKEN_STORAGE_KEY)).toBe('old-stored');
    expect(INJECTED_TOKEN_GLOBAL in global).toBe(false);
    expect(replaced).toEqual([]);
  });

  it('ignores an injected value that is not a token', () => {
    const { env } = fakeEnv('http://127.0.0.1:4000/#token=from-hash', undefined, { [INJECTED_TOKEN_GLOBAL]: 42 });
    expect(takeBridgeToken(env)).toBe('from-hash');
  });
});
