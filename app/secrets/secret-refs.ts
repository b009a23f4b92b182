import { applyEdits, findNodeAtLocation, type Edit } from 'jsonc-parser';
import { OAUTH_SECRET_FIELDS, isSecretHeader, type ServerConfig } from '../../shared/domain/server';
import { parseConfigText } from '../config/config-document';
import { secretPlaceText, type SecretPlace } from '../../shared/domain/credential-errors';

/**
 * How config.json points at a secret: the env value is the whole string
 * `${secret:<id>}`, and the value itself lives in the SecretStore under
 * `<id>`. Berth writes `server/<server name>/env/<KEY>` as the id, and
 * `server/<server name>/header/<Name>` for a remote server's secret header,
 * and `server/<server name>/oauth/<field>` for its OAuth client secret or
 * private key (`oauth.clientSecret`, `oauth.privateKey`).
 *
 * Why a value and not a separate field: the entry keeps Claude Desktop's
 * shape (`env` stays a map of strings, so `env` still lists every variable
 * the server gets), a reader sees at a glance which values are kept
 * elsewhere and under which name, and the `${…}` form is the one VS Code's
 * mcp.json already uses for values filled in at launch (`${input:…}`).
 * Spelling out the full id (rather than "this server's KEY") keeps the file
 * honest about where the value is: an entry copied by hand still works, and
 * removing one server keeps a secret another entry still refers to.
 */
const REF_PATTERN = /^\$\{secret:([^{}]+)\}$/;
/** The same, anywhere in a text (config.json as written, JSON-escaped or not). */
const REF_IN_TEXT = /\$\{secret:([^{}"\\]+)\}/g;

/** The reference text that stands for the secret `id`. */
export function secretRef(id: string): string {
  return `\${secret:${id}}`;
}

/** The secret id a value refers to, or undefined for a plain value. */
export function parseSecretRef(value: string): string | undefined {
  return REF_PATTERN.exec(value)?.[1];
}

/** Where a secret sits in a server's config: an env value (stdio), a header value or an OAuth client credential (remote). */
export type SecretSection = SecretPlace;
const SECTIONS: readonly SecretSection[] = ['env', 'headers', 'oauth'];
const SECTION_ID: Record<SecretSection, string> = { env: 'env', headers: 'header', oauth: 'oauth' };

/** Where Berth keeps the value of one secret env variable (or header) of one server. */
export function serverSecretId(server: string, key: string, section: SecretSection = 'env'): string {
  return `server/${server}/${SECTION_ID[section]}/${key}`;
}

/** One referenced secret of a config. */
export interface SecretSlot {
  section: SecretSection;
  key: string;
  id: string;
}

/** "API_KEY", "the Authorization header": how a person recognises a slot. */
export function slotLabel(slot: Pick<SecretSlot, 'section' | 'key'>): string {
  return secretPlaceText(slot.section, slot.key);
}

/** A config's section as a string record (`oauth` is optional and has optional fields). */
export type SecretSections = Pick<ServerConfig, 'env'> & Partial<Pick<ServerConfig, 'headers' | 'oauth'>>;
export function sectionValues(config: SecretSections, section: SecretSection): Record<string, string> {
  const values: Record<string, string | undefined> = config[section] ?? {};
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** Whether `key` of `section` holds a secret in this config. */
export function isSecretSlot(
  config: Pick<ServerConfig, 'secretEnv' | 'secretHeaders'>,
  section: SecretSection,
  key: string,
): boolean {
  if (section === 'env') return config.secretEnv.includes(key);
  if (section === 'headers') return isSecretHeader(config, key);
  return (OAUTH_SECRET_FIELDS as readonly string[]).includes(key);
}

/** Every secret id referred to anywhere in `text` (valid entries or not, so a broken entry's secret is never deleted). */
export function referencedSecretIds(text: string): Set<string> {
  return new Set([...text.matchAll(REF_IN_TEXT)].map((match) => match[1] ?? ''));
}

/** The references a config holds, env values and header values alike. */
export function configSecretSlots(config: SecretSections): SecretSlot[] {
  const slots: SecretSlot[] = [];
  for (const section of SECTIONS) {
    for (const [key, value] of Object.entries(sectionValues(config, section))) {
      const id = parseSecretRef(value);
      if (id !== undefined) slots.push({ section, key, id });
    }
  }
  return slots;
}

/** A secret value found in plain text in config.json, to be moved into the store. */
export interface PlainSecret {
  server: string;
  section: SecretSection;
  key: string;
  id: string;
  value: string;
}

/**
 * The config text with every plain value of a `secretEnv` key (or of a
 * secret header) replaced by a reference, and the values that were replaced. Only valid, unambiguous
 * entries are touched, and only the value strings change: every other byte
 * (comments, layout, unknown keys) stays. A file with fatal problems is left
 * as it is.
 */
export function extractPlainSecrets(text: string): { text: string; moved: PlainSecret[] } {
  const doc = parseConfigText(text);
  if (doc.fatal.length > 0 || doc.root === undefined) return { text, moved: [] };
  const moved: PlainSecret[] = [];
  const edits: Edit[] = [];
  for (const [server, config] of doc.servers) {
    if (doc.ambiguousNames.has(server)) continue;
    const slots: Array<[SecretSection, string]> = [
      ...[...new Set(config.secretEnv)].map((key): [SecretSection, string] => ['env', key]),
      ...Object.keys(config.headers)
        .filter((name) => isSecretHeader(config, name))
        .map((name): [SecretSection, string] => ['headers', name]),
      ...OAUTH_SECRET_FIELDS.map((field): [SecretSection, string] => ['oauth', field]),
    ];
    for (const [section, key] of slots) {
      const values = sectionValues(config, section);
      const value = Object.prototype.hasOwnProperty.call(values, key) ? values[key] : undefined;
      if (value === undefined || value === '' || parseSecretRef(value) !== undefined) continue;
      const node = findNodeAtLocation(doc.root, ['mcpServers', server, section, key]);
      if (node === undefined || node.type !== 'string') continue;
      const id = serverSecretId(server, key, section);
      moved.push({ server, section, key, id, value });
      edits.push({ offset: node.offset, length: node.length, content: JSON.stringify(secretRef(id)) });
    }
  }
  return { text: edits.length === 0 ? text : applyEdits(text, edits), moved };
}
