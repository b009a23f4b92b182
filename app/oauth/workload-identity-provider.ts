import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import { readFile } from 'node:fs/promises';
import { IssuerPin } from './issuer-pin';
import { NoPersonOAuthProvider, withScope } from './no-person-provider';
import { errorMessage } from '../../shared/error-message';

/** RFC 7523 §2.1: a JWT used as an authorization grant. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Options for {@linkcode WorkloadIdentityOAuthProvider}. */
export interface WorkloadIdentityOptions {
  clientId: string;
  /** The file holding the workload's identity token (a Kubernetes projected token, a CI job's OIDC token…). */
  assertionFile: string;
  scope?: string;
  /**
   * The authorization server the identity is meant for: its token is
   * presented to no other. The identity token is a bearer credential (another
   * server could replay it while it lives), so, as for a client secret, the
   * first success pins the authorization server when none is entered.
   */
  issuer?: string;
  onIssuerPinned?: (issuer: string) => void;
  readText?: (path: string) => Promise<string>;
}

/**
 * Workload identity federation (SEP-1933): no person and no client secret —
 * the platform Berth runs on issues an identity token, and the authorization
 * server trades it for an access token (the RFC 7523 JWT-bearer grant). The
 * token file is read for every token request, because platforms rotate it
 * in place. A refused grant is reported as it is: switching to another grant
 * or retrying with the same token would not help.
 */
export class WorkloadIdentityOAuthProvider extends NoPersonOAuthProvider implements OAuthClientProvider {
  protected readonly grantName = 'workload identity';
  protected readonly pin: IssuerPin;
  private readonly readText: (path: string) => Promise<string>;

  constructor(private readonly options: WorkloadIdentityOptions) {
    super();
    this.pin = new IssuerPin(options.issuer, options.onIssuerPinned);
    this.readText = options.readText ?? ((path) => readFile(path, 'utf8'));
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Berth',
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT],
      token_endpoint_auth_method: 'none',
      ...(this.options.scope === undefined ? {} : { scope: this.options.scope }),
    };
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation {
    return { client_id: this.options.clientId, ...this.issuerFor(ctx) };
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    let assertion: string;
    try {
      assertion = (await this.readText(this.options.assertionFile)).trim();
    } catch (error) {
      throw new Error(
        `could not read the workload identity token from ${this.options.assertionFile}: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    if (assertion.split('.').length !== 3)
      throw new Error(`${this.options.assertionFile} does not hold a JWT (the workload identity token)`);
    return withScope(new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }), scope, this.options.scope);
  }
}
