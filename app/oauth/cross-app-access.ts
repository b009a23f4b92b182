import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import {
  CrossAppAccessProvider,
  discoverAndRequestJwtAuthGrant,
  requestJwtAuthorizationGrant,
} from '@modelcontextprotocol/client';

/** The enterprise identity provider a person signed in to, and Berth's client there. */
export interface EnterpriseIdp {
  /** Its issuer URL (its token endpoint is discovered from it unless given). */
  issuer: string;
  tokenEndpoint?: string;
  clientId: string;
  clientSecret?: string;
}

/** Options for {@linkcode crossAppAccessProvider}. */
export interface CrossAppAccessOptions {
  /** Berth's client at the MCP server's authorization server (the enterprise registers it there). */
  clientId: string;
  clientSecret: string;
  idp: EnterpriseIdp;
  /** The person's ID token from their sign-in at the IdP, fresh for each exchange. */
  idToken: () => Promise<string>;
  /** The MCP server's authorization server: its credentials go to no other (SEP-2352 issuer stamp). */
  issuer?: string;
}

/**
 * Cross-app access (Enterprise-Managed Authorization, SEP-990): no consent
 * screen per server. The person's ID token from the company's identity
 * provider is exchanged there for an identity assertion grant (ID-JAG, RFC
 * 8693 token exchange) naming this MCP server, and the server's
 * authorization server trades that for an access token (RFC 7523 JWT
 * bearer). The SDK's CrossAppAccessProvider runs the second leg; Berth
 * supplies the first.
 *
 * Not yet reachable from a server's settings: Berth has no sign-in to an
 * enterprise IdP to get the ID token from. The conformance adapter drives
 * it with the ID token the suite issues.
 */
export function crossAppAccessProvider(options: CrossAppAccessOptions): OAuthClientProvider {
  const { idp } = options;
  return new CrossAppAccessProvider({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    clientName: 'Berth',
    ...(options.issuer === undefined ? {} : { expectedIssuer: options.issuer }),
    assertion: async (context) => {
      const request = {
        audience: context.authorizationServerUrl,
        resource: context.resourceUrl,
        idToken: await options.idToken(),
        clientId: idp.clientId,
        ...(idp.clientSecret === undefined ? {} : { clientSecret: idp.clientSecret }),
        ...(context.scope === undefined ? {} : { scope: context.scope }),
        fetchFn: context.fetchFn,
      };
      const grant =
        idp.tokenEndpoint === undefined
          ? await discoverAndRequestJwtAuthGrant({ idpUrl: idp.issuer, ...request })
          : await requestJwtAuthorizationGrant({ tokenEndpoint: idp.tokenEndpoint, ...request });
      return grant.jwtAuthGrant;
    },
  });
}
