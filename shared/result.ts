import type { HostMessage } from './domain/host-message';
import type { CodedText } from './domain/host-wording';

/**
 * Expected failures travel as values, never as thrown errors, so that they
 * survive every transport (Electron's `invoke` only carries an error's message).
 */
export const ERROR_CODES = [
  /** The input did not match the method's schema. */
  'INVALID_INPUT',
  /** The method name is not part of the contract. */
  'UNKNOWN_METHOD',
  /** A named thing (server, conversation…) does not exist. */
  'NOT_FOUND',
  /** The change conflicts with existing state (e.g. a duplicate server name). */
  'CONFLICT',
  /** The server is not in a state that allows the request (e.g. not ready). */
  'NOT_READY',
  /** The MCP server answered with an error, or the request to it failed. */
  'SERVER_ERROR',
  /** The request did not complete in time. */
  'TIMEOUT',
  /** The config file cannot be used as it is; the message says where and why. */
  'CONFIG_INVALID',
  /** Reading or writing a file failed. */
  'IO_ERROR',
  /** The caller is not allowed to make this call. */
  'FORBIDDEN',
  /** A bug in Berth: the message is kept for the bug report. */
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface Failure {
  ok: false;
  code: ErrorCode;
  message: string;
  /** Where in the input the problem is, e.g. `config.command`. */
  path?: string;
  /** `message` as a code and its facts, for the renderer to word in the person's language (shared/domain/host-message.ts). */
  hostMessage?: HostMessage;
}

export interface Success<T> {
  ok: true;
  value: T;
}

export type Result<T> = Success<T> | Failure;

export function ok<T>(value: T): Success<T> {
  return { ok: true, value };
}

export function fail(code: ErrorCode, message: string, path?: string, hostMessage?: HostMessage): Failure {
  return {
    ok: false,
    code,
    message,
    ...(path === undefined ? {} : { path }),
    ...(hostMessage === undefined ? {} : { hostMessage }),
  };
}

/**
 * Thrown inside host code to end a handler with a typed failure; the router
 * turns it into a `Failure`. Anything else thrown is a bug and becomes INTERNAL.
 */
export class HostError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly path?: string,
    /** The message as a code and its facts (the renderer words it); absent for a family not coded yet. */
    readonly hostMessage?: HostMessage,
  ) {
    super(message);
    this.name = 'HostError';
  }

  /** A failure whose words come from a family's module: the English is the message, the code travels beside it. */
  static coded(code: ErrorCode, words: CodedText, path?: string): HostError {
    return new HostError(code, words.text, path, words.hostMessage);
  }
}
