import { OAUTH_SECRET_FIELDS, isSecretHeader, type ServerConfig } from '../../shared/domain/server';

/** Secrets shorter than this would redact ordinary words ("1", "yes"); they are left alone. */
export const MIN_SECRET_LENGTH = 4;
/**
 * A base64 run that only part of a secret decides must be at least this long
 * to be masked on its own: shorter runs would hit ordinary words.
 */
const MIN_BASE64_RUN = 6;

function urlSafe(base64: string): string {
  return base64.replaceAll('+', '-').replaceAll('/', '_');
}

/**
 * The characters of base64 text that depend on `bytes` alone, for each of the
 * three ways the bytes can sit in the encoded data (after 0, 1 or 2 bytes of
 * something else: `id:` of a Basic credential, a JSON prefix). Whatever comes
 * before or after the secret, one of these runs appears in the encoding.
 */
function base64Runs(bytes: Buffer): string[] {
  const runs: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Character i carries bits [6i, 6i+6); the secret's bits are [8·offset, 8·(offset+length)).
    const run = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (run.length >= MIN_BASE64_RUN) runs.push(run);
  }
  return runs;
}

/** `user:password` of a `Basic` credential, when `value` is one. */
function basicCredential(value: string): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)$/i.exec(value);
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  return decoded.includes(':') && !decoded.includes('\uFFFD') ? decoded : undefined;
}

/**
 * Every form in which `secret` may show up in text a server or an
 * authorization server sends back: as it is, JSON-escaped, URL-encoded,
 * base64 (standard and URL-safe, padded or not, and inside a longer base64
 * text such as a `Basic` credential of `id:secret`), and for an
 * `Authorization`-style value (`Bearer xyz`, `Basic …`) the credential alone.
 * Forms shorter than MIN_SECRET_LENGTH are left out.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>();
  const addText = (value: string): void => {
    if (value.length < MIN_SECRET_LENGTH) return;
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(encodeURIComponent(value));
    forms.add(new URLSearchParams({ v: value }).toString().slice(2));
  };
  const addBase64 = (value: string): void => {
    const bytes = Buffer.from(value, 'utf8');
    const padded = bytes.toString('base64');
    for (const base64 of [padded, padded.replace(/=+$/, ''), ...base64Runs(bytes)]) {
      if (base64.length < MIN_SECRET_LENGTH) continue;
      forms.add(base64);
      forms.add(urlSafe(base64));
      forms.add(encodeURIComponent(base64));
    }
  };
  const add = (value: string): void => {
    if (value.length < MIN_SECRET_LENGTH) return;
    addText(value);
    addBase64(value);
  };
  add(secret);
  // `Bearer xyz`, `token xyz`: the credential travels without its scheme too.
  const credential = /^\S+\s+(\S+)$/.exec(secret)?.[1];
  if (credential !== undefined) add(credential);
  const basic = basicCredential(secret);
  if (basic !== undefined) {
    add(basic);
    add(basic.slice(basic.indexOf(':') + 1));
  }
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

/**
 * The plain secret values of one server's config: secret env values, secret
 * header values, OAuth client credentials, and `clientId:clientSecret` (what
 * client_secret_basic sends, base64-encoded).
 */
export function configSecrets(
  config: Pick<ServerConfig, 'env' | 'secretEnv'> & Partial<Pick<ServerConfig, 'headers' | 'secretHeaders' | 'oauth'>>,
): string[] {
  const values: string[] = [];
  for (const key of config.secretEnv) {
    const value = Object.prototype.hasOwnProperty.call(config.env, key) ? config.env[key] : undefined;
    if (value !== undefined) values.push(value);
  }
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    if (isSecretHeader({ secretHeaders: config.secretHeaders ?? [] }, name)) values.push(value);
  }
  for (const field of OAUTH_SECRET_FIELDS) {
    const value = config.oauth?.[field];
    if (value !== undefined) values.push(value);
  }
  const clientId = config.oauth?.clientId;
  const clientSecret = config.oauth?.clientSecret;
  if (clientId !== undefined && clientSecret !== undefined) values.push(`${clientId}:${clientSecret}`);
  return values.filter((value) => value.length >= MIN_SECRET_LENGTH);
}

/** Forms of many secrets, longest first, so a longer form is masked before a shorter one inside it. */
export function formsOfAll(secrets: Iterable<string>): string[] {
  const all = new Set<string>();
  for (const secret of secrets) for (const form of secretForms(secret)) all.add(form);
  return [...all].sort((a, b) => b.length - a.length);
}
