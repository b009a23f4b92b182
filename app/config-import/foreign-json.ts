import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { ConfigProblem } from '../../shared/domain/config';
import { configImportError } from '../../shared/domain/config-import-errors';
import { configProblem } from '../../shared/domain/config-problems';
import type { CodedText } from '../../shared/domain/host-wording';
import { endsEarly, isPlainObject, jsonType, positionAt } from '../config/config-document';
import { MAX_JSON_DEPTH, tooDeepAt } from '../config/json-depth';

/** More than this many syntax errors are mostly the parser recovering from the first ones. */
const MAX_SYNTAX_PROBLEMS = 10;

// Berth's own config messages, but the comment rule is said of "this file", not of Claude Desktop's format.
function parserWords(code: string): CodedText {
  if (code === 'InvalidCommentToken') return configImportError('config-import-errors.comment', {});
  if (code === 'UnexpectedEndOfComment') return configImportError('config-import-errors.comment-not-closed', {});
  return configProblem('config-problems.syntax', { error: code });
}

/** A parsed foreign file: either its value and tree, or the fatal problems. */
export type ParsedJson =
  { ok: true; value: Record<string, unknown>; root: Node } | { ok: false; problems: ConfigProblem[] };

function syntaxProblem(text: string, error: ParseError, jsonc: boolean): ConfigProblem {
  const code = printParseErrorCode(error.error);
  let offset = error.offset;
  let words = parserWords(code);
  const found = text.charAt(error.offset);
  if (error.offset === 0 && text.charCodeAt(0) === 0xfeff) {
    words = configProblem('config-problems.bom', {});
  } else if (
    !jsonc &&
    (found === '}' || found === ']') &&
    (code === 'PropertyNameExpected' || code === 'ValueExpected')
  ) {
    let before = error.offset - 1;
    while (before >= 0 && /\s/.test(text.charAt(before))) before -= 1;
    if (text.charAt(before) === ',') {
      // Point at the comma: it is the character the person has to delete.
      offset = before;
      words = configImportError('config-import-errors.trailing-comma', { found });
    }
  } else if (error.offset >= text.length && code !== 'UnexpectedEndOfString') {
    words = endsEarly(words);
  }
  return { ...coded(words), ...positionAt(text, offset) };
}

/** A whole-file problem in English with its code, at the file's start. */
function atStart(words: CodedText): ConfigProblem {
  return { ...coded(words), line: 1, column: 1 };
}

function coded(words: CodedText): ConfigProblem {
  return { message: words.text, hostMessage: words.hostMessage };
}

/**
 * Parse a foreign config file. `jsonc` allows comments and trailing commas
 * (VS Code's reader does); the others are read with JSON.parse by their apps.
 */
export function parseForeignJson(text: string, jsonc: boolean): ParsedJson {
  if (text.trim() === '')
    return { ok: false, problems: [atStart(configImportError('config-import-errors.file-empty', {}))] };
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    // The parser recurses per level: a hostile file of nested brackets would overflow the stack.
    return {
      ok: false,
      problems: [
        { ...coded(configProblem('config-problems.too-deep', { max: MAX_JSON_DEPTH })), ...positionAt(text, deep) },
      ],
    };
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, {
    disallowComments: !jsonc,
    allowTrailingComma: jsonc,
    allowEmptyContent: false,
  });
  if (errors.length > 0 || root === undefined) {
    const seen = new Set<number>();
    const problems: ConfigProblem[] = [];
    for (const error of errors) {
      if (seen.has(error.offset) || problems.length >= MAX_SYNTAX_PROBLEMS) continue;
      seen.add(error.offset);
      problems.push(syntaxProblem(text, error, jsonc));
    }
    return { ok: false, problems };
  }
  const value = nodeValue(root);
  if (!isPlainObject(value)) {
    return {
      ok: false,
      problems: [atStart(configImportError('config-import-errors.file-not-object', { found: jsonType(value) }))],
    };
  }
  return { ok: true, value, root };
}

/** The value of a tree node; with duplicate keys the last one wins, as JSON.parse does. */
function nodeValue(node: Node): unknown {
  if (node.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (keyNode !== undefined && typeof keyNode.value === 'string' && valueNode !== undefined) {
        Object.defineProperty(out, keyNode.value, {
          value: nodeValue(valueNode),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return out;
  }
  if (node.type === 'array') return (node.children ?? []).map(nodeValue);
  return node.value as unknown;
}

/** Keys of the object at `path`, in file order, with the offsets of keys seen more than once. */
export function keysAt(
  root: Node,
  path: readonly (string | number)[],
): { keys: string[]; repeated: Map<string, number> } {
  const node = findNodeAtLocation(root, [...path]);
  const keys: string[] = [];
  const repeated = new Map<string, number>();
  for (const property of node?.type === 'object' ? (node.children ?? []) : []) {
    const keyNode = property.children?.[0];
    if (keyNode === undefined || typeof keyNode.value !== 'string') continue;
    if (keys.includes(keyNode.value)) {
      if (!repeated.has(keyNode.value)) repeated.set(keyNode.value, keyNode.offset);
    } else {
      keys.push(keyNode.value);
    }
  }
  return { keys, repeated };
}

/** Line and column of the deepest existing prefix of `path`, so a missing field points at its entry. */
export function locate(
  root: Node,
  text: string,
  path: readonly (string | number)[],
): { line?: number; column?: number } {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = findNodeAtLocation(root, path.slice(0, depth));
    if (node !== undefined) return positionAt(text, node.offset);
  }
  return {};
}
