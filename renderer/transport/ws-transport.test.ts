import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsClient, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX, type CallMessage } from '../../shared/contract';
import { connectionLostMessage, type ConnectionStatus, type RendererTransport } from './connection';
import { createWsTransport, type SocketFactory } from './ws-transport';

const TOKEN = 'test-token-123';

/** A real WebSocket server speaking the bridge's wire format, scripted per test. */
interface FakeHost {
  url: string;
  port: number;
  sockets: ServerSocket[];
  calls: CallMessage[];
  protocols: string[][];
  /** How the host answers a call; default echoes the input back as the value. */
  answer: (call: CallMessage, socket: ServerSocket) => void;
  close(): Promise<void>;
}

async function startHost(port = 0): Promise<FakeHost> {
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port,
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const address = wss.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  const host: FakeHost = {
    url: `ws://127.0.0.1:${address.port}/bridge`,
    port: address.port,
    sockets: [],
    calls: [],
    protocols: [],
    answer: (call, socket) =>
      socket.send(JSON.stringify({ kind: 'reply', id: call.id, result: { ok: true, value: call.input } })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of host.sockets) socket.terminate();
        wss.close(() => resolve());
      }),
  };
  wss.on('connection', (socket, request) => {
    host.sockets.push(socket);
    host.protocols.push(
      String(request.headers['sec-websocket-protocol'] ?? '')
        .split(',')
        .map((p) => p.trim()),
    );
    socket.on('message', (data) => {
      const call = JSON.parse(String(data)) as CallMessage;
      host.calls.push(call);
      host.answer(call, socket);
    });
  });
  return host;
}

