import { findNodeAtLocation, parse, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import type { ConfigProblem } from '../../shared/domain/config';
import { ServerConfigSchema, ServerNameSchema, type ServerConfig } from '../../shared/domain/server';
import { MAX_JSON_DEPTH, tooDeepAt } from './json-depth';
import type { CodedText } from '../../shared/domain/host-wording';
import {
  configProblem,
  nameRuleText,
  typeWords,
  type JsonType,
  type NameRule,
} from '../../shared/domain/config-problems';
import type { NestedReason } from '../../shared/domain/server-state-reasons';
import type { HostMessage } from '../../shared/domain/host-message';

/** Claude Desktop reads the file with JSON.parse: no comments, no trailing commas. */
const STRICT_JSON = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

/** More than this many syntax errors are mostly the parser recovering from the first ones. */
const MAX_SYNTAX_PROBLEMS = 10;

/**
 * One parse of the config file's text. `fatal` problems make the whole file
 * unusable (Berth must not edit it); `entryProblems` each disable one server
 * while the rest of the file stays editable.
 */
export interface ConfigDocument {
  text: string;
  /** Syntax errors or a wrong overall shape: no server loads and no surgical edit is possible. */
  fatal: ConfigProblem[];
  /** Problems confined to single server entries (schema errors, bad names, duplicates). */
  entryProblems: ConfigProblem[];
  /** Valid entries, parsed with defaults applied, in file order. */
  servers: Map<string, ServerConfig>;
  /** Every key under `mcpServers`, valid or not, in file order. */
  names: string[];
  /** Entries with duplicate keys (the name itself, or a field inside): edits to them would be ambiguous. */
  ambiguousNames: Set<string>;
  /** The parsed top-level value (undefined when fatal or empty). */
  value: Record<string, unknown> | undefined;
  /** The syntax tree, for locating nodes when editing (undefined when fatal or empty). */
  root: Node | undefined;
}

/** 1-based line and column (in UTF-16 code units, as editors count) of a 0-based offset. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i += 1) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function previousNonSpace(text: string, offset: number): number {
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text.charAt(i))) i -= 1;
  return i;
}

function syntaxProblem(text: string, error: ParseError): ConfigProblem {
  const code = printParseErrorCode(error.error);
  let offset = error.offset;
  let words: CodedText = configProblem('config-problems.syntax', { error: code });
  const found = text.charAt(error.offset);
  if (error.offset === 0 && text.charCodeAt(0) === 0xfeff) {
    words = configProblem('config-problems.bom', {});
  } else if ((found === '}' || found === ']') && (code === 'PropertyNameExpected' || code === 'ValueExpected')) {
    const before = previousNonSpace(text, error.offset);
    if (before >= 0 && text.charAt(before) === ',') {
      // Point at the comma itself: that is the character the person has to delete.
      offset = before;
      words = configProblem('config-problems.trailing-comma', { found });
    }
  } else if (error.offset >= text.length && code !== 'UnexpectedEndOfString') {
    words = endsEarly(words);
  }
  return coded(words, positionAt(text, offset));
}

/** A syntax problem where the text ends, its own words nested (the foreign-config importer's too). */
export function endsEarly(words: CodedText): CodedText {
  return configProblem('config-problems.ends-early', { reason: words.text }, words.hostMessage);
}

/** A value's JSON type as a fact, for messages like "found a number". */
export function jsonType(value: unknown): JsonType {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return 'number';
}

/** A problem whose message is a config-problems code's English, with the code beside it. */
function coded(words: CodedText, where: Omit<ConfigProblem, 'message' | 'hostMessage'>): ConfigProblem {
  return { message: words.text, hostMessage: words.hostMessage, ...where };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === 'number') current = current[key];
    else if (isPlainObject(current) && typeof key === 'string') current = current[key];
    else return undefined;
  }
  return current;
}

/** The fields of a server entry, in the order problems are listed. */
const SERVER_FIELDS: readonly string[] = Object.keys(ServerConfigSchema.shape);

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The rule of ServerNameSchema a name broke, from the check that failed. */
export function nameRule(issue: z.core.$ZodIssue | undefined): NameRule | undefined {
  if (issue?.code === 'too_small') return 'empty';
  if (issue?.code === 'too_big') return 'tooLong';
  if (issue?.code === 'invalid_format') return 'characters';
  return undefined;
}

