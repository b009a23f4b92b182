import { secretPlaceText, type SecretPlace } from './credential-errors';
import { codedFamily, type CodedText } from './host-wording';
import { OUTPUT_CLOSED, type ServerStateWording } from './server-state-reasons';

/**
 * Why a start failed, which decides what the supervisor does next:
 * - `config`: restarting with the same config cannot help (command not found,
 *   not executable, missing cwd) → `error`, wait for the person;
 * - `spawn`: the OS refused for a passing reason (EAGAIN, ENOMEM…) → retry;
 * - `exited`: the process exited before the handshake finished → retry;
 * - `timeout`: the handshake did not finish in time → `error`;
 * - `protocol`: the server answered, but not in a way we can use → `error`;
 * - `unreachable`: a remote server could not be reached (refused, reset,
 *   name not found) → retry, as it may be restarting;
 * - `sign-in`: a remote server wants the person to sign in (OAuth) → `error`,
 *   never retried on its own: only the person can sign in;
 * - `cancelled`: stop() arrived while starting.
 */
export type StartFailureKind =
  'config' | 'spawn' | 'exited' | 'timeout' | 'protocol' | 'unreachable' | 'sign-in' | 'cancelled';

/**
 * The start failures the renderer words from its catalog (renderer/i18n/locales/<locale>/server-start.json),
 * each with the parameters it names. The first family of host messages with a code (shared/domain/host-message.ts).
 */
export interface ServerStartMessages extends StartFailureMessages {
  'server-start.command-missing': { command: string };
  'server-start.command-not-on-path': { command: string; path: string };
  'server-start.command-not-on-login-path': { command: string; path: string; pathSource: string };
  'server-start.not-executable': { command: string };
  'server-start.bad-format': { command: string };
  'server-start.cwd-missing': { cwd: string };
  'server-start.cwd-not-directory': { cwd: string };
  'server-start.cwd-unusable': { cwd: string; detail: string };
  'server-start.spawn-failed': { command: string; detail: string };
}
export type ServerStartCode = keyof ServerStartMessages;

/** A start failure's code and parameters, typed together. */
export type ServerStartWording = {
  [C in ServerStartCode]: { code: C; params: ServerStartMessages[C] };
}[ServerStartCode];

/** A server could not be started; the message is meant for the person (in English: `wording` is it as a code). */
export class ServerStartError extends Error {
  constructor(
    message: string,
    readonly kind: StartFailureKind,
    /** The errno code (ENOENT…) when the failure came from the OS. */
    readonly code?: string,
    /** The error underneath, for decisions such as the legacy-SSE fallback. */
    cause?: unknown,
    /** The message as a code and parameters, for the renderer to word in the person's language. */
    readonly wording?: ServerStartWording | ServerStateWording,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ServerStartError';
  }

  /** Restarting with the same config cannot help. */
  get permanent(): boolean {
    return this.kind === 'config';
  }
}

/** The step of a start that failed: the MCP handshake (`server/discover` or `initialize`), or listing the tools after it. */
export type StartStage = 'handshake' | 'tools';

/** What a server's own error line says the person can act on. */
export type ServerLineHint = { kind: 'network'; host: string | undefined } | { kind: 'key' };

// Name-resolution and no-route failures: the machine (or its sandbox) has no way out. A refused connection is left out:
// that is a service that is down, not a missing network.
const NO_NETWORK =
  /\b(?:ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH)\b|fetch failed|could not resolve host|network is unreachable/i;
const HOST_OF_LOOKUP =
  /(?:getaddrinfo\s+(?:ENOTFOUND|EAI_AGAIN)|ENOTFOUND|EAI_AGAIN|could not resolve host:?)\s+([a-z0-9][a-z0-9.-]*[a-z0-9])/i;
const NEEDS_KEY =
  /\b(?:401|403)\b|unauthori[sz]ed|forbidden|api[\s_-]?key|access[\s_-]?token|(?:invalid|missing|expired)\s+(?:token|credentials?)|authentication\s+(?:failed|required)/i;
// Words a server's error line uses; a banner ("running on stdio") has none of them.
const ERROR_WORDS =
  /\berror\b|\bfail(?:s|ed|ure)?\b|\bfatal\b|exception|\bcannot\b|can't|\bunable\b|\bdenied\b|not found|\binvalid\b/i;
// An errno code (ECONNREFUSED, EACCES): upper case only, or every word starting with "e" would count.
const ERRNO = /\bE[A-Z]{3,}\b/;

