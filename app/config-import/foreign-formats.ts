import type { Node } from 'jsonc-parser';
import type { z } from 'zod';
import { ForeignFormatSchema } from '../../shared/contract/config-import';
import type { ConfigProblem } from '../../shared/domain/config';
import { configImportError } from '../../shared/domain/config-import-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { ServerConfigSchema, type ServerConfig } from '../../shared/domain/server';
import { isPlainObject, jsonType, positionAt } from '../config/config-document';
import { keysAt, locate, parseForeignJson } from './foreign-json';
import { looksSecret } from './secret-names';
import { uniqueServerName } from './server-names';

/** The foreign files Berth can import (the contract's list, so the bridge and the parser agree). */
export const FOREIGN_FORMATS = ForeignFormatSchema.options;
/** `claude-code` is a project's `.mcp.json`; `vscode` is VS Code's `mcp.json` (user or `.vscode/`). */
export type ForeignFormat = (typeof FOREIGN_FORMATS)[number];

/** A problem found while reading a foreign file; `field` is a dotted path such as `servers.github.args.0`. */
export type ImportProblem = ConfigProblem;

/** A VS Code `inputs` entry: a value the person is asked for when the server is imported. */
export interface InputPrompt {
  id: string;
  type: 'promptString' | 'pickString';
  description: string;
  /** The answer is a secret: env values using it are stored as secrets. */
  password: boolean;
  /** pickString choices. */
  options?: string[];
  default?: string;
}

/** One server found in a foreign file, ready for the preview. */
export interface ImportCandidate {
  /** The file the candidate came from; decides which `${…}` variables apply. */
  format: ForeignFormat;
  /** The key in the foreign file. */
  sourceName: string;
  /** `sourceName` made valid for ServerNameSchema and unique within the file. */
  name: string;
  kind: 'stdio' | 'remote';
  /** stdio only: the entry as a Berth config; strings may still hold `${input:…}`/`${env:…}` placeholders. */
  config?: ServerConfig;
  /** remote only; strings may still hold placeholders. */
  url?: string;
  headers?: Record<string, string>;
  /** remote only: the file's `type` when it names an HTTP transport. */
  transportType?: 'http' | 'sse';
  /** Why the candidate cannot be imported yet (e.g. remote servers before the HTTP transport). */
  unsupported?: string;
  /** Env keys whose values come from a password input or whose names look secret. */
  secretEnvKeys: string[];
  /** Ids of the inputs its strings refer to, in first-use order. */
  requiredInputs: string[];
}

/** What a foreign file holds. A malformed file yields problems and no servers or inputs. */
export interface ImportPreview {
  format: ForeignFormat;
  servers: ImportCandidate[];
  inputs: InputPrompt[];
  problems: ImportProblem[];
}

const INPUT_REF = /\$\{input:([^}]*)\}/g;

interface Context {
  format: ForeignFormat;
  text: string;
  root: Node;
  problems: ImportProblem[];
  /** Every declared input id (valid or not) → the parsed input, when valid. */
  inputs: Map<string, InputPrompt | undefined>;
}

/** A problem in English with its code (the renderer words the code), at a place in the file. */
function problemAt(ctx: Context, path: readonly (string | number)[], words: CodedText): ImportProblem {
  return {
    message: words.text,
    hostMessage: words.hostMessage,
    field: path.join('.'),
    ...locate(ctx.root, ctx.text, path),
  };
}

/** A remote entry's `headers`: an object of strings. */
function headerRecord(ctx: Context, value: unknown, path: (string | number)[]): Record<string, string> | undefined {
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    ctx.problems.push(
      problemAt(ctx, path, configImportError('config-import-errors.headers-not-object', { found: jsonType(value) })),
    );
    return undefined;
  }
  let valid = true;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') {
      ctx.problems.push(
        problemAt(
          ctx,
          [...path, key],
          configImportError('config-import-errors.header-not-string', { key, found: jsonType(item) }),
        ),
      );
      valid = false;
    }
  }
  return valid ? (value as Record<string, string>) : undefined;
}

/** A schema issue of an entry named `server` in the file; the schema's own words stay its `detail`. */
function issueWords(server: string, issue: z.core.$ZodIssue): CodedText {
  const key = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type')
    return configImportError('config-import-errors.wrong-type', { server, key, expected: issue.expected });
  if (issue.code === 'invalid_key')
    return configImportError('config-import-errors.invalid-key', {
      server,
      key,
      detail: issue.issues[0]?.message ?? issue.message,
    });
  return key === ''
    ? configImportError('config-import-errors.invalid-entry', { server, detail: issue.message })
    : configImportError('config-import-errors.invalid-field', { server, key, detail: issue.message });
}

