import {
  AuthorizationServerMismatchError,
  OAuthClientFlowError,
  OAuthError,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { NoOAuthOfferedError, SignInRequiredError } from '../oauth/berth-oauth-provider';
import { oauthFailureReason } from '../oauth/sign-in';
import { HostError } from '../../shared/result';
import type { CodedText } from '../../shared/domain/host-wording';
import type { ConnectionTransport } from './connection-transport';
import { describeHttpError, isSessionGone, isUnreachable } from './http-transport';
import { describeInvalidResult } from './invalid-result';
import { ServerStartError, startFailureWords, startWords } from '../../shared/domain/server-start-error';
import type { ServerStartWording, StartFailureKind, StartStage } from '../../shared/domain/server-start-error';
import { batchFailure } from './stdout-messages';
import { exitFact, secondsOf, serverError } from '../../shared/domain/server-errors';
import { OUTPUT_CLOSED, serverStateReason } from '../../shared/domain/server-state-reasons';
import { errorMessage } from '../../shared/error-message';

/**
 * A remote server no longer knows our session (it restarted, or expired it):
 * the request was not run, and the connection is being re-established.
 */
export class SessionLostError extends HostError {
  constructor(
    /** The server's name and what was sent (`prompts/get prompt 'greet'`): the words of a failed resend name them too. */
    readonly server: string,
    readonly subject: string,
  ) {
    const words = serverError('server-errors.session-lost', { name: server, subject });
    super('SERVER_ERROR', words.text, undefined, words.hostMessage);
    this.name = 'SessionLostError';
  }
}

/** What the wording of a failure depends on. */
export interface FailureContext {
  name: string;
  transport: ConnectionTransport;
  /** Remote servers: the address, for "could not reach …". */
  url: string | undefined;
  /** Berth itself is closing the connection. */
  closing: boolean;
  redact: (text: string) => string;
  /** What the start was doing: a failure after the handshake is not called a failed handshake. */
  stage: StartStage;
  lastStderrLine: () => string | undefined;
  /** The recent stderr line that best says what went wrong (pickErrorLine). */
  lastErrorLine: () => string | undefined;
}

/** "connection refused" rather than "fetch failed": the innermost cause says what went wrong. */
function networkReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error && current.cause instanceof Error; depth++)
    current = current.cause;
  const code = (current as { code?: unknown } | undefined)?.code;
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host name not found',
    EAI_AGAIN: 'host name lookup failed',
    ETIMEDOUT: 'connection timed out',
  };
  if (typeof code === 'string') return words[code] ?? code;
  return errorMessage(current);
}

/** An error's message, except a schema-invalid result, which arrives as a JSON dump of validator issues: that is said in one line. */
export function messageOrInvalidResult(error: unknown): string {
  return describeInvalidResult(error) ?? errorMessage(error);
}

/**
 * The two failures that end a remote link: the server no longer knows our
 * session (the request was not run), or it cannot be reached. One test for
 * both lostReason and requestFailure, so what marks a link lost and what is
 * resent as SessionLostError cannot drift apart.
 */
function linkLoss(error: unknown, ctx: FailureContext): 'session-gone' | 'unreachable' | undefined {
  if (ctx.transport.kind === 'stdio') return undefined;
  if (isSessionGone(error, ctx.transport.sessionId !== undefined)) return 'session-gone';
  if (isUnreachable(error)) return 'unreachable';
  return undefined;
}

/** Why a remote link is gone for good after this error, or undefined if it may still work. */
export function lostReason(error: unknown, ctx: FailureContext): CodedText | undefined {
  const loss = linkLoss(error, ctx);
  if (loss === 'session-gone') return serverStateReason('server-state.session-gone', {});
  if (loss !== 'unreachable') return undefined;
  const detail = networkReason(error);
  return ctx.url === undefined
    ? serverStateReason('server-state.connection-lost-server', { detail })
    : serverStateReason('server-state.connection-lost', { where: ctx.url, detail });
}

