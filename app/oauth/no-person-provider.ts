import type {
  OAuthClientInformationContext,
  OAuthClientProvider,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { IssuerPin } from './issuer-pin';

/**
 * What the OAuth providers with no person share (client credentials,
 * workload identity): no redirect, no PKCE, tokens in memory only — a new
 * start simply asks the token endpoint again. Subclasses say how the token
 * request is made.
 */
export abstract class NoPersonOAuthProvider implements Pick<
  OAuthClientProvider,
  'tokens' | 'saveTokens' | 'redirectToAuthorization' | 'saveCodeVerifier' | 'codeVerifier' | 'invalidateCredentials'
> {
  private saved: StoredOAuthTokens | undefined;

  /** "client credentials", "workload identity": for the errors below. */
  protected abstract readonly grantName: string;
  /** Where the credentials may go: both grants present a credential, so the first success pins the authorization server. */
  protected abstract readonly pin: IssuerPin;

  get redirectUrl(): undefined {
    return undefined;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): void {
    this.saved = tokens;
    this.pin.succeeded(ctx?.issuer ?? tokens.issuer);
  }

  /** The authorization server the SDK resolved, checked against the pin before the client information (and so the credential) is used. */
  protected issuerFor(ctx: OAuthClientInformationContext | undefined): { issuer?: string } {
    this.pin.check(ctx?.issuer);
    const issuer = this.pin.current;
    return issuer === undefined ? {} : { issuer };
  }

  redirectToAuthorization(): never {
    // auth() only gets here for an authorization-code grant; reaching it means the authorization server refused the grant outright.
    throw new Error(
      `the authorization server wants a person to sign in, but this server is set to ${this.grantName} (no browser sign-in)`,
    );
  }

  saveCodeVerifier(): void {
    // No authorization-code flow, so no PKCE verifier.
  }

  codeVerifier(): never {
    throw new Error(`${this.grantName}: no PKCE code verifier (there is no authorization-code flow)`);
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
  }
}

/** The token request's `scope`: the one auth() asks for, else the configured one. */
export function withScope(
  params: URLSearchParams,
  asked: string | undefined,
  configured: string | undefined,
): URLSearchParams {
  const wanted = asked ?? configured;
  if (wanted !== undefined && wanted !== '') params.set('scope', wanted);
  return params;
}
