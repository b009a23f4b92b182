import { describe, expect, it } from 'vitest';
import { serverStateReason } from './server-state-reasons';

describe('how a ready server went away: a code with its facts, and the English Berth always said', () => {
  it.each([
    [serverStateReason('server-state.exited', { exit: '3' }), 'exited with code 3'],
    [serverStateReason('server-state.exited', { exit: 'SIGKILL' }), 'exited with signal SIGKILL'],
    [serverStateReason('server-state.exited', { exit: 'unknown' }), 'exited with code unknown'],
    [
      serverStateReason('server-state.exited-stderr', { exit: '1', stderr: 'boom' }),
      'exited with code 1 — stderr: boom',
    ],
    [
      serverStateReason('server-state.closed-stderr', { stderr: 'bye' }),
      'the connection to the server closed — stderr: bye',
    ],
    [
      serverStateReason('server-state.broken', { detail: 'closed its output (stdout) while still running' }),
      'closed its output (stdout) while still running; Berth stopped it',
    ],
    [
      serverStateReason('server-state.connection-lost', { where: 'http://h/mcp', detail: 'connection refused' }),
      'lost the connection to http://h/mcp: connection refused',
    ],
  ])('%j', (words, english) => {
    expect(words.text).toBe(english);
  });

  it('sends the exit as a fact, not as words', () => {
    expect(serverStateReason('server-state.exited', { exit: 'SIGKILL' }).hostMessage).toEqual({
      code: 'server-state.exited',
      params: { exit: 'SIGKILL' },
    });
  });
});
