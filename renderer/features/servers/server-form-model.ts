import type { z } from 'zod';
import {
  ALWAYS_SECRET_HEADERS,
  EnvKeySchema,
  HeaderNameSchema,
  LOG_LEVELS,
  SECRET_MASK,
  ServerConfigSchema,
  ServerNameSchema,
  type ServerConfig,
  type LogLevel,
  type ServerConfigInput,
  type ServerState,
  isSecretHeader,
} from '../../../shared/domain';
import type { Failure } from '../../../shared/result';
import type { MessageId } from '../../i18n/message-ids';
import { failureWords, verbatim, words, type Words } from '../../i18n/words';
import {
  OAUTH_PATH_TO_FIELD,
  emptyOAuthValues,
  oauthInput,
  oauthValuesFromConfig,
  type OAuthFormValues,
} from './server-form-oauth';

/** One env row in the form; `id` keeps React keys and field errors stable while rows move. */
export interface EnvRow {
  id: number;
  key: string;
  value: string;
  secret: boolean;
}

export interface ArgRow {
  id: number;
  value: string;
}

/** What the form edits: strings where the person types, converted on submit. */
export interface ServerFormValues {
  name: string;
  /** A local command (stdio) or a remote server (HTTP). */
  kind: 'local' | 'remote';
  command: string;
  args: ArgRow[];
  env: EnvRow[];
  cwd: string;
  /** Remote: the MCP endpoint. */
  url: string;
  /** Remote: '' tries Streamable HTTP, then legacy SSE. */
  transport: '' | 'http' | 'sse';
  /** Remote: static headers; `secret` rows are masked and redacted. */
  headers: EnvRow[];
  /** Remote: how Berth gets OAuth tokens (all empty: it registers itself and the person signs in). */
  oauth: OAuthFormValues;
  /** Start with Berth (and now, when saved). */
  enabled: boolean;
  /** The level asked of the server's log messages; '' leaves it to the server. */
  logLevel: LogLevel | '';
  /** Seconds, as typed. */
  startupSeconds: string;
  requestSeconds: string;
  maxTotalSeconds: string;
  restartEnabled: boolean;
  maxRestarts: string;
  initialDelaySeconds: string;
  maxDelaySeconds: string;
}

/**
 * Field → message, worded when shown (a language switch re-words an error on screen). Keys: form field names,
 * `arg.<id>`, `env.<id>.key`, `env.<id>.value`, `header.<id>.key`, `header.<id>.value`, `form`.
 */
export type FormErrors = Record<string, Words>;

/** FormErrors worded for one render, as the fields show them. */
export type ShownErrors = Record<string, string>;

export type FormOutcome = { ok: true; name: string; config: ServerConfigInput } | { ok: false; errors: FormErrors };

let nextRowId = 1;
export function newRowId(): number {
  return nextRowId++;
}

const DEFAULTS: ServerConfig = ServerConfigSchema.parse({ command: 'x' });

function seconds(ms: number): string {
  return String(ms / 1000);
}

export function emptyFormValues(): ServerFormValues {
  return {
    name: '',
    kind: 'local',
    command: '',
    args: [],
    env: [],
    cwd: '',
    url: '',
    transport: '',
    headers: [],
    oauth: emptyOAuthValues(),
    enabled: true,
    logLevel: '',
    startupSeconds: seconds(DEFAULTS.timeouts.startupMs),
    requestSeconds: seconds(DEFAULTS.timeouts.requestMs),
    maxTotalSeconds: seconds(DEFAULTS.timeouts.maxTotalMs),
    restartEnabled: DEFAULTS.restart.enabled,
    maxRestarts: String(DEFAULTS.restart.maxRestarts),
    initialDelaySeconds: seconds(DEFAULTS.restart.initialDelayMs),
    maxDelaySeconds: seconds(DEFAULTS.restart.maxDelayMs),
  };
}

/** The one-click example from the empty state: the reference server that exercises every feature. */
export function exampleFormValues(): ServerFormValues {
  return {
    ...emptyFormValues(),
    name: 'everything',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-everything'].map((value) => ({ id: newRowId(), value })),
  };
}

