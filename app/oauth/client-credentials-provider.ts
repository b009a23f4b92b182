import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/client';
import { createPrivateKey } from 'node:crypto';
import { IssuerPin } from './issuer-pin';
import { NoPersonOAuthProvider, withScope } from './no-person-provider';
import { errorMessage } from '../../shared/error-message';

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
   * The authorization server these credentials were issued by: they are sent
   * to no other, so a server that names a different authorization server
   * cannot collect the secret. Unset: the first successful token request pins it.
   */
  issuer?: string;
  /** The first success pinned the authorization server (to be remembered in the config). */
  onIssuerPinned?: (issuer: string) => void;
}

/**
 * OAuth for a server Berth reaches as itself, with no person signing in
 * (the `client_credentials` grant, machine to machine): the SDK's `auth()`
 * asks the token endpoint directly whenever a request gets a 401.
 *
 * Berth's own rather than the SDK's ClientCredentialsProvider /
 * PrivateKeyJwtProvider: one class for both client authentications, an
 * issuer pin (entered, or pinned on first success: see IssuerPin), and the
 * key's algorithm derived from the key so the person need not know it.
 */
export class ClientCredentialsOAuthProvider extends NoPersonOAuthProvider implements OAuthClientProvider {
  readonly addClientAuthentication: OAuthClientProvider['addClientAuthentication'];
  protected readonly grantName = 'client credentials';
  protected readonly pin: IssuerPin;

  constructor(private readonly options: ClientCredentialsOptions) {
    super();
    this.pin = new IssuerPin(options.issuer, options.onIssuerPinned);
    if (options.clientSecret === undefined && options.privateKey === undefined)
      throw new Error('client credentials need a client secret or a private key');
    if (options.privateKey !== undefined) {
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: options.clientId,
        subject: options.clientId,
        privateKey: options.privateKey,
        alg: options.signingAlgorithm ?? keyAlgorithm(options.privateKey),
      });
    }
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

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation {
    const { clientId, clientSecret, privateKey } = this.options;
    return {
      client_id: clientId,
      ...(privateKey === undefined && clientSecret !== undefined ? { client_secret: clientSecret } : {}),
      ...this.issuerFor(ctx),
    };
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    return withScope(new URLSearchParams({ grant_type: 'client_credentials' }), scope, this.options.scope);
  }
}

/** The JWS algorithm that fits a PEM private key; the person may name another in the settings. */
export function keyAlgorithm(pem: string): string {
  let key;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new Error(`the OAuth private key is not a PEM private key Berth can read (${errorMessage(error)})`, {
      cause: error,
    });
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
      throw new Error(
        `the OAuth private key is a ${key.asymmetricKeyType ?? 'unknown'} key; use an RSA, EC or Ed25519 key`,
      );
  }
}