/** What the person can do about an error line: no network to reach a host, or a missing key; undefined when it says neither. */
export function serverLineHint(line: string): ServerLineHint | undefined {
  if (NO_NETWORK.test(line)) return { kind: 'network', host: HOST_OF_LOOKUP.exec(line)?.[1] };
  if (NEEDS_KEY.test(line)) return { kind: 'key' };
  return undefined;
}

/** Whether a stderr line reads as an error (so it may explain a failure), not as a banner or progress. */
export function looksLikeError(line: string): boolean {
  return serverLineHint(line) !== undefined || ERROR_WORDS.test(line) || ERRNO.test(line);
}

// A stack frame ("    at fetch (node:…)") or a line of a dumped object ("  code: 'ENOTFOUND',", "}"): part of an error, not its line.
const NOT_A_MESSAGE =
  /^\s*(?:at\s|[\]}),]+$|[a-z_$][\w$]*:\s*(?:'[^']*'|"[^"]*"|-?\d+|true|false|null|undefined)\s*,?$)/;

/**
 * The line among a server's last stderr lines that best says what went
 * wrong: one naming an unreachable host first, then one with other advice,
 * then any error line; the newest of equals. Stack frames and the fields of
 * a dumped error are skipped, so a Node error's message is found above them.
 */
export function pickErrorLine(lines: readonly string[]): string | undefined {
  let best: { line: string; rank: number } | undefined;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]?.trim();
    if (!line || NOT_A_MESSAGE.test(line)) continue;
    const hint = serverLineHint(line);
    const rank =
      hint?.kind === 'network' && hint.host !== undefined ? 3 : hint !== undefined ? 2 : looksLikeError(line) ? 1 : 0;
    if (rank > (best?.rank ?? 0)) best = { line, rank };
  }
  return best?.line;
}

/**
 * A start failure, as a code and its parameters: `startFailureWords` makes the
 * words and the code, in one place, so the catalog words the same facts.
 */
export type StartFailureWords = (
  | { code: 'timeout'; seconds: number }
  /** `exit` as exitFact gives it (server-errors.ts): the signal's name, else the exit code. */
  | { code: 'exited'; exit: string }
  | { code: 'failed'; detail: string }
) & {
  stage: StartStage;
  /** The server's own last (error) line on stderr, when it wrote one. */
  serverLine?: string;
};

/** "did not finish the MCP handshake within 30 s; cannot reach mcp.stripe.com — no network? (stderr: …)". */
export function startFailureText(words: StartFailureWords): string {
  return startFailureWords(words).text;
}

/** A start failure's English and its code: the head (timeout, exit, failure) with its tail as facts. */
export function startFailureWords(words: StartFailureWords): CodedText & { hostMessage: ServerStartWording } {
  const { stage, serverLine } = words;
  const fromServer = serverLine === undefined ? undefined : serverLineHint(serverLine);
  const hint = fromServer ?? (words.code === 'failed' ? serverLineHint(words.detail) : undefined);
  const tail: StartTail =
    hint === undefined
      ? serverLine === undefined
        ? 'none'
        : 'stderr'
      : `${hint.kind === 'key' ? 'key' : hint.host === undefined ? 'service' : 'network'}${fromServer === undefined ? '' : 'Stderr'}`;
  const facts = { stage, tail, serverLine: serverLine ?? '', host: hint?.kind === 'network' ? (hint.host ?? '') : '' };
  if (words.code === 'timeout')
    return startWords('server-start.handshake-timeout', { ...facts, seconds: words.seconds });
  if (words.code === 'exited')
    return startWords('server-start.handshake-exited', {
      ...facts,
      exitKind: words.exit.startsWith('SIG') ? 'signal' : 'code',
      exit: words.exit,
    });
  return startWords('server-start.handshake-failed', { ...facts, detail: words.detail });
}

/**
 * What follows a start failure's head: advice drawn from the server's own stderr line (`…Stderr`: the line
 * is quoted after it) or from the failure's words — no network to reach `host` (`service` when no host is
 * named), or a missing key — else the bare line (`stderr`) or nothing.
 */
export type StartTail =
  'none' | 'stderr' | 'network' | 'networkStderr' | 'service' | 'serviceStderr' | 'key' | 'keyStderr';

