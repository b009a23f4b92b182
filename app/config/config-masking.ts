import { applyEdits, getNodePath, parseTree, type Edit, type Node } from 'jsonc-parser';
import type { ConfigProblem } from '../../shared/domain/config';
import { OAUTH_SECRET_FIELDS, SECRET_MASK, isSecretHeader } from '../../shared/domain/server';
import { positionAt } from './config-document';
import { tooDeepAt } from './json-depth';

/**
 * An invalid config.json goes to the renderer's fix-it editor as text, and its
 * plain secret values (Berth moves them to the secret store only from a valid
 * file) must not go with it. These functions find the secret slots of the
 * text with a tolerant parse (syntax errors and all), replace their values
 * with SECRET_MASK, and, when the person saves, put the values back from the
 * file on disk, so fixing the file loses no secret.
 */

/** A secret value in config text: `mcpServers.<server>.<section>.<key>`. */
export interface SecretSlot {
  server: string;
  section: 'env' | 'headers' | 'oauth';
  key: string;
  /** The value's JSON text as written (quotes and escapes included). */
  raw: string;
  offset: number;
  length: number;
}

/** Recovering from syntax errors as far as the parser can; comments and trailing commas are read, not refused. */
const TOLERANT = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true } as const;
const REFERENCE = /^\$\{secret:[^{}]+\}$/;

function tolerantTree(text: string): Node | undefined {
  if (tooDeepAt(text) !== undefined) return undefined;
  return parseTree(text, [], TOLERANT);
}

/** `key → value node` of an object node, every duplicate included. */
function properties(node: Node | undefined): Array<[string, Node]> {
  if (node?.type !== 'object') return [];
  const out: Array<[string, Node]> = [];
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (typeof keyNode?.value === 'string' && valueNode !== undefined) out.push([keyNode.value, valueNode]);
  }
  return out;
}

function stringsOf(node: Node | undefined): string[] {
  return node?.type === 'array'
    ? (node.children ?? []).flatMap((child) => (typeof child.value === 'string' ? [child.value] : []))
    : [];
}

/** The secret values (plain, not `${secret:…}` references) of every entry the text holds, valid or not. */
export function findSecretSlots(text: string): SecretSlot[] {
  const slots: SecretSlot[] = [];
  for (const [top, servers] of properties(tolerantTree(text))) {
    if (top !== 'mcpServers') continue;
    for (const [server, entry] of properties(servers)) {
      const fields = properties(entry);
      const secretEnv = fields.filter(([name]) => name === 'secretEnv').flatMap(([, node]) => stringsOf(node));
      const secretHeaders = fields.filter(([name]) => name === 'secretHeaders').flatMap(([, node]) => stringsOf(node));
      const isSecret = (section: SecretSlot['section'], key: string): boolean =>
        section === 'env'
          ? secretEnv.includes(key)
          : section === 'headers'
            ? isSecretHeader({ secretHeaders }, key)
            : (OAUTH_SECRET_FIELDS as readonly string[]).includes(key);
      for (const [section, values] of fields) {
        if (section !== 'env' && section !== 'headers' && section !== 'oauth') continue;
        for (const [key, node] of properties(values)) {
          if (
            node.type !== 'string' ||
            typeof node.value !== 'string' ||
            node.value === '' ||
            node.value === SECRET_MASK ||
            REFERENCE.test(node.value)
          )
            continue;
          if (!isSecret(section, key)) continue;
          slots.push({
            server,
            section,
            key,
            raw: text.slice(node.offset, node.offset + node.length),
            offset: node.offset,
            length: node.length,
          });
        }
      }
    }
  }
  return slots;
}

/** The text with every secret slot's value replaced by SECRET_MASK, and the slots found. */
export function maskSecretSlots(text: string): { text: string; slots: SecretSlot[] } {
  const slots = findSecretSlots(text);
  if (slots.length === 0) return { text, slots };
  const edits: Edit[] = slots.map((slot) => ({
    offset: slot.offset,
    length: slot.length,
    content: JSON.stringify(SECRET_MASK),
  }));
  return { text: applyEdits(text, edits), slots };
}