/** An entry's schema problem as a code: a field missing or of the wrong type, keys the schema does not know. */
function issueWords(name: string, issue: z.core.$ZodIssue, entry: unknown): CodedText | undefined {
  const key = issue.path.map(String).join('.');
  const found = jsonType(valueAt(entry, issue.path));
  // The schema's own check that a local server names its command (a remote one its url instead).
  if (key === 'command' && found === 'nothing' && issue.code === 'custom')
    return configProblem('config-problems.command-missing', { name });
  if (issue.code === 'invalid_type') {
    if (key === '') return configProblem('config-problems.entry-not-object', { name, found });
    if (found === 'nothing')
      return key === 'command'
        ? configProblem('config-problems.command-missing', { name })
        : configProblem('config-problems.field-missing', { name, key });
    return configProblem('config-problems.wrong-type', { name, key, expected: issue.expected, found });
  }
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((unknown) => `"${unknown}"`).join(', ');
    const count = issue.keys.length;
    return key === ''
      ? configProblem('config-problems.entry-unknown-keys', { name, keys, count })
      : configProblem('config-problems.unknown-keys', { name, key, keys, count });
  }
  return undefined;
}

function issueMessage(issue: z.core.$ZodIssue, entry: unknown): string {
  const key = issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  const label = key === undefined ? 'The entry' : `"${key}"`;
  const actual = valueAt(entry, issue.path);
  if (issue.code === 'invalid_type') {
    if (key === undefined)
      return `The entry must be an object like { "command": "npx", "args": [] } (found ${typeWords(jsonType(actual))})`;
    if (actual === undefined) {
      return key === 'command'
        ? '"command" is missing: enter the command that starts the server (e.g. npx)'
        : `${label} is missing`;
    }
    return `${label} must be ${withArticle(issue.expected)} (found ${typeWords(jsonType(actual))})`;
  }
  if (issue.code === 'invalid_key') return `${label} has an invalid name: ${issue.issues[0]?.message ?? issue.message}`;
  // Messages that already name their field ('"command" is missing: …') stand alone.
  if (issue.message.startsWith(label)) return issue.message;
  return `${label}: ${issue.message}`;
}

/** The node of the deepest existing path prefix, so a missing field points at its entry. */
function locate(
  root: Node | undefined,
  text: string,
  path: readonly (string | number)[],
): { line?: number; column?: number } {
  if (root === undefined) return {};
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = findNodeAtLocation(root, path.slice(0, depth));
    if (node !== undefined) return positionAt(text, node.offset);
  }
  return {};
}

/** Duplicate keys JSON.parse would silently collapse; found per object, with their paths. */
function duplicateKeys(
  node: Node,
  path: (string | number)[],
  out: { path: (string | number)[]; offset: number }[],
): void {
  if (node.type === 'object') {
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const keyNode = property.children?.[0];
      const valueNode = property.children?.[1];
      if (keyNode === undefined || typeof keyNode.value !== 'string') continue;
      const key = keyNode.value;
      if (seen.has(key)) out.push({ path: [...path, key], offset: keyNode.offset });
      seen.add(key);
      if (valueNode !== undefined) duplicateKeys(valueNode, [...path, key], out);
    }
  } else if (node.type === 'array') {
    (node.children ?? []).forEach((child, index) => duplicateKeys(child, [...path, index], out));
  }
}

function fatalDocument(text: string, fatal: ConfigProblem[]): ConfigDocument {
  return {
    text,
    fatal,
    entryProblems: [],
    servers: new Map(),
    names: [],
    ambiguousNames: new Set(),
    value: undefined,
    root: undefined,
  };
}

