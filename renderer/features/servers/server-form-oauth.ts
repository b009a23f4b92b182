import type { OAuthGrant, OAuthSettings, ServerConfig } from '../../../shared/domain';

/** How a client-credentials client proves who it is. */
export type ClientAuthKind = 'secret' | 'key';

/** The OAuth section of the server form: strings as typed; secrets arrive as SECRET_MASK when stored. */
export interface OAuthFormValues {
  grant: OAuthGrant;
  clientId: string;
  /** Client credentials: a secret or a private key; a browser sign-in only ever has a secret. */
  clientAuth: ClientAuthKind;
  clientSecret: string;
  privateKey: string;
  scope: string;
  issuer: string;
  /** Workload identity: the file with the platform's identity token. */
  assertionFile: string;
}

export function emptyOAuthValues(): OAuthFormValues {
  return {
    grant: 'authorization_code',
    clientId: '',
    clientAuth: 'secret',
    clientSecret: '',
    privateKey: '',
    scope: '',
    issuer: '',
    assertionFile: '',
  };
}

export function oauthValuesFromConfig(config: Pick<ServerConfig, 'oauth'>): OAuthFormValues {
  const oauth = config.oauth ?? {};
  return {
    grant: oauth.grant ?? 'authorization_code',
    clientId: oauth.clientId ?? '',
    clientAuth: oauth.privateKey !== undefined ? 'key' : 'secret',
    clientSecret: oauth.clientSecret ?? '',
    privateKey: oauth.privateKey ?? '',
    scope: oauth.scope ?? '',
    issuer: oauth.issuer ?? '',
    assertionFile: oauth.assertionFile ?? '',
  };
}

/** Whether the section holds anything worth showing open when the form opens. */
export function hasOAuthSettings(values: OAuthFormValues): boolean {
  const empty = emptyOAuthValues();
  return (
    values.grant !== empty.grant ||
    [values.clientId, values.clientSecret, values.privateKey, values.scope, values.issuer, values.assertionFile].some(
      (text) => text.trim() !== '',
    )
  );
}

/**
 * The `oauth` config of the form, or undefined when nothing is set (Berth
 * registers itself and the person signs in). Only what the chosen grant and
 * client authentication use is kept, so switching back and forth in the form
 * leaves no stale secret behind; the schema says what is still missing.
 */
export function oauthInput(
  values: OAuthFormValues,
  signingAlgorithm?: OAuthSettings['signingAlgorithm'],
): OAuthSettings | undefined {
  const clientId = values.clientId.trim();
  const scope = values.scope.trim();
  const issuer = values.issuer.trim();
  const workload = values.grant === 'jwt_bearer';
  const useKey = values.grant === 'client_credentials' && values.clientAuth === 'key';
  const secret = useKey || workload ? '' : values.clientSecret;
  const key = useKey ? values.privateKey.trim() : '';
  const assertionFile = workload ? values.assertionFile.trim() : '';
  const settings: OAuthSettings = {
    ...(values.grant === 'authorization_code' ? {} : { grant: values.grant }),
    ...(clientId === '' ? {} : { clientId }),
    ...(secret === '' ? {} : { clientSecret: secret }),
    ...(key === '' ? {} : { privateKey: key, ...(signingAlgorithm === undefined ? {} : { signingAlgorithm }) }),
    ...(scope === '' ? {} : { scope }),
    ...(issuer === '' ? {} : { issuer }),
    ...(assertionFile === '' ? {} : { assertionFile }),
  };
  return Object.keys(settings).length === 0 ? undefined : settings;
}

/** Config paths under `oauth` → the form's field keys. */
export const OAUTH_PATH_TO_FIELD: Record<string, string> = {
  oauth: 'oauth.clientId',
  'oauth.grant': 'oauth.grant',
  'oauth.clientId': 'oauth.clientId',
  'oauth.clientSecret': 'oauth.clientSecret',
  'oauth.privateKey': 'oauth.privateKey',
  'oauth.signingAlgorithm': 'oauth.privateKey',
  'oauth.scope': 'oauth.scope',
  'oauth.issuer': 'oauth.issuer',
  'oauth.assertionFile': 'oauth.assertionFile',
};
