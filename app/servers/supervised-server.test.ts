import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { HostError } from '../../shared/result';
import type { ServerConfigInput } from '../../shared/domain/server';
import { ServerStartError, startFailureWords } from '../../shared/domain/server-start-error';
import { SessionLostError } from './connection-errors';
import { ServerSupervisor } from './supervisor';
import { FakeOpener } from './supervisor-fakes';
import { LogCollector, StateRecorder, serverConfig, tempDir } from './test-support';

/**
 * One server's requests across a lost HTTP session: the session is lost for real (the connection goes away, the
 * server restarts after its backoff and comes back on a new client), only the connection is a fake.
 */

const REQUEST = { method: 'prompts/get', what: "prompt 'greet'", action: "get prompt 'greet'" };

let dir: { path: string; cleanup: () => Promise<void> };
let opener: FakeOpener;
let supervisor: ServerSupervisor;

beforeEach(async () => {
  dir = await tempDir('berth-supervised-server-');
  opener = new FakeOpener();
  supervisor = new ServerSupervisor({
    logs: new LogCollector(),
    stateDir: dir.path,
    onState: new StateRecorder().onState,
    openConnection: opener.open,
  });
});

afterEach(async () => {
  await supervisor.shutdown();
  await dir.cleanup();
});

/** A remote server, ready, that comes back `initialDelayMs` after it is lost. */
async function remote(initialDelayMs = 100, extra: Partial<ServerConfigInput> = {}): Promise<Client> {
  const restart = { enabled: true, maxRestarts: 5, initialDelayMs, maxDelayMs: Math.max(1_000, initialDelayMs) };
  await supervisor.sync({ remote: serverConfig({ url: 'http://127.0.0.1:1/mcp', restart, ...extra }) });
  expect(supervisor.get('remote')?.status).toBe('ready');
  return opener.latest.client;
}

/** The session is gone: the connection goes away (the server restarts) and the request fails as never run. */
function loseSession(): SessionLostError {
  opener.latest.lose("server 'remote' ended the session; reconnecting");
  return new SessionLostError('remote', 'prompts/get');
}

describe('SupervisedServer: one resend after a lost session', () => {
  it('sends a request the lost session never ran once more, on the new connection', async () => {
    const first = await remote();
    const send = vi.fn(async (client: Client) => {
      if (client === first) throw loseSession();
      return 'answer';
    });
    await expect(supervisor.request('remote', REQUEST, send)).resolves.toBe('answer');
    const clients = send.mock.calls.map(([client]) => client);
    expect(clients).toHaveLength(2);
    expect(clients[0]).toBe(first);
    expect(clients[1]).toBe(opener.latest.client);
    expect(clients[1]).not.toBe(first);
  });

  it('does not resend a failure that may have reached the server', async () => {
    await remote();
    const failure = new HostError(
      'SERVER_ERROR',
      "server 'remote' could not be reached while prompts/get was in progress: connection reset",
    );
    const send = vi.fn(async () => {
      loseSession();
      throw failure;
    });
    await expect(supervisor.request('remote', REQUEST, send)).rejects.toBe(failure);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('never resends twice: a second lost session is reported', async () => {
    await remote();
    const send = vi.fn(async () => {
      throw loseSession();
    });
    await expect(supervisor.request('remote', REQUEST, send)).rejects.toBeInstanceOf(SessionLostError);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('does not resend a request cancelled before the loss', async () => {
    await remote();
    const cancelled = new AbortController();
    cancelled.abort();
    const send = vi.fn(async () => {
      throw loseSession();
    });
    await expect(supervisor.request('remote', { ...REQUEST, signal: cancelled.signal }, send)).rejects.toBeInstanceOf(
      SessionLostError,
    );
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('does not resend a request cancelled while waiting for the reconnect', async () => {
    await remote(60_000);
    const later = new AbortController();
    const send = vi.fn(async () => {
      // Lost, and not back yet when the person cancels.
      setTimeout(() => later.abort(), 10);
      throw loseSession();
    });
    await expect(supervisor.request('remote', { ...REQUEST, signal: later.signal }, send)).rejects.toMatchObject({
      message: expect.stringMatching(/cancelled while waiting for the reconnect/),
      hostMessage: {
        code: 'server-errors.reconnect-cancelled',
        params: { name: 'remote', subject: 'prompts/get', cause: 'session-lost' },
      },
    });
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('waits for a remote server that is reconnecting instead of answering "not ready"', async () => {
    const first = await remote();
    loseSession();
    expect(supervisor.get('remote')?.status).toBe('restarting');
    const send = vi.fn(async (client: Client) => (client === first ? 'stale' : 'answer'));
    await expect(supervisor.request('remote', REQUEST, send)).resolves.toBe('answer');
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('reports a reconnect that fails for good in words', async () => {
    await remote(100, { restart: { enabled: false } });
    const send = vi.fn(async () => {
      throw loseSession();
    });
    const failure = supervisor.request('remote', REQUEST, send);
    await expect(failure).rejects.toThrow(
      /before prompts\/get ran; reconnecting, but could not reconnect: server 'remote' ended the session; reconnecting/,
    );
    // The server's reason is nested (restart off around the lost connection), so the renderer words it too.
    await expect(failure).rejects.toMatchObject({
      hostMessage: {
        code: 'server-errors.reconnect-failed',
        params: {
          name: 'remote',
          subject: 'prompts/get',
          cause: 'session-lost',
        },
        cause: { code: 'server-state.restart-off' },
      },
    });
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('nests every reason of a reconnect that never came: the policy gave up around a failed start', async () => {
    await remote(100, { restart: { enabled: true, maxRestarts: 1, initialDelayMs: 100, maxDelayMs: 1_000 } });
    const start = startFailureWords({ code: 'exited', exit: '2', stage: 'handshake', serverLine: 'fatal: bad token' });
    opener.plans.push(new ServerStartError(start.text, 'exited', undefined, undefined, start.hostMessage));
    const send = vi.fn(async () => {
      throw loseSession();
    });
    await expect(supervisor.request('remote', REQUEST, send)).rejects.toMatchObject({
      message:
        "server 'remote' ended the session before prompts/get ran; reconnecting, but could not reconnect: " +
        'gave up after 1 restart: exited (code 2) during the MCP handshake — stderr: fatal: bad token',
      hostMessage: {
        code: 'server-errors.reconnect-failed',
        params: { name: 'remote', subject: 'prompts/get', cause: 'session-lost' },
        cause: {
          code: 'server-state.gave-up',
          params: { restarts: 1, reason: start.text },
          cause: start.hostMessage,
        },
      },
    });
    expect(send).toHaveBeenCalledTimes(1);
  });
});
