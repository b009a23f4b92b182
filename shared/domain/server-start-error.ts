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
    readonly wording?: ServerStartWording,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ServerStartError';
  }

  /** Restarting with the same config cannot help. */
  get permanent(): boolean {
    return this.kind === 'config';
  }
}
