import type { ServerStateWording } from './server-state-reasons';

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
export interface ServerStartMessages {
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
 * A start failure, as a code and its parameters: `startFailureText` makes the
 * words, in one place, so a message catalog can take them over.
 */
export type StartFailureWords = (
  { code: 'timeout'; seconds: string } | { code: 'exited'; exit: string } | { code: 'failed'; detail: string }
) & {
  stage: StartStage;
  /** The server's own last (error) line on stderr, when it wrote one. */
  serverLine?: string;
};

const HANDSHAKE = 'the MCP handshake';
const AFTER_HANDSHAKE = 'finished the MCP handshake, but listing its tools';

/** "did not finish the MCP handshake within 30 s; cannot reach mcp.stripe.com — no network? (stderr: …)". */
export function startFailureText(words: StartFailureWords): string {
  const { stage, serverLine } = words;
  let head: string;
  if (words.code === 'timeout')
    head =
      stage === 'tools'
        ? `${AFTER_HANDSHAKE} did not finish within ${words.seconds}`
        : `did not finish ${HANDSHAKE} within ${words.seconds}`;
  else if (words.code === 'exited')
    head =
      stage === 'tools'
        ? `exited (${words.exit}) while listing its tools, after the MCP handshake`
        : `exited (${words.exit}) during ${HANDSHAKE}`;
  else
    head = stage === 'tools' ? `${AFTER_HANDSHAKE} failed: ${words.detail}` : `MCP handshake failed: ${words.detail}`;
  const fromServer = serverLine === undefined ? undefined : serverLineHint(serverLine);
  const hint = fromServer ?? (words.code === 'failed' ? serverLineHint(words.detail) : undefined);
  const stderr = serverLine === undefined ? '' : ` (stderr: ${serverLine})`;
  if (hint === undefined) return serverLine === undefined ? head : `${head} — stderr: ${serverLine}`;
  const advice =
    hint.kind === 'network'
      ? `cannot reach ${hint.host ?? 'its service'} — no network?`
      : `it probably needs an API key or token — set it in the server's environment variables`;
  return `${head}; ${advice}${fromServer === undefined ? '' : stderr}`;
}