/** "API_KEY of "github"", "the Authorization header of "api"". */
function describeSlot(slot: Pick<SecretSlot, 'server' | 'section' | 'key'>): string {
  const what =
    slot.section === 'env' ? slot.key : slot.section === 'headers' ? `the ${slot.key} header` : `oauth.${slot.key}`;
  return `${what} of "${slot.server}"`;
}

/** The log's warning about an invalid file that holds plain secret values (named, never shown). */
export function hiddenSecretsWarning(filePath: string, slots: readonly SecretSlot[]): string {
  const one = slots.length === 1;
  return `${filePath} has errors and holds ${slots.length} secret value${one ? '' : 's'} in plain text (${slots.map(describeSlot).join(', ')}); the editor shows ${one ? 'it' : 'them'} masked, and Berth moves ${one ? 'it' : 'them'} to its secret store once the file is valid`;
}

/** Every string node of a tree whose value is exactly the mask. */
function maskNodes(node: Node | undefined, out: Node[] = []): Node[] {
  if (node === undefined) return out;
  if (node.type === 'string' && node.value === SECRET_MASK) out.push(node);
  for (const child of node.children ?? []) maskNodes(child, out);
  return out;
}

/**
 * The text the fix-it editor saves, with every SECRET_MASK put back to the
 * value it hides in `original` (the file on disk): at the same place, or,
 * when the entry was renamed, the only hidden value of the same key in an
 * entry whose name is gone. `originals`: the file on disk, then the text the
 * editor was shown, if different. A mask with no value to put back is a problem,
 * and the text is not to be written: the mask would replace the secret.
 */
export function unmaskSecretSlots(
  submitted: string,
  originals: readonly string[],
): { text: string; problems: ConfigProblem[] } {
  if (!submitted.includes(SECRET_MASK)) return { text: submitted, problems: [] };
  const root = tolerantTree(submitted);
  // The first original that has a slot wins (the file on disk before the text the editor was shown).
  const hidden = originals.flatMap((original) => findSecretSlots(original));
  const submittedNames = new Set(
    properties(root).flatMap(([top, servers]) =>
      top === 'mcpServers' ? properties(servers).map(([name]) => name) : [],
    ),
  );
  const edits: Edit[] = [];
  const problems: ConfigProblem[] = [];
  for (const node of maskNodes(root)) {
    const path = getNodePath(node);
    const [top, server, section, key] = path;
    let found: SecretSlot | undefined;
    if (path.length === 4 && top === 'mcpServers' && typeof server === 'string' && typeof key === 'string') {
      found = hidden.find((slot) => slot.server === server && slot.section === section && slot.key === key);
      if (found === undefined) {
        const moved = new Map(
          hidden
            .filter((slot) => slot.section === section && slot.key === key && !submittedNames.has(slot.server))
            .map((slot) => [slot.server, slot]),
        );
        if (moved.size === 1) found = [...moved.values()][0];
      }
    }
    if (found !== undefined) {
      edits.push({ offset: node.offset, length: node.length, content: found.raw });
      continue;
    }
    const where =
      typeof server === 'string' && typeof key === 'string' && path.length === 4
        ? describeSlot({ server, section: section as SecretSlot['section'], key })
        : 'this value';
    problems.push({
      message: `"${SECRET_MASK}" stands for a hidden secret, but Berth has no value to put back for ${where}: type the value again`,
      ...positionAt(submitted, node.offset),
    });
  }
  const text = edits.length === 0 ? submitted : applyEdits(submitted, edits);
  if (problems.length === 0 && text.includes(SECRET_MASK)) {
    problems.push({
      message: `"${SECRET_MASK}" stands for a hidden secret and cannot be part of a longer value: type the value again`,
      ...positionAt(submitted, submitted.indexOf(SECRET_MASK)),
    });
  }
  return { text, problems };
}