export function formValuesFromServer(server: ServerState): ServerFormValues {
  const { config } = server;
  const secret = new Set(config.secretEnv);
  return {
    name: server.name,
    kind: config.url === undefined ? 'local' : 'remote',
    command: config.command ?? '',
    args: config.args.map((value) => ({ id: newRowId(), value })),
    env: Object.entries(config.env).map(([key, value]) => ({ id: newRowId(), key, value, secret: secret.has(key) })),
    cwd: config.cwd ?? '',
    url: config.url ?? '',
    transport: config.type ?? '',
    headers: Object.entries(config.headers).map(([key, value]) => ({
      id: newRowId(),
      key,
      value,
      secret: isSecretHeader(config, key),
    })),
    oauth: oauthValuesFromConfig(config),
    enabled: config.enabled,
    logLevel: config.logLevel ?? '',
    startupSeconds: seconds(config.timeouts.startupMs),
    requestSeconds: seconds(config.timeouts.requestMs),
    maxTotalSeconds: seconds(config.timeouts.maxTotalMs),
    restartEnabled: config.restart.enabled,
    maxRestarts: String(config.restart.maxRestarts),
    initialDelaySeconds: seconds(config.restart.initialDelayMs),
    maxDelaySeconds: seconds(config.restart.maxDelayMs),
  };
}

/** Form fields holding a duration in seconds, and where each lives in the config (in ms). */
const SECONDS_FIELDS = {
  startupSeconds: 'timeouts.startupMs',
  requestSeconds: 'timeouts.requestMs',
  maxTotalSeconds: 'timeouts.maxTotalMs',
  initialDelaySeconds: 'restart.initialDelayMs',
  maxDelaySeconds: 'restart.maxDelayMs',
} as const;

/** Config path (dotted, without the `config.` prefix) → form field. */
const PATH_TO_FIELD: Record<string, string> = {
  command: 'command',
  url: 'url',
  type: 'transport',
  args: 'args',
  cwd: 'cwd',
  enabled: 'enabled',
  logLevel: 'logLevel',
  ...OAUTH_PATH_TO_FIELD,
  'restart.enabled': 'restartEnabled',
  'restart.maxRestarts': 'maxRestarts',
  ...Object.fromEntries(Object.entries(SECONDS_FIELDS).map(([field, path]) => [path, field])),
};

