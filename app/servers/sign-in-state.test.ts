import { describe, expect, it } from 'vitest';
import { ServerStateSchema } from '../../shared/domain/server';
import { authAfterChange, signedInAuth, type SignInAwareProvider, type SignInStatus } from './sign-in-state';

function provider(status: SignInStatus | Error): SignInAwareProvider {
  return {
    signInStatus: () => (status instanceof Error ? Promise.reject(status) : Promise.resolve(status)),
  } as SignInAwareProvider;
}

describe('signedInAuth', () => {
  it('is signed-in with what is known about the token, when tokens are stored', async () => {
    expect(await signedInAuth(provider({ signedIn: true, expiresAt: 5_000, renews: true }))).toEqual({
      state: 'signed-in',
      expiresAt: 5_000,
      renews: true,
    });
    expect(await signedInAuth(provider({ signedIn: true }))).toEqual({ state: 'signed-in' });
  });

  it('is nothing without tokens, without a provider, or when the store cannot be read', async () => {
    expect(await signedInAuth(provider({ signedIn: false }))).toBeUndefined();
    expect(await signedInAuth(undefined)).toBeUndefined();
    expect(await signedInAuth(provider(new Error('keychain locked')))).toBeUndefined();
  });
});

describe('authAfterChange', () => {
  it('signing in: signed-in whatever was known before', async () => {
    expect(await authAfterChange(provider({ signedIn: true }), { state: 'needs-sign-in' })).toEqual({
      state: 'signed-in',
    });
    expect(await authAfterChange(provider({ signedIn: true }), undefined)).toEqual({ state: 'signed-in' });
  });

  it('signing out: a server that had a sign-in state needs a sign-in; one that never asked stays without one', async () => {
    expect(await authAfterChange(provider({ signedIn: false }), { state: 'signed-in', renews: true })).toEqual({
      state: 'needs-sign-in',
    });
    expect(await authAfterChange(provider({ signedIn: false }), { state: 'needs-sign-in' })).toEqual({
      state: 'needs-sign-in',
    });
    expect(await authAfterChange(provider({ signedIn: false }), undefined)).toBeUndefined();
    // Berth does not sign in to it (local, or the person's own Authorization header).
    expect(await authAfterChange(undefined, { state: 'signed-in' })).toBeUndefined();
  });
});

describe('ServerStateSchema.auth', () => {
  const base = {
    name: 'notes',
    config: { url: 'https://mcp.example/mcp' },
    status: 'ready',
    tools: [],
    readySince: 1,
    transport: 'streamable-http',
    restartCount: 0,
  };

  it('accepts the sign-in facts', () => {
    expect(
      ServerStateSchema.safeParse({ ...base, auth: { state: 'signed-in', expiresAt: 1, renews: false } }).success,
    ).toBe(true);
  });

  it('refuses anything else in it, so a token cannot reach the renderer', () => {
    expect(ServerStateSchema.safeParse({ ...base, auth: { state: 'signed-in', accessToken: 'secret' } }).success).toBe(
      false,
    );
    expect(ServerStateSchema.safeParse({ ...base, auth: { state: 'maybe' } }).success).toBe(false);
  });
});
