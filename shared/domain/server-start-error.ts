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

/** A server could not be started; the message is meant for the person. */
export class ServerStartError extends Error {
  constructor(
    message: string,
    readonly kind: StartFailureKind,
    /** The errno code (ENOENT…) when the failure came from the OS. */
    readonly code?: string,
    /** The error underneath, for decisions such as the legacy-SSE fallback. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ServerStartError';
  }

  /** Restarting with the same config cannot help. */
  get permanent(): boolean {
    return this.kind === 'config';
  }
}