function collectInputRefs(strings: readonly string[]): string[] {
  const ids: string[] = [];
  for (const text of strings) {
    for (const match of text.matchAll(INPUT_REF)) {
      const id = match[1] ?? '';
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

/** Read one server entry; pushes problems and returns undefined when it cannot be listed. */
function readEntry(
  ctx: Context,
  path: string[],
  sourceName: string,
  entry: unknown,
): Omit<ImportCandidate, 'name'> | undefined {
  const server = sourceName;
  if (!isPlainObject(entry)) {
    ctx.problems.push(
      problemAt(
        ctx,
        path,
        configImportError('config-import-errors.entry-not-object', { server, found: jsonType(entry) }),
      ),
    );
    return undefined;
  }
  const type = entry.type;
  if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'sse') {
    ctx.problems.push(
      problemAt(
        ctx,
        [...path, 'type'],
        configImportError('config-import-errors.type-unknown', { server, found: JSON.stringify(type) }),
      ),
    );
    return undefined;
  }
  const remote =
    type === 'http' || type === 'sse' || (type === undefined && entry.url !== undefined && entry.command === undefined);
  let strings: string[];
  let draft: Omit<ImportCandidate, 'name' | 'requiredInputs' | 'secretEnvKeys'>;
  if (remote) {
    if (typeof entry.url !== 'string' || entry.url.trim() === '') {
      ctx.problems.push(
        problemAt(
          ctx,
          [...path, 'url'],
          configImportError('config-import-errors.url-missing', { server, found: jsonType(entry.url) }),
        ),
      );
      return undefined;
    }
    const headers = headerRecord(ctx, entry.headers, [...path, 'headers']);
    if (headers === undefined) return undefined;
    strings = [entry.url, ...Object.values(headers)];
    draft = {
      format: ctx.format,
      sourceName,
      kind: 'remote',
      url: entry.url,
      headers,
      ...(type === 'http' || type === 'sse' ? { transportType: type } : {}),
    };
  } else {
    if (entry.url !== undefined) {
      ctx.problems.push(
        problemAt(ctx, [...path, 'url'], configImportError('config-import-errors.command-and-url', { server })),
      );
      return undefined;
    }
    // Only the fields the foreign apps define: other keys (Berth's or another app's) are not carried over.
    const parsed = ServerConfigSchema.safeParse({
      command: entry.command,
      args: entry.args,
      env: entry.env,
      cwd: entry.cwd,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const issuePath = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
        const words =
          issue.path[0] === 'command' && entry.command === undefined
            ? configImportError('config-import-errors.command-missing', { server })
            : issueWords(server, issue);
        ctx.problems.push(problemAt(ctx, [...path, ...issuePath.map(String)], words));
      }
      return undefined;
    }
    const config = parsed.data;
    strings = [
      config.command ?? '',
      ...config.args,
      ...Object.values(config.env),
      ...(config.cwd === undefined ? [] : [config.cwd]),
    ];
    draft = { format: ctx.format, sourceName, kind: 'stdio', config };
    if (entry.envFile !== undefined) {
      // Listed, not refused: the person can copy the variables over after the import.
      ctx.problems.push(
        problemAt(ctx, [...path, 'envFile'], configImportError('config-import-errors.env-file', { server })),
      );
    }
  }
  const requiredInputs = ctx.format === 'vscode' ? collectInputRefs(strings) : [];
  for (const id of requiredInputs) {
    if (!ctx.inputs.has(id))
      ctx.problems.push(
        problemAt(ctx, path, configImportError('config-import-errors.input-not-declared', { server, input: id })),
      );
    else if (ctx.inputs.get(id) === undefined)
      ctx.problems.push(
        problemAt(ctx, path, configImportError('config-import-errors.input-not-valid', { server, input: id })),
      );
  }
  if (requiredInputs.some((id) => ctx.inputs.get(id) === undefined)) return undefined;
  const secretEnvKeys: string[] = [];
  const isPassword = (value: string): boolean =>
    collectInputRefs([value]).some((id) => ctx.inputs.get(id)?.password === true);
  for (const [key, value] of Object.entries(draft.config?.env ?? {})) {
    if (looksSecret(key) || (ctx.format === 'vscode' && isPassword(value))) secretEnvKeys.push(key);
  }
  const leaking = ctx.format === 'vscode' ? (draft.config?.args ?? []).filter(isPassword) : [];
  if (leaking.length > 0) {
    ctx.problems.push(
      problemAt(ctx, [...path, 'args'], configImportError('config-import-errors.password-in-args', { server })),
    );
  }
  if (draft.config !== undefined) draft.config = { ...draft.config, secretEnv: secretEnvKeys };
  return { ...draft, secretEnvKeys, requiredInputs };
}

function readInputs(ctx: Context, value: unknown): InputPrompt[] {
  const valid: InputPrompt[] = [];
  if (value === undefined) return valid;
  if (!Array.isArray(value)) {
    ctx.problems.push(
      problemAt(
        ctx,
        ['inputs'],
        configImportError('config-import-errors.inputs-not-array', { found: jsonType(value) }),
      ),
    );
    return valid;
  }
  value.forEach((raw: unknown, index) => {
    const path = ['inputs', index];
    const fail = (field: string | undefined, words: CodedText): void => {
      ctx.problems.push(problemAt(ctx, field === undefined ? path : [...path, field], words));
    };
    const position = index + 1;
    if (!isPlainObject(raw))
      return fail(
        undefined,
        configImportError('config-import-errors.input-not-object', { position, found: jsonType(raw) }),
      );
    const { id, type, description, password, options, default: fallback } = raw;
    if (typeof id !== 'string' || id === '')
      return fail('id', configImportError('config-import-errors.input-id-missing', { position }));
    const input = id;
    if (ctx.inputs.has(id)) return fail('id', configImportError('config-import-errors.input-id-twice', { input }));
    ctx.inputs.set(id, undefined);
    if (type !== 'promptString' && type !== 'pickString') {
      const found = JSON.stringify(type);
      return fail(
        'type',
        found === undefined
          ? configImportError('config-import-errors.input-type-missing', { input })
          : configImportError('config-import-errors.input-type', { input, found }),
      );
    }
    if (description !== undefined && typeof description !== 'string')
      return fail('description', configImportError('config-import-errors.input-description', { input }));
    if (password !== undefined && typeof password !== 'boolean')
      return fail('password', configImportError('config-import-errors.input-password', { input }));
    if (fallback !== undefined && typeof fallback !== 'string')
      return fail('default', configImportError('config-import-errors.input-default', { input }));
    const prompt: InputPrompt = { id, type, description: description ?? id, password: password === true };
    if (fallback !== undefined) prompt.default = fallback;
    if (type === 'pickString') {
      // VS Code accepts plain strings or { label, value } items.
      const choices = Array.isArray(options)
        ? options.map((option: unknown) =>
            typeof option === 'string'
              ? option
              : isPlainObject(option) && typeof option.value === 'string'
                ? option.value
                : undefined,
          )
        : [];
      if (choices.length === 0 || choices.some((choice) => choice === undefined)) {
        return fail('options', configImportError('config-import-errors.input-options', { input }));
      }
      prompt.options = choices.filter((choice) => choice !== undefined);
    }
    ctx.inputs.set(id, prompt);
    valid.push(prompt);
  });
  return valid;
}

/**
 * Read a foreign config file into an import preview. Never throws for bad
 * content: a malformed file gives problems and no servers; a malformed entry
 * gives a problem and the other entries are still listed.
 */
export function parseForeignConfig(format: ForeignFormat, text: string): ImportPreview {
  const parsed = parseForeignJson(text, format === 'vscode');
  if (!parsed.ok) return { format, servers: [], inputs: [], problems: parsed.problems };
  const { value, root } = parsed;
  const key = format === 'vscode' ? 'servers' : 'mcpServers';
  const ctx: Context = { format, text, root, problems: [], inputs: new Map() };
  const servers = value[key];
  if (servers === undefined) {
    const other = format === 'vscode' ? 'mcpServers' : 'servers';
    const words =
      value[other] !== undefined
        ? configImportError('config-import-errors.no-section-other', { key, other })
        : configImportError('config-import-errors.no-section', { key });
    return {
      format,
      servers: [],
      inputs: [],
      problems: [{ message: words.text, hostMessage: words.hostMessage, line: 1, column: 1 }],
    };
  }
  if (!isPlainObject(servers)) {
    return {
      format,
      servers: [],
      inputs: [],
      problems: [
        problemAt(
          ctx,
          [key],
          configImportError('config-import-errors.section-not-object', { key, found: jsonType(servers) }),
        ),
      ],
    };
  }
  const inputs = format === 'vscode' ? readInputs(ctx, value.inputs) : [];
  const { keys, repeated } = keysAt(root, [key]);
  const taken = new Set<string>();
  const candidates: ImportCandidate[] = [];
  for (const sourceName of keys) {
    const repeatedAt = repeated.get(sourceName);
    if (repeatedAt !== undefined) {
      const words = configImportError('config-import-errors.server-name-twice', { server: sourceName });
      ctx.problems.push({
        message: words.text,
        hostMessage: words.hostMessage,
        field: `${key}.${sourceName}`,
        ...positionAt(text, repeatedAt),
      });
      continue;
    }
    const draft = readEntry(ctx, [key, sourceName], sourceName, servers[sourceName]);
    if (draft === undefined) continue;
    const name = uniqueServerName(sourceName, taken);
    taken.add(name.toLowerCase());
    candidates.push({ ...draft, name });
  }
  return { format, servers: candidates, inputs, problems: ctx.problems };
}
