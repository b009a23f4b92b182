import { applyEdits, findNodeAtLocation, type Edit } from 'jsonc-parser';
import type { ServerConfig } from '../../shared/domain/server';
import { parseConfigText } from '../config/config-document';

/**
 * How config.json points at a secret: the env value is the whole string
 * `${secret:<id>}`, and the value itself lives in the SecretStore under
 * `<id>`. Berth writes `server/<server name>/env/<KEY>` as the id.
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

/** Where Berth keeps the value of one secret env variable of one server. */
export function serverSecretId(server: string, key: string): string {
  return `server/${server}/env/${key}`;
}

/** Every secret id referred to anywhere in `text` (valid entries or not, so a broken entry's secret is never deleted). */
export function referencedSecretIds(text: string): Set<string> {
  return new Set([...text.matchAll(REF_IN_TEXT)].map((match) => match[1] ?? ''));
}

/** The ids a config refers to, by env key. */
export function configSecretIds(config: Pick<ServerConfig, 'env'>): Map<string, string> {
  const ids = new Map<string, string>();
  for (const [key, value] of Object.entries(config.env)) {
    const id = parseSecretRef(value);
    if (id !== undefined) ids.set(key, id);
  }
  return ids;
}

/** A secret value found in plain text in config.json, to be moved into the store. */
export interface PlainSecret {
  server: string;
  key: string;
  id: string;
  value: string;
}

/**
 * The config text with every plain value of a `secretEnv` key replaced by a
 * reference, and the values that were replaced. Only valid, unambiguous
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
    for (const key of new Set(config.secretEnv)) {
      const value = Object.prototype.hasOwnProperty.call(config.env, key) ? config.env[key] : undefined;
      if (value === undefined || value === '' || parseSecretRef(value) !== undefined) continue;
      const node = findNodeAtLocation(doc.root, ['mcpServers', server, 'env', key]);
      if (node === undefined || node.type !== 'string') continue;
      const id = serverSecretId(server, key);
      moved.push({ server, key, id, value });
      edits.push({ offset: node.offset, length: node.length, content: JSON.stringify(secretRef(id)) });
    }
  }
  return { text: edits.length === 0 ? text : applyEdits(text, edits), moved };
}