function waitFor<T>(read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  return vi.waitFor(
    () => {
      const value = read();
      if (value === undefined || value === false) throw new Error('condition not met yet');
      return value;
    },
    { timeout: timeoutMs, interval: 10 },
  );
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function connect(url: string, options: { initialDelayMs?: number } = {}): RendererTransport {
  const transport = createWsTransport({
    url,
    token: TOKEN,
    WebSocketImpl: WsClient as unknown as SocketFactory,
    initialDelayMs: options.initialDelayMs ?? 20,
    maxDelayMs: 200,
  });
  cleanups.push(() => transport.close());
  return transport;
}

describe('createWsTransport', () => {
  it('offers the bridge subprotocol and the token subprotocol', async () => {
    const host = await startHost();
    cleanups.push(() => host.close());
    const transport = connect(host.url);
    await waitFor(() => transport.connection.get().state === 'open');
    expect(host.protocols[0]).toEqual([WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX + TOKEN]);
  });

  it('queues calls made while connecting and sends them once open', async () => {
    const host = await startHost();
    cleanups.push(() => host.close());
    const transport = connect(host.url);
    expect(transport.connection.get().state).toBe('connecting');
    const first = transport.call('servers.start', { name: 'a' });
    const second = transport.call('servers.stop', { name: 'b' });
    await expect(first).resolves.toEqual({ ok: true, value: { name: 'a' } });
    await expect(second).resolves.toEqual({ ok: true, value: { name: 'b' } });
    expect(host.calls.map((c) => [c.kind, c.method])).toEqual([
      ['call', 'servers.start'],
      ['call', 'servers.stop'],
    ]);
  });

  it('matches replies to calls by id even when the host answers out of order', async () => {
    const host = await startHost();
    cleanups.push(() => host.close());
    const held: { call: CallMessage; socket: ServerSocket }[] = [];
    host.answer = (call, socket) => {
      held.push({ call, socket });
      if (held.length < 3) return;
      for (const { call: c, socket: s } of held.reverse()) {
        s.send(JSON.stringify({ kind: 'reply', id: c.id, result: { ok: true, value: c.method } }));
      }
    };
    const transport = connect(host.url);
    const results = await Promise.all([
      transport.call('servers.list', {}),
      transport.call('app.info', {}),
      transport.call('config.status', {}),
    ]);
    expect(results.map((r) => (r.ok ? r.value : r.code))).toEqual(['servers.list', 'app.info', 'config.status']);
  });

  it('passes failures through as values', async () => {
    const host = await startHost();
    cleanups.push(() => host.close());
    host.answer = (call, socket) =>
      socket.send(
        JSON.stringify({
          kind: 'reply',
          id: call.id,
          result: { ok: false, code: 'NOT_FOUND', message: 'No server named x' },
        }),
      );
    const transport = connect(host.url);
    await expect(transport.call('servers.start', { name: 'x' })).resolves.toEqual({
      ok: false,
      code: 'NOT_FOUND',
      message: 'No server named x',
    });
  });

  it("keeps a failure's host message, so the renderer can word it", async () => {
    const host = await startHost();
    cleanups.push(() => host.close());
    const result = {
      ok: false,
      code: 'NOT_FOUND',
      message: 'No server named "x"',
      path: 'name',
      hostMessage: { code: 'server-errors.not-found', params: { name: 'x' } },
    };
    host.answer = (call, socket) => socket.send(JSON.stringify({ kind: 'reply', id: call.id, result }));
    await expect(connect(host.url).call('servers.start', { name: 'x' })).resolves.toEqual(result);
  });

  it("turns the router's contract wording into words a person can act on", async () => {
    const host = await startHost();
    cleanups.push(() => host.close());
    host.answer = (call, socket) =>
      socket.send(
        JSON.stringify({
          kind: 'reply',
          id: call.id,
          result: {
            ok: false,
            code: 'INVALID_INPUT',
            message: 'Invalid input for chat.rename: title: Too big: expected string to have <=200 characters',
            path: 'title',
            hostMessage: { code: 'bridge-errors.too-long', params: { field: 'title', max: 200 } },
          },
        }),
      );
    const transport = connect(host.url);
    await expect(transport.call('chat.rename', { id: 'c1', title: ' ' })).resolves.toEqual({
      ok: false,
      code: 'INVALID_INPUT',
      message: 'The title is too long (at most 200 characters).',
      path: 'title',
      hostMessage: { code: 'bridge-errors.too-long', params: { field: 'title', max: 200 } },
    });
  });

  it('delivers events to the listeners of their topic only, and stops after unsubscribe', async () => {
    const host = await startHost();
    cleanups.push(() => host.close());
    const transport = connect(host.url);
    const removed: unknown[] = [];
    const cleared: unknown[] = [];
    const off = transport.on('servers.removed', (payload) => removed.push(payload));
    transport.on('logs.cleared', (payload) => cleared.push(payload));
    await waitFor(() => transport.connection.get().state === 'open');
    await waitFor(() => host.sockets[0]);
    host.sockets[0]!.send(JSON.stringify({ kind: 'event', topic: 'servers.removed', payload: { name: 'a' } }));
    await waitFor(() => removed.length === 1);
    off();
    host.sockets[0]!.send(JSON.stringify({ kind: 'event', topic: 'servers.removed', payload: { name: 'b' } }));
    host.sockets[0]!.send(JSON.stringify({ kind: 'event', topic: 'logs.cleared', payload: {} }));
    await waitFor(() => cleared.length === 1);
    expect(removed).toEqual([{ name: 'a' }]);
  });

  it('ignores malformed messages and unknown topics without breaking the connection', async () => {
    const host = await startHost();
    cleanups.push(() => host.close());
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    cleanups.push(() => errors.mockRestore());
    const transport = connect(host.url);
    const seen: unknown[] = [];
    transport.on('logs.cleared', (payload) => seen.push(payload));
    await waitFor(() => host.sockets[0]);
    const socket = host.sockets[0]!;
    socket.send('not json');
    socket.send(JSON.stringify({ kind: 'event', topic: 'no.such.topic', payload: {} }));
    socket.send(JSON.stringify({ kind: 'reply', id: 9999, result: { ok: true, value: 1 } }));
    socket.send(JSON.stringify({ kind: 'event', topic: 'logs.cleared', payload: { server: 'z' } }));
    await waitFor(() => seen.length === 1);
    // The JSON and the unknown reply are reported here; a topic nobody subscribed to reaches
    // no listener (topic names and payloads are checked by validated-events.ts, above this layer).
    expect(errors).toHaveBeenCalledTimes(2);
    expect(seen).toEqual([{ server: 'z' }]);
    await expect(transport.call('app.info', {})).resolves.toMatchObject({ ok: true });
  });

  it('fails pending calls when the socket closes instead of leaving them hanging', async () => {
    const host = await startHost();
    cleanups.push(() => host.close());
    host.answer = () => undefined; // never answers
    const transport = connect(host.url, { initialDelayMs: 5_000 });
    const pending = transport.call('servers.restart', { name: 'slow' });
    await waitFor(() => host.calls.length === 1);
    host.sockets[0]!.terminate();
    await expect(pending).resolves.toEqual({ ok: false, code: 'INTERNAL', message: connectionLostMessage() });
    expect(transport.connection.get().state).toBe('lost');
    // While lost, new calls fail at once rather than queueing forever.
    await expect(transport.call('app.info', {})).resolves.toMatchObject({ ok: false, code: 'INTERNAL' });
  });

  it('reconnects with backoff after the host goes away and comes back', async () => {
    const host = await startHost();
    const transport = connect(host.url, { initialDelayMs: 20 });
    const states: ConnectionStatus['state'][] = [];
    transport.connection.subscribe((status) => states.push(status.state));
    await waitFor(() => transport.connection.get().state === 'open');
    const port = host.port;
    await host.close();
    await waitFor(() => transport.connection.get().state === 'lost');
    // Let a few attempts fail against the closed port.
    await waitFor(() => transport.connection.get().failedAttempts >= 2);
    const again = await startHost(port);
    cleanups.push(() => again.close());
    await waitFor(() => transport.connection.get().state === 'open', 15_000);
    expect(transport.connection.get()).toMatchObject({ state: 'open', everOpened: true, failedAttempts: 0 });
    expect(states).toContain('lost');
    await expect(transport.call('servers.start', { name: 'back' })).resolves.toEqual({
      ok: true,
      value: { name: 'back' },
    });
  });

  it('retryNow skips the backoff wait', async () => {
    const host = await startHost();
    const transport = connect(host.url, { initialDelayMs: 60_000 });
    await waitFor(() => transport.connection.get().state === 'open');
    const port = host.port;
    await host.close();
    await waitFor(() => transport.connection.get().state === 'lost');
    const again = await startHost(port);
    cleanups.push(() => again.close());
    transport.connection.retryNow();
    await waitFor(() => transport.connection.get().state === 'open');
  });

  it('close() fails pending calls and does not reconnect', async () => {
    const host = await startHost();
    cleanups.push(() => host.close());
    host.answer = () => undefined;
    const transport = connect(host.url);
    const pending = transport.call('app.info', {});
    await waitFor(() => host.calls.length === 1);
    transport.close();
    await expect(pending).resolves.toMatchObject({ ok: false, code: 'INTERNAL' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(host.sockets).toHaveLength(1);
    expect(transport.connection.get().state).toBe('lost');
  });
});