function parseNumber(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

/**
 * Turns form values into the `servers.add`/`servers.update` input, validated
 * with the same schemas the host uses, with every problem under its field.
 * `base` (when editing) keeps config fields the form does not show.
 */
export function buildServerInput(values: ServerFormValues, base?: ServerConfig): FormOutcome {
  const errors: FormErrors = {};

  const name = ServerNameSchema.safeParse(values.name);
  if (!name.success) errors.name = firstMessage(name.error);

  const remote = values.kind === 'remote';
  const { values: env, secret: secretEnv } = remote
    ? { values: {}, secret: [] }
    : keyValueRows(values.env, ENV_ROWS, errors);
  const { values: headers, secret: secretHeaders } = remote
    ? keyValueRows(values.headers, HEADER_ROWS, errors)
    : { values: {}, secret: [] };

  const millis: Record<string, number> = {};
  for (const [field, path] of Object.entries(SECONDS_FIELDS)) {
    const value = parseNumber(values[field as keyof typeof SECONDS_FIELDS]);
    if (!Number.isFinite(value)) errors[field] = words('servers.formError.seconds');
    millis[path] = Math.round(value * 1000);
  }
  const maxRestarts = parseNumber(values.maxRestarts);
  if (!Number.isInteger(maxRestarts)) errors.maxRestarts = words('servers.formError.wholeNumber');
  checkOrder(
    errors,
    millis,
    'maxTotalSeconds',
    'timeouts.maxTotalMs',
    'timeouts.requestMs',
    'servers.formError.atLeastRequestTimeout',
  );
  checkOrder(
    errors,
    millis,
    'maxDelaySeconds',
    'restart.maxDelayMs',
    'restart.initialDelayMs',
    'servers.formError.atLeastFirstDelay',
  );
  const logLevel = values.logLevel === '' ? undefined : values.logLevel;
  if (logLevel !== undefined && !(LOG_LEVELS as readonly string[]).includes(logLevel))
    errors.logLevel = words('servers.formError.logLevel');

  const config: ServerConfigInput = {
    ...(base ?? {}),
    ...(remote
      ? { url: values.url.trim(), headers, secretHeaders, args: [], env: {}, secretEnv: [] }
      : {
          command: values.command,
          args: values.args.map((arg) => arg.value),
          env,
          secretEnv,
          headers: {},
          secretHeaders: [],
        }),
    enabled: values.enabled,
    timeouts: {
      startupMs: millis['timeouts.startupMs']!,
      requestMs: millis['timeouts.requestMs']!,
      maxTotalMs: millis['timeouts.maxTotalMs']!,
    },
    restart: {
      enabled: values.restartEnabled,
      maxRestarts,
      initialDelayMs: millis['restart.initialDelayMs']!,
      maxDelayMs: millis['restart.maxDelayMs']!,
    },
  };
  // Whichever kind was chosen, the other kind's fields go (an edit may switch kinds).
  if (remote) {
    delete config.command;
    delete config.cwd;
    if (values.transport === '') delete config.type;
    else config.type = values.transport;
    const oauth = oauthInput(values.oauth, base?.oauth?.signingAlgorithm);
    if (oauth === undefined) delete config.oauth;
    else config.oauth = oauth;
  } else {
    delete config.url;
    delete config.type;
    delete config.oauth;
  }
  const cwd = values.cwd.trim();
  if (!remote && cwd !== '') config.cwd = cwd;
  else delete config.cwd;
  // Removed rather than left undefined, so `base`'s level does not survive choosing "server default".
  if (logLevel === undefined) delete config.logLevel;
  else config.logLevel = logLevel;

  const parsed = ServerConfigSchema.safeParse(config);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldForPath(issue.path.map(String), values);
      if (errors[field]) continue;
      errors[field] = messageForIssue(field, issue);
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, name: name.success ? name.data : values.name.trim(), config };
}

/** How the env and the header rows differ when they become config. */
interface KeyValueRules {
  /** Prefix of the rows' error keys (`env.<id>.key`, `header.<id>.key`). */
  errorKey: 'env' | 'header';
  /** Said under a row with a value but no name. */
  unnamed: MessageId;
  keySchema: z.ZodType<string>;
  /** HTTP header names are case-insensitive: "x-a" and "X-A" are the same header. */
  caseInsensitive: boolean;
  /** Secret whatever the row's switch says, so not listed in the config's secret list. */
  alwaysSecret: (key: string) => boolean;
}

const ENV_ROWS: KeyValueRules = {
  errorKey: 'env',
  unnamed: 'servers.formError.unnamedVariable',
  keySchema: EnvKeySchema,
  caseInsensitive: false,
  alwaysSecret: () => false,
};
const HEADER_ROWS: KeyValueRules = {
  errorKey: 'header',
  unnamed: 'servers.formError.unnamedHeader',
  keySchema: HeaderNameSchema,
  caseInsensitive: true,
  alwaysSecret: (name) => ALWAYS_SECRET_HEADERS.has(name.toLowerCase()),
};

/** Rows → a key/value record and the keys marked secret; every problem under its row. */
function keyValueRows(
  rows: EnvRow[],
  rules: KeyValueRules,
  errors: FormErrors,
): { values: Record<string, string>; secret: string[] } {
  const values: Record<string, string> = {};
  const secret: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const key = row.key.trim();
    if (key === '' && row.value === '') continue;
    const keyError = `${rules.errorKey}.${row.id}.key`;
    if (key === '') {
      errors[keyError] = words(rules.unnamed);
      continue;
    }
    const identity = rules.caseInsensitive ? key.toLowerCase() : key;
    const check = rules.keySchema.safeParse(key);
    if (!check.success) errors[keyError] = firstMessage(check.error);
    else if (seen.has(identity)) errors[keyError] = words('servers.formError.duplicateKey', { key });
    const alwaysSecret = rules.alwaysSecret(key);
    if (!row.secret && !alwaysSecret && row.value === SECRET_MASK) {
      errors[`${rules.errorKey}.${row.id}.value`] = words('servers.formError.secretRetype');
    }
    if (row.secret && !alwaysSecret) secret.push(key);
    seen.add(identity);
    values[key] = row.value;
  }
  return { values, secret };
}

