import { describe, expect, it } from 'vitest';
import { takeBridgeToken, TOKEN_STORAGE_KEY, type TokenEnvironment } from './token';

function fakeEnv(url: string, stored?: string) {
  const parsed = new URL(url);
  const storage = new Map<string, string>(stored ? [[TOKEN_STORAGE_KEY, stored]] : []);
  const replaced: string[] = [];
  const env: TokenEnvironment = {
    location: { hash: parsed.hash, pathname: parsed.pathname, search: parsed.search },
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
    history: { state: null, replaceState: (_state, _unused, next) => void replaced.push(String(next)) },
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
});
