import type { OAuthClientMetadata, OAuthClientProvider, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/client';
import { createPrivateKey } from 'node:crypto';

/** Options for {@linkcode ClientCredentialsOAuthProvider}. */
export interface ClientCredentialsOptions {
  clientId: string;
  /** client_secret_basic (or _post, as the authorization server prefers). */
  clientSecret?: string;
  /** private_key_jwt (RFC 7523 §2.2): a PEM private key; wins over a secret. */
  privateKey?: string;
  /** The key's JWS algorithm; unset: derived from the key (RS256, ES256/384/512, EdDSA). */
  signingAlgorithm?: string;
  scope?: string;
  /**
   * The authorization server these credentials were issued by. When set, the
   * SDK refuses to send them to any other (SEP-2352's issuer stamp): a server
   * that names a different authorization server cannot collect the secret.
   */
  issuer?: string;
}

/**
 * OAuth for a server Berth reaches as itself, with no person signing in
 * (the `client_credentials` grant, machine to machine): the SDK's `auth()`
 * asks the token endpoint directly whenever a request gets a 401. Tokens are
 * kept in memory only; a new start simply asks for a new one.
 *
 * Berth's own rather than the SDK's ClientCredentialsProvider /
 * PrivateKeyJwtProvider: one class for both client authentications, an
 * optional issuer pin (the SDK's warns on the console without one), and the
 * key's algorithm derived from the key so the person need not know it.
 */
export class ClientCredentialsOAuthProvider implements OAuthClientProvider {
  readonly addClientAuthentication: OAuthClientProvider['addClientAuthentication'];
  private saved: StoredOAuthTokens | undefined;

  constructor(private readonly options: ClientCredentialsOptions) {
    if (options.clientSecret === undefined && options.privateKey === undefined) throw new Error('client credentials need a client secret or a private key');
    if (options.privateKey !== undefined) {
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: options.clientId,
        subject: options.clientId,
        privateKey: options.privateKey,
        alg: options.signingAlgorithm ?? keyAlgorithm(options.privateKey),
      });
    }
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Berth',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: this.options.privateKey === undefined ? 'client_secret_basic' : 'private_key_jwt',
      ...(this.options.scope === undefined ? {} : { scope: this.options.scope }),
    };
  }

  clientInformation(): StoredOAuthClientInformation {
    const { clientId, clientSecret, privateKey, issuer } = this.options;
    return {
      client_id: clientId,
      ...(privateKey === undefined && clientSecret !== undefined ? { client_secret: clientSecret } : {}),
      ...(issuer === undefined ? {} : { issuer }),
    };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    const wanted = scope ?? this.options.scope;
    if (wanted !== undefined && wanted !== '') params.set('scope', wanted);
    return params;
  }

  redirectToAuthorization(): never {
    // auth() only gets here for an authorization-code grant; reaching it means the authorization server refused the credentials outright.
    throw new Error('the authorization server wants a person to sign in, but this server is set to client credentials (no browser sign-in)');
  }

  saveCodeVerifier(): void {
    // No authorization-code flow, so no PKCE verifier.
  }

  codeVerifier(): never {
    throw new Error('client credentials use no PKCE code verifier');
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
  }
}

/** The JWS algorithm that fits a PEM private key; the person may name another in the settings. */
export function keyAlgorithm(pem: string): string {
  let key;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new Error(`the OAuth private key is not a PEM private key Berth can read (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return 'RS256';
    case 'rsa-pss':
      return 'PS256';
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      return curve === 'secp384r1' ? 'ES384' : curve === 'secp521r1' ? 'ES512' : 'ES256';
    }
    case 'ed25519':
      return 'EdDSA';
    default:
      throw new Error(`the OAuth private key is a ${key.asymmetricKeyType ?? 'unknown'} key; use an RSA, EC or Ed25519 key`);
  }
}
