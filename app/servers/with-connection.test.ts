import { describe, expect, it, vi } from 'vitest';
import { HostError } from '../../shared/result';
import type { ServerState } from '../../shared/domain/server';
import { SessionLostError } from './connection-errors';
import type { SupervisedConnection } from './connection-options';
import type { Entry } from './supervisor-entry';
import { serverConfig } from './test-support';
import { withConnection } from './with-connection';

const first = { id: 'first' } as unknown as SupervisedConnection;
const second = { id: 'second' } as unknown as SupervisedConnection;

function remoteEntry(): Entry {
  const config = serverConfig({ url: 'http://127.0.0.1:1/mcp' });
  return {
    name: 'remote',
    config,
    state: { name: 'remote', config, status: 'ready', tools: [], restartCount: 0 },
    connection: first,
    queue: Promise.resolve(),
    removed: false,
    heldByPerson: false,
    watchers: new Set(),
  };
}

/** What the supervisor does when a lost session is noticed and then re-established. */
function reconnect(entry: Entry, connection: SupervisedConnection): void {
  const set = (status: ServerState['status'], next: SupervisedConnection | undefined): void => {
    entry.state = { ...entry.state, status };
    entry.connection = next;
    for (const watch of [...entry.watchers]) watch();
  };
  set('restarting', undefined);
  setTimeout(() => set('ready', connection), 10);
}

const lost = (): SessionLostError =>
  new SessionLostError("server 'remote' ended the session before prompts/get ran; reconnecting");

describe('withConnection: one resend after a lost session', () => {
  it('sends a request the lost session never ran once more, on the new connection', async () => {
    const entry = remoteEntry();
    const send = vi.fn(async (connection: SupervisedConnection) => {
      if (connection === first) {
        reconnect(entry, second);
        throw lost();
      }
      return 'answer';
    });
    await expect(withConnection(entry, { action: 'get prompt', timeoutMs: 5_000 }, send)).resolves.toBe('answer');
    expect(send.mock.calls.map(([connection]) => connection)).toEqual([first, second]);
  });

  it('does not resend a failure that may have reached the server', async () => {
    const entry = remoteEntry();
    const failure = new HostError(
      'SERVER_ERROR',
      "server 'remote' could not be reached while prompts/get was in progress: connection reset",
    );
    const send = vi.fn(async () => {
      reconnect(entry, second);
      throw failure;
    });
    await expect(withConnection(entry, { action: 'get prompt', timeoutMs: 5_000 }, send)).rejects.toBe(failure);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('never resends twice: a second lost session is reported', async () => {
    const entry = remoteEntry();
    const send = vi.fn(async (connection: SupervisedConnection) => {
      reconnect(entry, connection === first ? second : first);
      throw lost();
    });
    await expect(withConnection(entry, { action: 'get prompt', timeoutMs: 5_000 }, send)).rejects.toBeInstanceOf(
      SessionLostError,
    );
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('does not resend a request the person cancelled, before or while waiting for the reconnect', async () => {
    const entry = remoteEntry();
    const cancelled = new AbortController();
    cancelled.abort();
    const send = vi.fn(async () => {
      reconnect(entry, second);
      throw lost();
    });
    await expect(
      withConnection(entry, { action: 'get prompt', timeoutMs: 5_000, signal: cancelled.signal }, send),
    ).rejects.toBeInstanceOf(SessionLostError);
    expect(send).toHaveBeenCalledTimes(1);

    const later = new AbortController();
    const waiting = remoteEntry();
    const sendLater = vi.fn(async () => {
      // Lost, and not back yet when the person cancels.
      waiting.state = { ...waiting.state, status: 'restarting' };
      waiting.connection = undefined;
      setTimeout(() => later.abort(), 10);
      throw lost();
    });
    await expect(
      withConnection(waiting, { action: 'get prompt', timeoutMs: 5_000, signal: later.signal }, sendLater),
    ).rejects.toThrow(/cancelled while waiting for the reconnect/);
    expect(sendLater).toHaveBeenCalledTimes(1);
  });

  it('waits for a remote server that is reconnecting instead of answering "not ready"', async () => {
    const entry = remoteEntry();
    reconnect(entry, second);
    const send = vi.fn(async (connection: SupervisedConnection) => (connection === second ? 'answer' : 'stale'));
    await expect(withConnection(entry, { action: 'get prompt', timeoutMs: 5_000 }, send)).resolves.toBe('answer');
    expect(send).toHaveBeenCalledTimes(1);
  });
});