/**
 * A limit that only makes sense at or above another one (the longest call vs
 * one request, the longest delay vs the first): said in words, since the
 * config would accept it and the result would puzzle.
 */
function checkOrder(
  errors: FormErrors,
  millis: Record<string, number>,
  field: string,
  path: string,
  lowerPath: string,
  tooLow: MessageId,
): void {
  const value = millis[path];
  const lower = millis[lowerPath];
  if (errors[field] || value === undefined || lower === undefined || !Number.isFinite(value) || !Number.isFinite(lower))
    return;
  if (value < lower) errors[field] = words(tooLow, { seconds: lower / 1000 });
}

function fieldForPath(path: string[], values: ServerFormValues): string {
  if (path[0] === 'env' && path[1] !== undefined) {
    const row = values.env.find((r) => r.key.trim() === path[1]);
    return row ? `env.${row.id}.${path.length > 2 ? 'value' : 'key'}` : 'env';
  }
  if (path[0] === 'headers' && path[1] !== undefined) {
    const row = values.headers.find((r) => r.key.trim() === path[1]);
    return row ? `header.${row.id}.${path.length > 2 ? 'value' : 'key'}` : 'url';
  }
  if (path[0] === 'args' && path[1] !== undefined) {
    const row = values.args[Number(path[1])];
    return row ? `arg.${row.id}` : 'args';
  }
  const dotted = path.join('.');
  // "needs a secret or a key" belongs under whichever of the two the form shows.
  if (
    dotted === 'oauth.clientSecret' &&
    values.oauth.grant === 'client_credentials' &&
    values.oauth.clientAuth === 'key'
  )
    return 'oauth.privateKey';
  return PATH_TO_FIELD[dotted] ?? (path[0] && PATH_TO_FIELD[path[0]]) ?? 'form';
}

function messageForIssue(field: string, issue: z.core.$ZodIssue): Words {
  if (field in SECONDS_FIELDS && (issue.code === 'too_small' || issue.code === 'too_big')) {
    const seconds = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum) / 1000;
    return words(issue.code === 'too_small' ? 'servers.formError.atLeastSeconds' : 'servers.formError.atMostSeconds', {
      seconds,
    });
  }
  if (field === 'maxRestarts' && (issue.code === 'too_small' || issue.code === 'too_big')) {
    if (issue.code === 'too_big') return words('servers.formError.atMostRestarts', { count: String(issue.maximum) });
    return words('servers.formError.restartsNotNegative');
  }
  return verbatim(issue.message);
}

function firstMessage(error: z.ZodError): Words {
  const first = error.issues[0]?.message;
  return first === undefined ? words('servers.formError.notValid') : verbatim(first);
}

/**
 * Where a host failure belongs in the form: a duplicate name under the name
 * field, a config path under its field, anything else at the top.
 */
export function errorsFromFailure(failure: Failure, values: ServerFormValues): FormErrors {
  const message = failureWords(failure);
  if (failure.code === 'CONFLICT') return { name: message };
  if (failure.path) {
    const segments = failure.path.split('.');
    if (segments[0] === 'name' || segments[0] === 'newName') return { name: message };
    const configPath = segments[0] === 'config' ? segments.slice(1) : segments;
    const field = fieldForPath(configPath, values);
    if (field !== 'form') return { [field]: message };
  }
  return { form: message };
}

/**
 * Splits a pasted command line (`npx -y pkg "a b"`) the way a POSIX shell
 * would for simple cases: whitespace separates, quotes group, backslash escapes.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) current += line[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}