/** The server wants an OAuth sign-in (Berth's provider said so, or the SDK gave up authorizing on its own), or a 401 with no OAuth on offer. */
function authFailure(error: unknown): 'sign-in' | NoOAuthOfferedError | undefined {
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 4;
    current = current.cause, depth++
  ) {
    if (current instanceof NoOAuthOfferedError) return current;
    if (current instanceof SignInRequiredError || current instanceof UnauthorizedError) return 'sign-in';
  }
  return undefined;
}

/** An OAuth step that failed without a person involved (client credentials refused, a pinned authorization server not matching). */
function oauthRefusal(error: unknown): Error | undefined {
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 4;
    current = current.cause, depth++
  ) {
    if (current instanceof OAuthError || current instanceof OAuthClientFlowError) return current;
  }
  return undefined;
}

/** Why a start failed, in words, with the kind that decides what happens next. */
export function startFailure(error: unknown, ctx: FailureContext): ServerStartError {
  if (error instanceof ServerStartError && error.kind !== 'exited') return error;
  // Before the exit status: that is Berth's own SIGTERM to the broken server.
  const broken = ctx.transport.brokenReason;
  if (broken !== undefined)
    return broken === OUTPUT_CLOSED
      ? started(startWords('server-start.output-closed', {}), 'exited', error)
      : new ServerStartError(`${broken} during the MCP handshake, so Berth stopped it`, 'exited', undefined, error);
  const batch = batchFailure(error);
  if (batch !== undefined)
    return started(
      startFailureWords({ code: 'failed', detail: ctx.redact(batch), stage: ctx.stage }),
      'protocol',
      error,
    );
  const exit = ctx.transport.exitInfo;
  if (exit !== undefined && !(error instanceof ServerStartError && error.kind === 'config')) {
    // Else the last line, error-looking or not: a server that exits usually says why last.
    const serverLine = ctx.lastErrorLine() ?? ctx.lastStderrLine();
    return started(
      startFailureWords({
        code: 'exited',
        exit: exitFact(exit),
        stage: ctx.stage,
        ...(serverLine === undefined ? {} : { serverLine }),
      }),
      'exited',
    );
  }
  if (error instanceof ServerStartError) return error;
  if (ctx.transport.kind !== 'stdio') {
    const where = ctx.url ?? 'the server';
    const auth = authFailure(error);
    if (auth === 'sign-in') {
      const words = serverStateReason('server-state.needs-sign-in', { where });
      return new ServerStartError(words.text, 'sign-in', undefined, error, words.hostMessage);
    }
    if (auth !== undefined) return started(startWords('server-start.no-oauth-offered', { where }), 'protocol', error);
    const refusal = oauthRefusal(error);
    // Another authorization server than the pinned one: retrying cannot help, only the person can decide (`config`: no restarts).
    if (refusal !== undefined)
      return started(
        startWords('server-start.oauth-failed', { where, detail: ctx.redact(oauthFailureReason(refusal)) }),
        refusal instanceof AuthorizationServerMismatchError ? 'config' : 'protocol',
        error,
      );
    if (isUnreachable(error)) {
      const words = serverStateReason('server-state.unreachable', { where, detail: ctx.redact(networkReason(error)) });
      return new ServerStartError(words.text, 'unreachable', undefined, error, words.hostMessage);
    }
    const http = describeHttpError(error);
    if (http !== undefined) {
      // Without OAuth (a static Authorization header is configured), a 401 means that header is not accepted.
      const code = /^HTTP 401/.test(http) ? 'server-start.header-refused' : 'server-start.http-refused';
      return started(startWords(code, { where, http: ctx.redact(http) }), 'protocol', error);
    }
  }
  const serverLine = ctx.lastErrorLine();
  return started(
    startFailureWords({
      code: 'failed',
      detail: ctx.redact(messageOrInvalidResult(error)),
      stage: ctx.stage,
      ...(serverLine === undefined ? {} : { serverLine }),
    }),
    'protocol',
    error,
  );
}

/** A start failure from its words: the English as the message, the code as its wording. */
function started(
  words: { text: string; hostMessage: ServerStartWording },
  kind: StartFailureKind,
  cause?: unknown,
): ServerStartError {
  return new ServerStartError(words.text, kind, undefined, cause, words.hostMessage);
}

