import { describe, expect, it } from 'vitest';
import type { SecretStore } from '../secrets/secret-store';
import { MemorySecrets } from '../secrets/secret-test-support';
import { BerthOAuthProvider, NoOAuthOfferedError, SignInRequiredError } from './berth-oauth-provider';
import { OAuthRecords, moveOAuthRecords, oauthIndexId, oauthIssuerId } from './oauth-records';

const URL_A = 'https://mcp.example/mcp';
const AS_1 = 'https://login.example';
const AS_2 = 'https://other-login.example';

function provider(
  store: SecretStore,
  options: Partial<ConstructorParameters<typeof BerthOAuthProvider>[0]> = {},
): BerthOAuthProvider {
  return new BerthOAuthProvider({ server: 'notes', serverUrl: URL_A, store, now: () => 1_000_000, ...options });
}

function tokens(access: string) {
  return { access_token: access, token_type: 'Bearer', refresh_token: `r-${access}`, expires_in: 60 };
}

function session(opened: string[] = []) {
  return {
    redirectUrl: 'http://127.0.0.1:5555/callback',
    state: 'st',
    openUrl: (url: string) => Promise.resolve(void opened.push(url)),
  };
}

describe('BerthOAuthProvider', () => {
  it('keeps tokens per authorization server; the transport read gets the newest sign-in', async () => {
    const store = new MemorySecrets();
    const p = provider(store);
    await p.saveTokens(tokens('one'), { issuer: AS_1 });
    await p.saveTokens(tokens('two'), { issuer: AS_2 });
    expect((await p.tokens({ issuer: AS_1 }))?.access_token).toBe('one');
    expect((await p.tokens({ issuer: AS_2 }))?.access_token).toBe('two');
    expect((await p.tokens())?.access_token).toBe('two');
    expect(await p.signInStatus()).toEqual({ signedIn: true, renews: true, expiresAt: 1_000_000 + 60_000 });
    expect([...store.values.keys()].sort()).toEqual(
      [oauthIndexId('notes'), oauthIssuerId('notes', AS_2), oauthIssuerId('notes', AS_1)].sort(),
    );
    // A second provider over the same store (the next connection) sees the same.
    expect((await provider(store).tokens())?.access_token).toBe('two');
  });

  it('ignores what was stored for another URL of the server, and drops it at the next save', async () => {
    const store = new MemorySecrets();
    await provider(store).saveTokens(tokens('old'), { issuer: AS_1 });
    const moved = provider(store, { serverUrl: 'https://mcp.example/v2/mcp' });
    expect(await moved.tokens()).toBeUndefined();
    expect(await moved.signInStatus()).toEqual({ signedIn: false });
    await moved.saveTokens(tokens('new'), { issuer: AS_2 });
    expect(store.values.has(oauthIssuerId('notes', AS_1))).toBe(false);
    expect((await moved.tokens())?.access_token).toBe('new');
  });

  it('a record that cannot be read counts as not signed in', async () => {
    const store = new MemorySecrets();
    await provider(store).saveTokens(tokens('one'), { issuer: AS_1 });
    store.values.set(oauthIssuerId('notes', AS_1), '{not json');
    expect(await provider(store).tokens()).toBeUndefined();
  });

  it('outside a sign-in it neither registers nor opens a browser: it says sign-in is needed, and stores nothing', async () => {
    const store = new MemorySecrets();
    const p = provider(store);
    await expect(p.clientInformation({ issuer: AS_1 })).rejects.toThrow(SignInRequiredError);
    // Discovery found no OAuth at all: signing in would not help.
    await p.saveDiscoveryState({ authorizationServerUrl: AS_1 });
    expect(store.values.size).toBe(0);
    await expect(p.clientInformation({ issuer: AS_1 })).rejects.toThrow(NoOAuthOfferedError);
    await p.saveDiscoveryState({
      authorizationServerUrl: AS_1,
      authorizationServerMetadata: {
        issuer: AS_1,
        authorization_endpoint: `${AS_1}/a`,
        token_endpoint: `${AS_1}/t`,
        response_types_supported: ['code'],
      },
    });
    await expect(p.clientInformation({ issuer: AS_1 })).rejects.toThrow(SignInRequiredError);
    await expect(p.redirectToAuthorization(new URL('https://login.example/authorize'))).rejects.toThrow(
      "server 'notes' needs you to sign in",
    );
    // A state for a URL nobody opens; a sign-in has its own.
    expect(p.state()).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('remembers the scope of a step-up for the next sign-in, for a server signed in to only', async () => {
    const store = new MemorySecrets();
    const p = provider(store);
    const stepUp = new URL('https://login.example/authorize?scope=mcp%3Atools+mcp%3Aadmin');
    await expect(p.redirectToAuthorization(stepUp)).rejects.toThrow(SignInRequiredError);
    expect(await p.wantedScope()).toBeUndefined();
    expect(store.values.size).toBe(0);
    await p.saveTokens(tokens('one'), { issuer: AS_1 });
    await expect(p.redirectToAuthorization(stepUp)).rejects.toThrow(SignInRequiredError);
    expect(await p.wantedScope()).toBe('mcp:tools mcp:admin');
  });

  it('during a sign-in it opens only web pages, and lets the SDK register', async () => {
    const opened: string[] = [];
    const p = provider(new MemorySecrets());
    p.beginSignIn(session(opened));
    expect(p.redirectUrl).toBe('http://127.0.0.1:5555/callback');
    expect(p.clientMetadata.redirect_uris).toEqual(['http://127.0.0.1:5555/callback']);
    expect(p.clientMetadata.token_endpoint_auth_method).toBe('none');
    expect(p.state()).toBe('st');
    expect(await p.clientInformation({ issuer: AS_1 })).toBeUndefined();
    await p.redirectToAuthorization(new URL('https://login.example/authorize?x=1'));
    await p.redirectToAuthorization(new URL('http://127.0.0.1:9/authorize'));
    await expect(p.redirectToAuthorization(new URL('file:///etc/passwd'))).rejects.toThrow(/not an https address/);
    await expect(p.redirectToAuthorization(new URL('http://login.example/authorize'))).rejects.toThrow(
      /not an https address/,
    );
    expect(opened).toEqual(['https://login.example/authorize?x=1', 'http://127.0.0.1:9/authorize']);
    p.endSignIn();
    expect(p.redirectUrl).toBe('http://127.0.0.1/callback');
  });

  it('keeps the PKCE verifier in memory for the sign-in only', async () => {
    const store = new MemorySecrets();
    const p = provider(store);
    p.beginSignIn(session());
    p.saveCodeVerifier('verifier-value');
    expect(p.codeVerifier()).toBe('verifier-value');
    expect([...store.values.values()].join('')).not.toContain('verifier-value');
    await p.invalidateCredentials('verifier');
    expect(() => p.codeVerifier()).toThrow(/no PKCE code verifier/);
    p.saveCodeVerifier('again');
    p.endSignIn();
    expect(() => p.codeVerifier()).toThrow(/no PKCE code verifier/);
  });

  it('uses a pre-registered client as given and never stores it', async () => {
    const store = new MemorySecrets();
    const p = provider(store, { preRegistered: { clientId: 'berth-desktop', clientSecret: 'shh' } });
    expect(await p.clientInformation({ issuer: AS_1 })).toEqual({
      client_id: 'berth-desktop',
      client_secret: 'shh',
      issuer: AS_1,
    });
    expect(p.clientMetadata.token_endpoint_auth_method).toBe('client_secret_basic');
    await p.saveClientInformation({ client_id: 'berth-desktop', client_secret: 'shh', issuer: AS_1 }, { issuer: AS_1 });
    expect(store.values.size).toBe(0);
  });

  it('forgets what invalidateCredentials names, and only that', async () => {
    const store = new MemorySecrets();
    const p = provider(store);
    p.beginSignIn(session());
    await p.saveClientInformation(
      { client_id: 'c1', redirect_uris: ['http://127.0.0.1:5555/callback'] },
      { issuer: AS_1 },
    );
    await p.saveTokens(tokens('one'), { issuer: AS_1 });
    await p.saveDiscoveryState({ authorizationServerUrl: AS_1 });

    await p.invalidateCredentials('tokens');
    expect(await p.tokens({ issuer: AS_1 })).toBeUndefined();
    expect((await p.clientInformation({ issuer: AS_1 }))?.client_id).toBe('c1');

    await p.saveTokens(tokens('two'), { issuer: AS_1 });
    await p.invalidateCredentials('client');
    expect(await p.clientInformation({ issuer: AS_1 })).toBeUndefined();
    expect((await p.tokens())?.access_token).toBe('two');

    expect(await p.discoveryState()).toEqual({ authorizationServerUrl: AS_1 });
    await p.invalidateCredentials('discovery');
    expect(await p.discoveryState()).toBeUndefined();
    expect((await p.tokens())?.access_token).toBe('two');

    await p.invalidateCredentials('all');
    expect(store.values.size).toBe(0);
  });

  it('remembers the registered loopback redirect to listen on it again', async () => {
    const p = provider(new MemorySecrets());
    p.beginSignIn(session());
    await p.saveDiscoveryState({
      authorizationServerUrl: AS_1,
      authorizationServerMetadata: {
        issuer: AS_1,
        authorization_endpoint: `${AS_1}/a`,
        token_endpoint: `${AS_1}/t`,
        response_types_supported: ['code'],
      },
    });
    expect(await p.registeredRedirectUrl()).toBeUndefined();
    await p.saveClientInformation(
      { client_id: 'c1', redirect_uris: ['http://127.0.0.1:5555/callback'] },
      { issuer: AS_1 },
    );
    expect(await p.registeredRedirectUrl()).toBe('http://127.0.0.1:5555/callback');
  });

  it('sign-out deletes everything stored for the server and nothing else', async () => {
    const store = new MemorySecrets();
    store.values.set('server/notes/header/Authorization', 'kept');
    store.values.set(oauthIndexId('other'), 'kept');
    const p = provider(store);
    await p.saveTokens(tokens('one'), { issuer: AS_1 });
    await p.saveTokens(tokens('two'), { issuer: AS_2 });
    await p.signOut();
    expect([...store.values.keys()].sort()).toEqual([oauthIndexId('other'), 'server/notes/header/Authorization']);
  });

  it('follows a rename, and a removed server forgets its records whatever URL they were for', async () => {
    const store = new MemorySecrets();
    store.values.set(oauthIndexId('notes-2'), 'someone else');
    await provider(store).saveTokens(tokens('one'), { issuer: AS_1 });
    await moveOAuthRecords(store, 'notes', 'renamed');
    expect(await provider(store).tokens()).toBeUndefined();
    const renamed = new BerthOAuthProvider({ server: 'renamed', serverUrl: URL_A, store });
    expect((await renamed.tokens())?.access_token).toBe('one');
    expect([...store.values.keys()].sort()).toEqual(
      [oauthIndexId('notes-2'), oauthIndexId('renamed'), oauthIssuerId('renamed', AS_1)].sort(),
    );

    await new OAuthRecords(store, 'renamed', '').forgetAll();
    expect([...store.values.keys()]).toEqual([oauthIndexId('notes-2')]);
  });

  it("two providers of one server over one store never lose each other's writes", async () => {
    class SlowSecrets extends MemorySecrets {
      // The value is read at once and answered later, as a store reading a file would.
      override async get(key: string): Promise<string | undefined> {
        const value = await super.get(key);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return value;
      }
    }
    const store = new SlowSecrets();
    const connection = provider(store);
    const signingIn = provider(store);
    await Promise.all([
      connection.saveTokens(tokens('one'), { issuer: AS_1 }),
      signingIn.saveTokens(tokens('two'), { issuer: AS_2 }),
    ]);
    expect((await connection.tokens({ issuer: AS_1 }))?.access_token).toBe('one');
    expect((await connection.tokens({ issuer: AS_2 }))?.access_token).toBe('two');
  });
});

describe('BerthOAuthProvider DPoP', () => {
  const discovery = (dpopAlgs?: string[]) => ({
    authorizationServerUrl: AS_1,
    authorizationServerMetadata: {
      issuer: AS_1,
      authorization_endpoint: `${AS_1}/authorize`,
      token_endpoint: `${AS_1}/token`,
      response_types_supported: ['code'],
      ...(dpopAlgs === undefined ? {} : { dpop_signing_alg_values_supported: dpopAlgs }),
    },
  });

  it('stays Bearer for an authorization server without ES256 DPoP', async () => {
    const p = provider(new MemorySecrets());
    p.beginSignIn(session());
    await p.saveDiscoveryState(discovery());
    expect(await p.dpop()).toBeUndefined();
    await p.saveDiscoveryState(discovery(['RS256']));
    expect(await p.dpop()).toBeUndefined();
  });

  it('makes a key at sign-in, keeps it with the registration, and the next start signs with the same key', async () => {
    const store = new MemorySecrets();
    const signingIn = provider(store);
    signingIn.beginSignIn(session());
    await signingIn.saveDiscoveryState(discovery(['ES256']));
    const first = await signingIn.dpop();
    expect(first?.alg).toBe('ES256');
    await signingIn.saveTokens({ ...tokens('bound'), token_type: 'DPoP' }, { issuer: AS_1 });
    signingIn.endSignIn();
    expect(await signingIn.dpop()).toBe(first);

    const nextStart = provider(store);
    const again = await nextStart.dpop();
    expect(again?.thumbprint).toBe(first?.thumbprint);
    const record = store.values.get(oauthIssuerId('notes', AS_1)) ?? '';
    expect(JSON.parse(record)).toMatchObject({ dpopKey: { alg: 'ES256', privateJwk: { kty: 'EC', crv: 'P-256' } } });

    await nextStart.signOut();
    expect(await provider(store).dpop()).toBeUndefined();
  });

  it('makes no key (and keeps no record) for a server nobody signed in to', async () => {
    const store = new MemorySecrets();
    const p = provider(store);
    await p.saveDiscoveryState(discovery(['ES256']));
    expect(await p.dpop()).toBeUndefined();
    expect(store.values.size).toBe(0);
  });
});
