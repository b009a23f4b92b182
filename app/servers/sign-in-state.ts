import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { ServerAuth } from '../../shared/domain/server';

/** What is stored for a server's sign-in, without the tokens themselves. */
export interface SignInStatus {
  signedIn: boolean;
  /** Epoch ms the access token expires, when the authorization server said. */
  expiresAt?: number;
  /** A refresh token is stored. */
  renews?: boolean;
}

/** An OAuth provider that can also say whether tokens are stored (app/oauth's BerthOAuthProvider). */
export interface SignInAwareProvider extends OAuthClientProvider {
  signInStatus(): Promise<SignInStatus>;
}

/** Only a provider a person signs in with has a sign-in state (client credentials need none). */
function signInAware(provider: OAuthClientProvider | undefined): SignInAwareProvider | undefined {
  return provider !== undefined && typeof (provider as Partial<SignInAwareProvider>).signInStatus === 'function'
    ? (provider as SignInAwareProvider)
    : undefined;
}

/**
 * `signed-in` when tokens are stored for the server, else undefined (the
 * caller knows whether that means "needs a sign-in" or "no sign-in needed").
 * A store that cannot be read counts as not signed in: the state is only
 * shown to the person, and the next connection finds out for certain.
 */
export async function signedInAuth(any: OAuthClientProvider | undefined): Promise<ServerAuth | undefined> {
  const provider = signInAware(any);
  if (provider === undefined) return undefined;
  const status = await provider.signInStatus().catch(() => ({ signedIn: false }) satisfies SignInStatus);
  if (!status.signedIn) return undefined;
  return {
    state: 'signed-in',
    ...(status.expiresAt === undefined ? {} : { expiresAt: status.expiresAt }),
    ...(status.renews === undefined ? {} : { renews: status.renews }),
  };
}

/** After the stored tokens changed (a sign-in finished, or the person signed out). */
export async function authAfterChange(
  any: OAuthClientProvider | undefined,
  previous: ServerAuth | undefined,
): Promise<ServerAuth | undefined> {
  const provider = signInAware(any);
  const signedIn = await signedInAuth(provider);
  if (signedIn !== undefined) return signedIn;
  // No tokens now: a server Berth had signed in to (or that asked for a sign-in) needs one again.
  return provider === undefined || previous === undefined ? undefined : { state: 'needs-sign-in' };
}
