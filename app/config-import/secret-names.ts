/**
 * Env names that usually carry credentials. Matched on `_`-separated words so
 * that e.g. `KEYBOARD_LAYOUT` or `PATH` are not taken for secrets.
 */
const SECRET_NAME =
  /(?:^|_)(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|KEY|APIKEY|API_KEY|PAT|AUTH|AUTHORIZATION|COOKIE|SESSION|PRIVATE)(?:_|$)|TOKEN|SECRET|PASSWORD|APIKEY/i;

/** True when an env key's name suggests its value is a secret (GITHUB_TOKEN, OPENAI_API_KEY…). */
export function looksSecret(envKey: string): boolean {
  return SECRET_NAME.test(envKey);
}

/** The same for an HTTP header name (X-Api-Token, X-Auth-Key…): its dashes read as underscores. */
export function looksSecretHeader(name: string): boolean {
  return looksSecret(name.replaceAll('-', '_'));
}