/** A start failure's tail as facts: `serverLine` and `host` are empty where the tail names none. */
type StartTailFacts = { stage: StartStage; tail: StartTail; serverLine: string; host: string };

/**
 * The start failures worded here (the others are in spawn-errors.ts): a handshake or tool listing that timed
 * out, exited or failed; a broken link, a sign-in or header refused, an HTTP answer; a secret the server's
 * config names that cannot be read or is gone (`ref` is the config's `${secret:…}` reference).
 */
export type StartFailureMessages = {
  'server-start.handshake-timeout': StartTailFacts & { seconds: number };
  'server-start.handshake-exited': StartTailFacts & { exitKind: 'code' | 'signal'; exit: string };
  'server-start.handshake-failed': StartTailFacts & { detail: string };
  'server-start.output-closed': Record<string, never>;
  'server-start.no-oauth-offered': { where: string };
  'server-start.oauth-failed': { where: string; detail: string };
  'server-start.http-refused': { where: string; http: string };
  'server-start.header-refused': { where: string; http: string };
  'server-start.secret-unreadable': { section: SecretPlace; key: string; detail: string };
  'server-start.secret-missing': { section: SecretPlace; key: string; ref: string; server: string };
};

/** What a remote server that answers 401 without OAuth metadata is told it needs (NoOAuthOfferedError's message). */
export const NO_OAUTH_OFFERED =
  'answered HTTP 401 and offers no OAuth sign-in (no protected-resource or authorization-server metadata): check the credentials in its headers (an older OAuth server without metadata: press Sign in to try its default endpoints)';

const HANDSHAKE = 'the MCP handshake';
const AFTER_HANDSHAKE = 'finished the MCP handshake, but listing its tools';

function tailed(head: string, { tail, serverLine, host }: StartTailFacts): string {
  const stderr = ` (stderr: ${serverLine})`;
  const network = (where: string) => `${head}; cannot reach ${where} — no network?`;
  const key = `${head}; it probably needs an API key or token — set it in the server's environment variables`;
  switch (tail) {
    case 'none':
      return head;
    case 'stderr':
      return `${head} — stderr: ${serverLine}`;
    case 'network':
      return network(host);
    case 'networkStderr':
      return network(host) + stderr;
    case 'service':
      return network('its service');
    case 'serviceStderr':
      return network('its service') + stderr;
    case 'key':
      return key;
    case 'keyStderr':
      return key + stderr;
  }
}

/** A start failure in English with its code (the English is what Berth always said). */
export const startWords = codedFamily<StartFailureMessages>({
  'server-start.handshake-timeout': (facts) =>
    tailed(
      facts.stage === 'tools'
        ? `${AFTER_HANDSHAKE} did not finish within ${facts.seconds} s`
        : `did not finish ${HANDSHAKE} within ${facts.seconds} s`,
      facts,
    ),
  'server-start.handshake-exited': (facts) => {
    const exit = `${facts.exitKind} ${facts.exit}`;
    return tailed(
      facts.stage === 'tools'
        ? `exited (${exit}) while listing its tools, after the MCP handshake`
        : `exited (${exit}) during ${HANDSHAKE}`,
      facts,
    );
  },
  'server-start.handshake-failed': (facts) =>
    tailed(
      facts.stage === 'tools' ? `${AFTER_HANDSHAKE} failed: ${facts.detail}` : `MCP handshake failed: ${facts.detail}`,
      facts,
    ),
  'server-start.output-closed': () => `${OUTPUT_CLOSED} during the MCP handshake, so Berth stopped it`,
  'server-start.no-oauth-offered': ({ where }) => `${where} ${NO_OAUTH_OFFERED}`,
  'server-start.oauth-failed': ({ where, detail }) =>
    `OAuth with ${where} failed: ${detail} — check the OAuth settings of the server`,
  'server-start.http-refused': ({ where, http }) => `${where} answered ${http}`,
  'server-start.header-refused': ({ where, http }) =>
    `${where} answered ${http} — the server did not accept the Authorization header in its settings`,
  'server-start.secret-unreadable': ({ section, key, detail }) =>
    `could not read the secret value of ${secretPlaceText(section, key)} from Berth's secret store: ${detail}`,
  'server-start.secret-missing': ({ section, key, ref, server }) => {
    const label = secretPlaceText(section, key);
    return `the secret value of ${label} is not in Berth's secret store (config.json refers to ${ref}) — open the settings of '${server}', enter ${label} again and save`;
  },
});
