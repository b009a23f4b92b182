import { codedFamily } from './host-wording';

/** Where a secret sits in a server's config: an env variable, a header, or the OAuth client's secret or key. */
export type SecretPlace = 'env' | 'headers' | 'oauth';

/** "the Authorization header": a secret's place in English (`key` is the env or header name, or the OAuth field). */
export function secretPlaceText(section: SecretPlace, key: string): string {
  if (section === 'oauth') return key === 'privateKey' ? 'the OAuth private key' : 'the OAuth client secret';
  return section === 'env' ? key : `the ${key} header`;
}

/** The steps of a sign-in, as the person reads them in an error. */
export type SignInStep = 'discovery' | 'registration' | 'authorization' | 'token';

const STEP_WORDS: Record<SignInStep, string> = {
  discovery: 'finding the authorization server (discovery)',
  registration: 'registering Berth with the authorization server',
  authorization: 'authorization in the browser (consent)',
  token: 'exchanging the code for tokens',
};

/**
 * The failures of signing in to a server (OAuth) and of keeping its secret values, as codes with their
 * facts; the renderer words them from renderer/i18n/locales/<locale>/credential-errors.json. `grant` is
 * the config's OAuth grant, `detail` the secret store's own words, `reason` why a sign-in's step failed (the
 * authorization server's, the SDK's or the browser listener's words, shown as they are).
 */
export type CredentialErrorMessages = {
  'credential-errors.local-server': { server: string };
  'credential-errors.sign-in-failed': { step: SignInStep; reason: string };
  'credential-errors.own-authorization': { server: string };
  'credential-errors.no-person-needed': { server: string; grant: string };
  'credential-errors.no-client-id': { server: string; grant: string };
  'credential-errors.no-token-file': { server: string };
  'credential-errors.store-failed': { server: string; detail: string };
  'credential-errors.mask-without-secret': { section: SecretPlace; key: string; mask: string };
  'credential-errors.stored-secret-missing': { section: SecretPlace; key: string };
};
export type CredentialErrorCode = keyof CredentialErrorMessages;

/** A sign-in's or a secret's failure in English with its code (the English is what Berth always said). */
export const credentialError = codedFamily<CredentialErrorMessages>({
  'credential-errors.local-server': ({ server }) => `server '${server}' is local: there is nothing to sign in to`,
  'credential-errors.sign-in-failed': ({ step, reason }) => `sign-in failed while ${STEP_WORDS[step]}: ${reason}`,
  'credential-errors.own-authorization': ({ server }) =>
    `server '${server}' sends its own Authorization header; remove it from the server's settings to sign in with OAuth`,
  'credential-errors.no-person-needed': ({ server, grant }) =>
    `server '${server}' gets its OAuth tokens without a person (${grant === 'jwt_bearer' ? 'workload identity' : 'client credentials'}): there is nothing to sign in to`,
  'credential-errors.no-client-id': ({ server, grant }) =>
    `server '${server}' is set to OAuth ${grant} but has no client ID`,
  'credential-errors.no-token-file': ({ server }) =>
    `server '${server}' is set to workload identity but names no token file`,
  'credential-errors.store-failed': ({ server, detail }) =>
    `Could not store the secret values of '${server}': ${detail}`,
  'credential-errors.mask-without-secret': ({ section, key, mask }) =>
    `Enter the value of ${secretPlaceText(section, key)}: "${mask}" only stands for a secret Berth already stores`,
  'credential-errors.stored-secret-missing': ({ section, key }) =>
    `Enter the value of ${secretPlaceText(section, key)} again: its stored secret is missing from Berth's secret store`,
});