/** Parse and validate config text without touching the disk. Never throws for bad content. */
export function parseConfigText(text: string): ConfigDocument {
  if (text.trim() === '') {
    // An empty file holds nothing to lose: treat it as an empty config and let the first write fill it.
    return { ...fatalDocument(text, []), value: {} };
  }
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    // Checked before parsing: the parser recurses per level and would overflow the stack.
    return fatalDocument(text, [
      coded(configProblem('config-problems.too-deep', { max: MAX_JSON_DEPTH }), positionAt(text, deep)),
    ]);
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, STRICT_JSON);
  if (errors.length > 0) {
    const seen = new Set<number>();
    const problems: ConfigProblem[] = [];
    for (const error of errors) {
      if (seen.has(error.offset) || problems.length >= MAX_SYNTAX_PROBLEMS) continue;
      seen.add(error.offset);
      problems.push(syntaxProblem(text, error));
    }
    return fatalDocument(text, problems);
  }
  const value: unknown = parse(text, [], STRICT_JSON);
  if (!isPlainObject(value) || root === undefined) {
    return fatalDocument(text, [
      coded(configProblem('config-problems.not-object', { found: jsonType(value) }), { line: 1, column: 1 }),
    ]);
  }

  const duplicates: { path: (string | number)[]; offset: number }[] = [];
  duplicateKeys(root, [], duplicates);
  const duplicateServers = duplicates.filter((d) => d.path[0] === 'mcpServers' && d.path.length >= 2);
  const topLevelDuplicate = duplicates.find((d) => d.path.length === 1 && d.path[0] === 'mcpServers');
  if (topLevelDuplicate !== undefined) {
    return fatalDocument(text, [
      coded(configProblem('config-problems.servers-twice', {}), {
        field: 'mcpServers',
        ...positionAt(text, topLevelDuplicate.offset),
      }),
    ]);
  }

  const serversValue = value.mcpServers;
  if (serversValue !== undefined && !isPlainObject(serversValue)) {
    return fatalDocument(text, [
      coded(configProblem('config-problems.servers-not-object', { found: jsonType(serversValue) }), {
        field: 'mcpServers',
        ...locate(root, text, ['mcpServers']),
      }),
    ]);
  }

  const doc: ConfigDocument = {
    text,
    fatal: [],
    entryProblems: [],
    servers: new Map(),
    names: [],
    ambiguousNames: new Set(),
    value,
    root,
  };
  for (const duplicate of duplicateServers) {
    const name = String(duplicate.path[1]);
    const where = positionAt(text, duplicate.offset);
    doc.ambiguousNames.add(name);
    if (duplicate.path.length === 2) {
      doc.entryProblems.push(
        coded(configProblem('config-problems.name-twice', { name }), { field: `mcpServers.${name}`, ...where }),
      );
    } else {
      const key = duplicate.path.slice(2).map(String).join('.');
      doc.entryProblems.push(
        coded(configProblem('config-problems.key-twice', { key }), { field: `mcpServers.${name}.${key}`, ...where }),
      );
    }
  }

  // Object.keys order matches the file for string keys; numeric-looking names
  // would be reordered, so take the order from the tree.
  const serversNode = findNodeAtLocation(root, ['mcpServers']);
  const seenNames = new Set<string>();
  for (const property of serversNode?.children ?? []) {
    const keyValue: unknown = property.children?.[0]?.value;
    if (typeof keyValue === 'string' && !seenNames.has(keyValue)) {
      seenNames.add(keyValue);
      doc.names.push(keyValue);
    }
  }
  for (const name of doc.names) {
    if (doc.ambiguousNames.has(name)) continue;
    const entry = (serversValue as Record<string, unknown>)[name];
    const nameCheck = ServerNameSchema.safeParse(name);
    if (!nameCheck.success || nameCheck.data !== name) {
      const where = { field: `mcpServers.${name}`, ...locate(root, text, ['mcpServers', name]) };
      const rule = nameCheck.success ? 'spaces' : nameRule(nameCheck.error.issues[0]);
      const reason = nameCheck.success
        ? nameRuleText('spaces')
        : (nameCheck.error.issues[0]?.message ?? 'invalid name');
      const words = rule === undefined ? undefined : configProblem('config-problems.name-not-allowed', { name, rule });
      doc.entryProblems.push(
        words?.text === `The server name "${name}" is not allowed: ${reason}`
          ? coded(words, where)
          : { message: `The server name "${name}" is not allowed: ${reason}`, ...where },
      );
      continue;
    }
    const parsed = ServerConfigSchema.safeParse(entry);
    if (parsed.success) {
      doc.servers.set(name, parsed.data);
      continue;
    }
    // In the schema's field order (command first), whichever check found the problem.
    const fieldRank = (issue: z.core.$ZodIssue): number => {
      const rank = SERVER_FIELDS.indexOf(String(issue.path[0]));
      return rank === -1 ? SERVER_FIELDS.length : rank;
    };
    for (const issue of [...parsed.error.issues].sort((a, b) => fieldRank(a) - fieldRank(b))) {
      const path = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
      const where = {
        field: ['mcpServers', name, ...path].join('.'),
        ...locate(root, text, ['mcpServers', name, ...path]),
      };
      const message = `Server "${name}": ${issueMessage(issue, entry)}`;
      const words = issueWords(name, issue, entry);
      // The code only where its English is the message word for word (a library's own words stay as they are).
      doc.entryProblems.push(words?.text === message ? coded(words, where) : { message, ...where });
    }
  }
  return doc;
}

/** Problems of a document in the order a person should fix them. */
export function documentProblems(doc: ConfigDocument): ConfigProblem[] {
  return doc.fatal.length > 0 ? doc.fatal : doc.entryProblems;
}

/** The first problem, for error messages: its words (nested, with their code), where it is, how many follow. */
export interface FirstProblem {
  at: { line: number; column: number } | undefined;
  more: number;
  reason: NestedReason;
  /** The problem's code, nested as the outer message's cause. */
  cause: HostMessage | undefined;
}

export function firstProblem(problems: readonly ConfigProblem[]): FirstProblem | undefined {
  const first = problems[0];
  if (first === undefined) return undefined;
  return {
    at: first.line !== undefined ? { line: first.line, column: first.column ?? 1 } : undefined,
    more: problems.length - 1,
    reason: { reason: first.message },
    cause: first.hostMessage,
  };
}
