import { isDeepStrictEqual } from 'node:util';
import { applyEdits, findNodeAtLocation, parseTree, type Edit, type Node } from 'jsonc-parser';
import { ServerConfigSchema, type LogLevel, type ServerConfig } from '../../shared/domain/server';
import { isPlainObject, type ConfigDocument } from './config-document';
import { HostError } from '../../shared/result';
import { configError } from '../../shared/domain/config-errors';

// Edits are computed here rather than with jsonc-parser's `modify`: its
// formatter re-indents the whole line an edit starts on, which would rewrite a
// neighbouring (possibly broken) entry that shares the line.

/** Field order of a new entry: Claude Desktop's fields first, then Berth's. */
const FIELD_ORDER = Object.keys(ServerConfigSchema.shape) as (keyof ServerConfig)[];
/** Always written for a local server, even when empty, because other hosts expect them. */
const ALWAYS_WRITTEN = new Set<keyof ServerConfig>(['command', 'args']);

/** How the file indents and ends lines, so inserted text looks hand-written. */
export interface TextStyle {
  /** One level of indentation: a tab or N spaces. */
  unit: string;
  eol: string;
}

/** The value a field has when it is absent from the file. */
function defaultOf(key: keyof ServerConfig): unknown {
  const parsed = ServerConfigSchema.shape[key].safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The JSON written for a server: `command` and `args`, plus only the fields
 * that differ from their defaults, so the file stays readable by hand and by
 * Claude Desktop.
 */
export function serializeServerConfig(config: ServerConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) {
    const value = config[key];
    if (value === undefined) continue;
    // A remote server has no command, so an empty `args` would only be noise.
    const always = ALWAYS_WRITTEN.has(key) && config.url === undefined;
    if (!always && isDeepStrictEqual(value, defaultOf(key))) continue;
    out[key] = value;
  }
  return out;
}

export function detectStyle(text: string): TextStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indented === undefined) return { unit: '  ', eol };
  if (indented.startsWith('\t')) return { unit: '\t', eol };
  return { unit: ' '.repeat(Math.min(indented.length, 8)), eol };
}

/** A fresh file, pretty-printed with 2 spaces. */
export function freshConfigText(servers: Record<string, Record<string, unknown>>): string {
  return `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`;
}

