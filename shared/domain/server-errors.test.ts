import { describe, expect, it } from 'vitest';
import { exitFact, notReadyError, secondsOf, serverError } from './server-errors';

describe("servers' failures: a code with its facts, and the English Berth always said", () => {
  it.each([
    [serverError('server-errors.not-found', { name: 'ghost' }), 'No server named "ghost"'],
    [serverError('server-errors.not-supervised', { name: 'ghost' }), "no server named 'ghost'"],
    [serverError('server-errors.name-taken', { name: 'files' }), 'A server named "files" already exists'],
    [
      serverError('server-errors.exited-during', {
        name: 'a',
        method: 'tools/call',
        exit: exitFact({ code: 1, signal: null }),
      }),
      "server 'a' exited (code 1) while tools/call was in progress",
    ],
    [
      serverError('server-errors.exited-during', {
        name: 'a',
        method: 'tools/call',
        exit: exitFact({ code: null, signal: 'SIGKILL' }),
      }),
      "server 'a' exited (signal SIGKILL) while tools/call was in progress",
    ],
    [
      serverError('server-errors.timeout', { name: 'a', subject: 'tools/call', seconds: secondsOf(2_500) }),
      "tools/call on server 'a' did not answer within 2.5 s",
    ],
    [
      serverError('server-errors.answered-error', {
        name: 'a',
        subject: 'prompts/get',
        errorCode: '-32602',
        detail: 'bad',
      }),
      "server 'a' answered prompts/get with error -32602: bad",
    ],
    [
      serverError('server-errors.reconnect-timeout', {
        name: 'r',
        subject: 'tools/call',
        cause: 'session-lost',
        seconds: 30,
      }),
      "server 'r' ended the session before tools/call ran; reconnecting, but it was not back within 30 s",
    ],
    [
      serverError('server-errors.reconnect-cancelled', { name: 'r', subject: '', cause: 'reconnecting' }),
      "server 'r' is reconnecting; cancelled while waiting for the reconnect",
    ],
  ])('%j', (words, english) => {
    expect(words.text).toBe(english);
    expect(words.hostMessage.code).toMatch(/^server-errors\./);
  });

  it('keeps the English action out of the facts of a server that is not ready', () => {
    expect(notReadyError('a', 'starting', "call tool 'x'")).toEqual({
      text: "server 'a' is starting, not ready: cannot call tool 'x'",
      hostMessage: { code: 'server-errors.not-ready', params: { name: 'a', status: 'starting' } },
    });
  });
});