/** A failed request, in words: which server, what was running, and why it ended. */
export function requestFailure(
  method: string,
  what: string,
  timeoutMs: number,
  error: unknown,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
): HostError {
  const { name } = ctx;
  const subject = what === '' ? method : `${method} ${what}`;
  const broken = ctx.transport.brokenReason;
  if (broken !== undefined)
    return broken === OUTPUT_CLOSED
      ? HostError.coded('SERVER_ERROR', serverError('server-errors.output-closed-during', { name, method }))
      : HostError.coded(
          'SERVER_ERROR',
          serverError('server-errors.link-broken-during', { name, detail: broken, method }),
        );
  const exit = ctx.transport.exitInfo;
  if (exit !== undefined && !ctx.closing)
    return HostError.coded(
      'SERVER_ERROR',
      serverError('server-errors.exited-during', { name, method, exit: exitFact(exit) }),
    );
  if (ctx.closing)
    return HostError.coded('SERVER_ERROR', serverError('server-errors.stopped-during', { name, method }));
  // The SDK rejects a request its caller cancelled with a RequestTimeout error too: the caller's signal decides.
  if (signal?.aborted)
    return HostError.coded('SERVER_ERROR', serverError('server-errors.cancelled', { name, subject }));
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    const total = maxTotalOf(error);
    const seconds = secondsOf(total ?? timeoutMs);
    return HostError.coded(
      'TIMEOUT',
      serverError(total === undefined ? 'server-errors.timeout' : 'server-errors.max-total-time', {
        name,
        subject,
        seconds,
      }),
    );
  }
  const loss = linkLoss(error, ctx);
  if (loss === 'session-gone') return new SessionLostError(name, subject);
  if (loss === 'unreachable') {
    const detail = ctx.redact(networkReason(error));
    return HostError.coded('SERVER_ERROR', serverError('server-errors.unreachable-during', { name, method, detail }));
  }
  const failed = (detail: string): HostError =>
    HostError.coded('SERVER_ERROR', serverError('server-errors.failed', { name, subject, detail: ctx.redact(detail) }));
  const http = ctx.transport.kind === 'stdio' ? undefined : describeHttpError(error);
  if (http !== undefined) return failed(http);
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)
    return HostError.coded('SERVER_ERROR', serverError('server-errors.closed-during', { name, method }));
  const batch = batchFailure(error);
  if (batch !== undefined) return failed(batch);
  if (error instanceof ProtocolError) {
    const detail = ctx.redact(error.message);
    return HostError.coded(
      'SERVER_ERROR',
      serverError('server-errors.answered-error', { name, subject, errorCode: String(error.code), detail }),
    );
  }
  return failed(messageOrInvalidResult(error));
}

/** The bound a "Maximum total timeout exceeded" error names (the SDK's and Berth's own clock both put it in `data`). */
function maxTotalOf(error: SdkError): number | undefined {
  const data = error.data;
  if (typeof data !== 'object' || data === null || !('maxTotalTimeout' in data)) return undefined;
  return typeof data.maxTotalTimeout === 'number' ? data.maxTotalTimeout : undefined;
}

/** Why a ready stdio server's link closed, in words (the supervisor shows it and restarts per policy). */
export function closedReason(ctx: FailureContext): CodedText {
  const broken = ctx.transport.brokenReason;
  if (broken !== undefined)
    return broken === OUTPUT_CLOSED
      ? serverStateReason('server-state.output-closed', {})
      : serverStateReason('server-state.broken', { detail: broken });
  const exit = ctx.transport.exitInfo;
  const line = ctx.lastStderrLine();
  const stderr = line === undefined || (exit?.code === 0 && exit.signal === null) ? undefined : line;
  if (exit === undefined)
    return stderr === undefined
      ? serverStateReason('server-state.closed', {})
      : serverStateReason('server-state.closed-stderr', { stderr });
  return stderr === undefined
    ? serverStateReason('server-state.exited', { exit: exitFact(exit) })
    : serverStateReason('server-state.exited-stderr', { exit: exitFact(exit), stderr });
}