/** One-line JSON with a space after `:` and `,`, the way people write short values. */
function compactJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compactJson).join(', ')}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${compactJson(item)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** Multi-line JSON whose continuation lines start at `indent`. */
function blockJson(value: unknown, indent: string, style: TextStyle): string {
  return JSON.stringify(value, null, style.unit)
    .split('\n')
    .join(style.eol + indent);
}

function lineStart(text: string, offset: number): number {
  let start = offset;
  while (start > 0 && text.charAt(start - 1) !== '\n') start -= 1;
  return start;
}

/** The indentation of the line holding `offset`, and whether `offset` is the first thing on it. */
function lineIndent(text: string, offset: number): { indent: string; startsLine: boolean } {
  const start = lineStart(text, offset);
  const before = text.slice(start, offset);
  const indent = /^[ \t]*/.exec(before)?.[0] ?? '';
  return { indent, startsLine: before.trim() === '' };
}

function end(node: Node): number {
  return node.offset + node.length;
}

function insertProperty(text: string, object: Node, key: string, value: unknown, style: TextStyle): Edit {
  const property = `${JSON.stringify(key)}: `;
  const children = object.children ?? [];
  const first = children[0];
  const last = children[children.length - 1];
  const parentIndent = lineIndent(text, object.offset).indent;
  if (first === undefined || last === undefined) {
    const childIndent = parentIndent + style.unit;
    return {
      offset: object.offset + 1,
      length: object.length - 2,
      content: `${style.eol}${childIndent}${property}${blockJson(value, childIndent, style)}${style.eol}${parentIndent}`,
    };
  }
  // An object written on one line gets the new property on that line too.
  if (!text.slice(object.offset, end(object)).includes('\n')) {
    return { offset: end(last), length: 0, content: `, ${property}${compactJson(value)}` };
  }
  const lastLine = lineIndent(text, last.offset);
  const firstLine = lineIndent(text, first.offset);
  const indent = lastLine.startsLine
    ? lastLine.indent
    : firstLine.startsLine
      ? firstLine.indent
      : parentIndent + style.unit;
  return {
    offset: end(last),
    length: 0,
    content: `,${style.eol}${indent}${property}${blockJson(value, indent, style)}`,
  };
}

function replaceValue(text: string, node: Node, value: unknown, style: TextStyle): Edit {
  const original = text.slice(node.offset, end(node));
  // Keep the person's choice: a value written on one line stays on one line.
  const content = original.includes('\n')
    ? blockJson(value, lineIndent(text, node.offset).indent, style)
    : compactJson(value);
  return { offset: node.offset, length: node.length, content };
}

function removeProperty(object: Node, property: Node): Edit {
  const children = object.children ?? [];
  const index = children.indexOf(property);
  const previous = children[index - 1];
  const next = children[index + 1];
  // Take the separating comma with the entry; from the property's own start so the next one keeps its line.
  if (previous !== undefined) return { offset: end(previous), length: end(property) - end(previous), content: '' };
  if (next !== undefined) return { offset: property.offset, length: next.offset - property.offset, content: '' };
  return { offset: object.offset + 1, length: object.length - 2, content: '' };
}

function propertyOf(object: Node | undefined, key: string): Node | undefined {
  return object?.children?.find((property) => property.children?.[0]?.value === key);
}

function reparse(text: string): Node {
  const root = parseTree(text);
  if (root === undefined) throw new Error('config text stopped parsing while editing it');
  return root;
}

/** Set (or remove, with `undefined`) one property of the object at `path`, re-reading the tree each time. */
function setProperty(text: string, path: string[], key: string, value: unknown, style: TextStyle): string {
  const object = findNodeAtLocation(reparse(text), path);
  if (object === undefined || object.type !== 'object')
    throw new Error(`no object at ${path.join('.')} in the config text`);
  const property = propertyOf(object, key);
  const valueNode = property?.children?.[1];
  if (value === undefined) return property === undefined ? text : applyEdits(text, [removeProperty(object, property)]);
  if (valueNode === undefined) return applyEdits(text, [insertProperty(text, object, key, value, style)]);
  return applyEdits(text, [replaceValue(text, valueNode, value, style)]);
}

/**
 * Write one server's fields into the file text, changing nothing else: keys
 * that already mean the same value keep their exact text, unknown keys stay.
 * With `previousName` the entry's key is renamed in place first.
 */
export function writeServerEntry(
  doc: ConfigDocument,
  name: string,
  config: ServerConfig,
  previousName?: string,
): string {
  const serialized = serializeServerConfig(config);
  if (doc.root === undefined || doc.value === undefined) {
    // Empty file: nothing of the person's to preserve.
    return freshConfigText({ [name]: serialized });
  }
  const style = detectStyle(doc.text);
  let text = doc.text;
  if (!isPlainObject(doc.value.mcpServers)) return setProperty(text, [], 'mcpServers', { [name]: serialized }, style);

  const servers = doc.value.mcpServers;
  const sourceName = previousName ?? name;
  const existing = Object.prototype.hasOwnProperty.call(servers, sourceName) ? servers[sourceName] : undefined;
  if (sourceName !== name && existing !== undefined) {
    const keyNode = propertyOf(findNodeAtLocation(doc.root, ['mcpServers']), sourceName)?.children?.[0];
    if (keyNode === undefined) throw new Error(`config entry "${sourceName}" not found in the syntax tree`);
    text = applyEdits(text, [{ offset: keyNode.offset, length: keyNode.length, content: JSON.stringify(name) }]);
  }
  // A new entry, or one that is not even an object: write it whole.
  if (!isPlainObject(existing)) return setProperty(text, ['mcpServers'], name, serialized, style);

  for (const key of FIELD_ORDER) {
    const raw = Object.prototype.hasOwnProperty.call(existing, key) ? existing[key] : undefined;
    const meaningNow = ServerConfigSchema.shape[key].safeParse(raw);
    if (meaningNow.success && isDeepStrictEqual(meaningNow.data, config[key])) continue;
    text = setProperty(text, ['mcpServers', name], key, serialized[key], style);
  }
  return text;
}

/**
 * Set (or, with `undefined`, remove) only the `logLevel` of an existing entry:
 * the one property's text changes, comments and every other byte stay.
 */
export function writeServerLogLevel(doc: ConfigDocument, name: string, level: LogLevel | undefined): string {
  if (doc.root === undefined) throw new Error('no config text to edit');
  return setProperty(doc.text, ['mcpServers', name], 'logLevel', level, detectStyle(doc.text));
}

/**
 * Set only `oauth.issuer` of a valid entry with OAuth settings and no issuer
 * yet (an authorization server pinned on first use): comments and every
 * other byte stay. A pin never replaces an issuer the person set (`CONFLICT`).
 */
export function writeServerOAuthIssuer(doc: ConfigDocument, name: string, issuer: string): string {
  if (doc.root === undefined) throw new Error('no config text to edit');
  const oauth = doc.ambiguousNames.has(name) ? undefined : doc.servers.get(name)?.oauth;
  if (oauth === undefined)
    throw HostError.coded('NOT_FOUND', configError('config-errors.no-oauth-entry', { name }), 'name');
  if (oauth.issuer !== undefined)
    throw HostError.coded(
      'CONFLICT',
      configError('config-errors.issuer-set', { name, issuer: oauth.issuer }),
      'oauth.issuer',
    );
  return setProperty(doc.text, ['mcpServers', name, 'oauth'], 'issuer', issuer, detectStyle(doc.text));
}

/** Remove one entry (and its separating comma), leaving every other byte in place. */
export function removeServerEntry(doc: ConfigDocument, name: string): string {
  if (doc.root === undefined) return doc.text;
  return setProperty(doc.text, ['mcpServers'], name, undefined, detectStyle(doc.text));
}
