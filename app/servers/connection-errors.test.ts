import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { SessionLostError, lostReason, requestFailure, type FailureContext } from './connection-errors';
import type { ConnectionTransport } from './connection-transport';

const httpError = (status: number, text: string): SdkHttpError =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, { status, text });

function refused(): TypeError {
  return new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
  });
}

function context(kind: ConnectionTransport['kind'], sessionId: string | undefined): FailureContext {
  const transport = { kind, sessionId, exitInfo: undefined } as unknown as ConnectionTransport;
  return {
    name: 'remote',
    transport,
    url: 'http://127.0.0.1:9/mcp',
    closing: false,
    redact: (text) => text,
    stage: 'handshake',
    lastStderrLine: () => undefined,
    lastErrorLine: () => undefined,
  };
}

const fail = (error: unknown, ctx: FailureContext): Error =>
  requestFailure('prompts/get', "prompt 'greet'", 1_000, error, undefined, ctx);

describe('a remote link found gone: lostReason and requestFailure read it the same way', () => {
  const session = context('streamable-http', 'abc');

  it('a forgotten session (404, or 400 naming the session): lost, and the request was never run', () => {
    for (const error of [httpError(404, 'Not Found'), httpError(400, 'Bad Request: No valid session ID provided')]) {
      expect(lostReason(error, session)).toEqual({
        text: 'the server no longer knows this session (it restarted or ended it); reconnecting',
        hostMessage: { code: 'server-state.session-gone', params: {} },
      });
      expect(fail(error, session)).toBeInstanceOf(SessionLostError);
    }
  });

  it('an unreachable server: lost, but the request may have reached it, so it is no SessionLostError', () => {
    expect(lostReason(refused(), session)).toEqual({
      text: 'lost the connection to http://127.0.0.1:9/mcp: connection refused',
      hostMessage: {
        code: 'server-state.connection-lost',
        params: { where: 'http://127.0.0.1:9/mcp', detail: 'connection refused' },
      },
    });
    const failure = fail(refused(), session);
    expect(failure).not.toBeInstanceOf(SessionLostError);
    expect(failure.message).toBe(
      "server 'remote' could not be reached while prompts/get was in progress: connection refused",
    );
  });

  it('neither without a session, over stdio, or for another HTTP error', () => {
    const cases: Array<[unknown, FailureContext]> = [
      [httpError(404, 'Not Found'), context('streamable-http', undefined)],
      [httpError(404, 'Not Found'), context('stdio', undefined)],
      [httpError(400, 'Bad Request: missing field'), session],
    ];
    for (const [error, ctx] of cases) {
      expect(lostReason(error, ctx)).toBeUndefined();
      expect(fail(error, ctx)).not.toBeInstanceOf(SessionLostError);
    }
  });
});

describe('a request that ran out of time', () => {
  const stdio = context('stdio', undefined);

  it('names the idle timeout, or the maximum total when that is what ran out', () => {
    expect(
      fail(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: 1_000 }), stdio).message,
    ).toBe("prompts/get prompt 'greet' on server 'remote' did not answer within 1 s");
    expect(
      fail(
        new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', { maxTotalTimeout: 600_000 }),
        stdio,
      ).message,
    ).toBe(
      "prompts/get prompt 'greet' on server 'remote' did not finish within its maximum total time of 600 s (time spent waiting for your answers not counted)",
    );
  });
});

describe('a request its caller cancelled', () => {
  it('reads as cancelled, not as a timeout, though the SDK rejects it with a RequestTimeout error', () => {
    const controller = new AbortController();
    controller.abort('cancelled by the user');
    const error = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out');
    const failure = requestFailure(
      'tools/call',
      "tool 'slow'",
      1_000,
      error,
      controller.signal,
      context('stdio', undefined),
    );
    expect(failure.message).toBe("tools/call tool 'slow' on server 'remote' was cancelled");
    // Without the caller's abort the same error is the timeout it says it is.
    expect(
      requestFailure('tools/call', "tool 'slow'", 1_000, error, undefined, context('stdio', undefined)).message,
    ).toBe("tools/call tool 'slow' on server 'remote' did not answer within 1 s");
  });
});

describe('a request whose link broke for a reason other than a closed stdout', () => {
  it('keeps the English and carries the transport’s words as a fact of its code', () => {
    const ctx = context('stdio', undefined);
    const broken = { ...ctx, transport: { ...ctx.transport, brokenReason: 'sent a message over 4 MB' } };
    const failure = requestFailure('tools/call', "tool 'big'", 1_000, new Error('closed'), undefined, broken);
    expect(failure).toMatchObject({
      code: 'SERVER_ERROR',
      message: "server 'remote' sent a message over 4 MB, so tools/call got no answer",
      hostMessage: {
        code: 'server-errors.link-broken-during',
        params: { name: 'remote', detail: 'sent a message over 4 MB', method: 'tools/call' },
      },
    });
  });
});
