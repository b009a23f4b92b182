import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Socket, connect as connectSocket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { WebSocket } from 'ws';
import {
  WS_PATH,
  WS_PROTOCOL,
  WS_TOKEN_PROTOCOL_PREFIX,
  type EventMessage,
  type ReplyMessage,
} from '../../shared/contract';
import { ok, type Result } from '../../shared/result';
import type { Host } from '../host/host-types';
import { createEventHub, type EventHub } from '../events/event-hub';
import { ClientDisconnect } from '../net/client-disconnect';
import { isLoopbackHostname } from '../net/loopback-guard';
import { CLOSE_TOO_SLOW, MAX_EVENT_CHARS, startBrowserServer, type BrowserServer } from './ws-server';

/** The smallest Host there is: records calls, echoes them, and emits through a real event hub. */
class RecordingHost implements Host {
  readonly calls: Array<{ method: unknown; input: unknown }> = [];
  readonly events: EventHub = createEventHub();
  async dispatch(method: unknown, input: unknown): Promise<Result<unknown>> {
    this.calls.push({ method, input });
    return ok({ method, input });
  }
  subscribe = this.events.subscribe;
  async shutdown(): Promise<void> {}
}

let dir: string;
let staticDir: string;
let host: RecordingHost;
let server: BrowserServer;
const openSockets: WebSocket[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-ws-'));
  staticDir = join(dir, 'static');
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  await writeFile(
    join(staticDir, 'index.html'),
    '<!doctype html><title>Berth</title><script src="/assets/app.js"></script>',
  );
  await writeFile(join(staticDir, 'assets', 'app.js'), 'console.log("hi")');
  await writeFile(join(staticDir, 'assets', 'style.css'), 'body{}');
  await writeFile(join(dir, 'secret.txt'), 'TOP-SECRET');
  host = new RecordingHost();
  server = await startBrowserServer({ host, staticDir });
});

afterEach(async () => {
  for (const ws of openSockets.splice(0)) ws.terminate();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const origin = (): string => `http://127.0.0.1:${server.port}`;
const wsUrl = (): string => `ws://127.0.0.1:${server.port}${WS_PATH}`;
const goodProtocols = (): string[] => [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${server.token}`];

/** Opens a socket; resolves with it when accepted, or with the HTTP status when refused. */
function connect(
  protocols: string[],
  headers: { origin?: string } = { origin: origin() },
): Promise<WebSocket | number> {
  return new Promise((resolveConnect, rejectConnect) => {
    const ws = new WebSocket(wsUrl(), protocols, headers.origin === undefined ? {} : { origin: headers.origin });
    openSockets.push(ws);
    ws.once('open', () => resolveConnect(ws));
    ws.once('unexpected-response', (_request, response) => resolveConnect(response.statusCode ?? 0));
    ws.once('error', rejectConnect);
  });
}

async function connectOk(): Promise<WebSocket> {
  const ws = await connect(goodProtocols());
  if (typeof ws === 'number') throw new Error(`refused with ${ws}`);
  return ws;
}

function nextMessage<T>(ws: WebSocket, predicate: (message: T) => boolean = () => true): Promise<T> {
  return new Promise((resolveMessage) => {
    const onMessage = (data: Buffer): void => {
      const message = JSON.parse(data.toString('utf8')) as T;
      if (!predicate(message)) return;
      ws.off('message', onMessage);
      resolveMessage(message);
    };
    ws.on('message', onMessage);
  });
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so paths and headers go out exactly as written. */
function rawRequest(path: string, headers: OutgoingHttpHeaders = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolveRequest, rejectRequest) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, path, method, headers: { Host: `127.0.0.1:${server.port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolveRequest({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolveRequest({ status: res.statusCode ?? 101, headers: res.headers, body: '' });
    });
    req.on('error', rejectRequest);
    req.end();
  });
}

function upgradeHeaders(overrides: Record<string, string | undefined>): OutgoingHttpHeaders {
  const headers: Record<string, string | undefined> = {
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': Buffer.from('0123456789abcdef').toString('base64'),
    'Sec-WebSocket-Protocol': goodProtocols().join(', '),
    Origin: origin(),
    ...overrides,
  };
  return Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as OutgoingHttpHeaders;
}

describe('browser-mode WebSocket bridge', () => {
  it('accepts the right token and Origin, answers calls and forwards events', async () => {
    const ws = await connectOk();
    expect(ws.protocol).toBe(WS_PROTOCOL);

    const reply = nextMessage<ReplyMessage>(ws, (message) => message.kind === 'reply');
    ws.send(JSON.stringify({ kind: 'call', id: 7, method: 'servers.list', input: {} }));
    expect(await reply).toEqual({
      kind: 'reply',
      id: 7,
      result: { ok: true, value: { method: 'servers.list', input: {} } },
    });
    expect(host.calls).toEqual([{ method: 'servers.list', input: {} }]);

    const event = nextMessage<EventMessage>(ws, (message) => message.kind === 'event');
    host.events.emit('servers.removed', { name: 'gone' });
    expect(await event).toEqual({ kind: 'event', topic: 'servers.removed', payload: { name: 'gone' } });
  });

  it('sends the events and replies of one tick in one socket write, in order', async () => {
    const ws = await connectOk();
    const received: string[] = [];
    ws.on('message', (data: Buffer) =>
      received.push((JSON.parse(data.toString('utf8')) as EventMessage & { payload: { name: string } }).payload.name),
    );
    // Count the server side's writes: its socket's local port is the bridge's.
    const writes = vi.spyOn(Socket.prototype, '_writev' as never) as unknown as MockInstance<(this: Socket) => void>;
    const serverWrites = (): number =>
      writes.mock.contexts.filter((socket) => (socket as unknown as Socket).localPort === server.port).length;
    try {
      for (const name of ['a', 'b', 'c']) host.events.emit('servers.removed', { name });
      // Over a real socket: vi.waitFor's one-second default is short for a loaded two-core machine.
      await vi.waitFor(() => expect(received).toEqual(['a', 'b', 'c']), { timeout: 10_000 });
      expect(serverWrites()).toBe(1);
    } finally {
      writes.mockRestore();
    }
  });

  it('accepts a localhost Origin too', async () => {
    const ws = await connect(goodProtocols(), { origin: `http://localhost:${server.port}` });
    expect(ws).toBeInstanceOf(WebSocket);
  });

  it.each([
    ['no token', () => [WS_PROTOCOL]],
    ['a wrong token', () => [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${'A'.repeat(43)}`]],
    [
      'a token that is a prefix of the right one',
      () => [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${server.token.slice(0, 10)}`],
    ],
    ['the token without the bridge protocol', () => [`${WS_TOKEN_PROTOCOL_PREFIX}${server.token}`]],
    ['no subprotocols at all', () => []],
  ])('refuses %s with 401', async (_label, protocols) => {
    expect(await connect(protocols())).toBe(401);
    expect(host.calls).toHaveLength(0);
  });

  it.each([
    ['a foreign Origin', 'http://evil.example'],
    ['an Origin on another port', 'http://127.0.0.1:1'],
    ['an https Origin', 'https://127.0.0.1'],
    ['the null Origin', 'null'],
  ])('refuses %s with 403', async (_label, badOrigin) => {
    const value = badOrigin === 'https://127.0.0.1' ? `https://127.0.0.1:${server.port}` : badOrigin;
    expect(await connect(goodProtocols(), { origin: value })).toBe(403);
    expect(host.calls).toHaveLength(0);
  });

  it('refuses a missing Origin with 403', async () => {
    expect(await connect(goodProtocols(), {})).toBe(403);
  });

  it('refuses an upgrade with a foreign Host header (DNS rebinding) and one on another path', async () => {
    const rebinding = await rawRequest(
      WS_PATH,
      upgradeHeaders({ Host: `evil.example:${server.port}`, Origin: `http://evil.example:${server.port}` }),
    );
    expect(rebinding.status).toBe(403);
    const rebindingSameOrigin = await rawRequest(WS_PATH, upgradeHeaders({ Host: `evil.example:${server.port}` }));
    expect(rebindingSameOrigin.status).toBe(403);
    const otherPath = await rawRequest('/elsewhere', upgradeHeaders({}));
    expect(otherPath.status).toBe(403);
    const accepted = await rawRequest(WS_PATH, upgradeHeaders({}));
    expect(accepted.status).toBe(101);
    expect(host.calls).toHaveLength(0);
  });

  it('answers bad JSON and wrong shapes with typed errors and keeps the socket open', async () => {
    const ws = await connectOk();
    const cases: Array<[string, number]> = [
      ['{not json', -1],
      ['[1,2,3]', -1],
      ['"a string"', -1],
      [JSON.stringify({ kind: 'call', id: 'seven', method: 'servers.list' }), -1],
      [JSON.stringify({ kind: 'call', id: 4, method: 42 }), 4],
      [JSON.stringify({ kind: 'reply', id: 5, method: 'servers.list' }), 5],
    ];
    for (const [text, id] of cases) {
      const reply = nextMessage<ReplyMessage>(ws);
      ws.send(text);
      const answer = await reply;
      expect(answer.id).toBe(id);
      expect(answer.result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    }
    const binaryReply = nextMessage<ReplyMessage>(ws);
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await binaryReply).result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });

    expect(host.calls).toHaveLength(0);
    const reply = nextMessage<ReplyMessage>(ws);
    ws.send(JSON.stringify({ kind: 'call', id: 9, method: 'config.status', input: {} }));
    expect((await reply).result.ok).toBe(true);
    expect(ws.readyState).toBe(WebSocket.OPEN);
  });

  it("answers a host that throws or a reply that cannot be serialized with the bridge's coded failure", async () => {
    const ws = await connectOk();
    host.dispatch = async (method) => {
      if (method === 'servers.list') throw new Error('boom');
      return ok({ big: 1n });
    };
    const thrown = nextMessage<ReplyMessage>(ws);
    ws.send(JSON.stringify({ kind: 'call', id: 1, method: 'servers.list', input: {} }));
    expect((await thrown).result).toEqual({
      ok: false,
      code: 'INTERNAL',
      message: 'Berth hit a bug while handling servers.list: boom',
      hostMessage: { code: 'bridge-errors.bug', params: { method: 'servers.list', detail: 'boom' } },
    });
    const unserializable = nextMessage<ReplyMessage>(ws);
    ws.send(JSON.stringify({ kind: 'call', id: 2, method: 'config.status', input: {} }));
    const answer = (await unserializable).result;
    expect(answer).toMatchObject({
      ok: false,
      code: 'INTERNAL',
      message: expect.stringMatching(/^The reply could not be serialized: .*BigInt/),
      hostMessage: { code: 'bridge-errors.reply-not-serializable' },
    });
  });

  it('closes a socket that sends more than the payload limit', async () => {
    const ws = await connectOk();
    const closed = new Promise<number>((resolveClose) => ws.once('close', (code) => resolveClose(code)));
    ws.send('x'.repeat(9 * 1024 * 1024));
    expect(await closed).toBe(1009);
    expect(host.calls).toHaveLength(0);
  });

  it('closes a socket that cannot keep up with 1013 instead of buffering without bound', async () => {
    const ws = await connectOk();
    let received = 0;
    ws.on('message', () => {
      received += 1;
    });
    const closed = new Promise<{ code: number; reason: string }>((resolveClose) =>
      ws.once('close', (code, reason) => resolveClose({ code, reason: reason.toString() })),
    );
    const bigText = 'y'.repeat(1024 * 1024);
    // Emitted in one tick, nothing drains in between, so the backlog passes the limit.
    for (let i = 0; i < 40; i += 1) {
      host.events.emit('logs.appended', {
        entries: [{ seq: i, server: 's', time: 0, source: 'stderr', text: bigText }],
      });
    }
    const { code, reason } = await closed;
    expect(code).toBe(CLOSE_TOO_SLOW);
    expect(reason).toMatch(/not reading/);
    expect(received).toBeLessThan(40);
  });

  it('does not send an event over the one-event limit: a log line, and the window stays and gets the next', async () => {
    const errors: string[] = [];
    await server.close();
    server = await startBrowserServer({ host, staticDir, onError: (error) => errors.push(String(error)) });
    const ws = await connectOk();
    let closed: number | undefined;
    ws.on('close', (code) => (closed = code));
    const topics: string[] = [];
    ws.on('message', (data: Buffer) => topics.push((JSON.parse(data.toString('utf8')) as { topic: string }).topic));
    const huge = 'z'.repeat(MAX_EVENT_CHARS);
    // Two in one tick: sent, they would pass the backlog limit and drop the window (1013).
    host.events.emit('logs.appended', { entries: [{ seq: 1, server: 's', time: 0, source: 'stderr', text: huge }] });
    host.events.emit('logs.appended', { entries: [{ seq: 2, server: 's', time: 0, source: 'stderr', text: huge }] });
    host.events.emit('servers.removed', { name: 'after' });
    await nextMessage(ws, (message: { topic?: string }) => message.topic === 'servers.removed');
    expect(topics).toEqual(['servers.removed']);
    expect(closed).toBeUndefined();
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(
      /Did not send a logs\.appended event of 4\.0 MB to the windows: one event may take at most 4 MB/,
    );
  });

  it('closes open sockets with 1001 and stops listening on close()', async () => {
    const ws = await connectOk();
    const closed = new Promise<number>((resolveClose) => ws.once('close', (code) => resolveClose(code)));
    await server.close();
    expect(await closed).toBe(1001);
    await expect(rawRequest('/')).rejects.toThrow();
    await server.close();
  });
});

describe('browser-mode static server', () => {
  it('serves index.html with a strict CSP and no caching', async () => {
    const page = await rawRequest('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>Berth</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port} ws://localhost:${server.port}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('serves assets with their MIME types and answers HEAD', async () => {
    const script = await rawRequest('/assets/app.js?v=1');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toBe('console.log("hi")');
    expect((await rawRequest('/assets/style.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    const head = await rawRequest('/assets/app.js', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect((await rawRequest('/', {}, 'POST')).status).toBe(405);
  });

  it('answers 404 for missing files and directories', async () => {
    expect((await rawRequest('/nope.js')).status).toBe(404);
    expect((await rawRequest('/assets')).status).toBe(404);
    expect((await rawRequest('/assets/')).status).toBe(404);
  });

  it.each([
    '/../secret.txt',
    '/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2e%2e%2f%2e%2e%2fpackage.json',
    '/assets/%00.js',
    '/%E0%A4%A',
  ])('never serves anything outside the static dir: %s', async (path) => {
    const response = await rawRequest(path);
    expect([400, 403, 404]).toContain(response.status);
    expect(response.body).not.toContain('TOP-SECRET');
  });

  it('refuses a symlink that points outside the static dir', async () => {
    await symlink(join(dir, 'secret.txt'), join(staticDir, 'leak.txt'));
    const response = await rawRequest('/leak.txt');
    expect(response.status).toBe(403);
    expect(response.body).not.toContain('TOP-SECRET');
  });

  it('refuses requests with a foreign Host header (DNS rebinding)', async () => {
    expect((await rawRequest('/', { Host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await rawRequest('/', { Host: '127.0.0.1' })).status).toBe(403);
    expect((await rawRequest('/', { Host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('explains how to build when the renderer is missing', async () => {
    await rm(join(staticDir, 'index.html'));
    const page = await rawRequest('/');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('npm run build');
  });
});

describe('browser-mode server options', () => {
  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '', '127.example.com'])(
    'refuses to bind %j',
    async (hostname) => {
      await expect(startBrowserServer({ host, staticDir, hostname })).rejects.toThrow(/loopback/);
    },
  );

  it('recognises loopback addresses', () => {
    for (const hostname of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1']) {
      expect(isLoopbackHostname(hostname)).toBe(true);
    }
    for (const hostname of ['::', '::ffff:10.0.0.1', '128.0.0.1', 'localhost.evil.example', '1.127.0.0']) {
      expect(isLoopbackHostname(hostname)).toBe(false);
    }
  });

  it('binds localhost as 127.0.0.1 and uses a given token', async () => {
    const token = 'a-fixed_token-for-tests-0123456789';
    const other = await startBrowserServer({ host, staticDir, hostname: 'localhost', token });
    try {
      expect(other.url).toBe(`http://127.0.0.1:${other.port}/`);
      expect(other.token).toBe(token);
    } finally {
      await other.close();
    }
  });

  it('makes a fresh 32-byte base64url token per run', () => {
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a token that cannot travel in a subprotocol', async () => {
    await expect(startBrowserServer({ host, staticDir, token: 'has spaces in it, and commas' })).rejects.toThrow(
      /token/,
    );
    await expect(startBrowserServer({ host, staticDir, token: 'short' })).rejects.toThrow(/token/);
  });

  it('says clearly when the port is taken', async () => {
    await expect(startBrowserServer({ host, staticDir, port: server.port })).rejects.toThrow(/already in use/);
  });
});

describe('a client that goes away abruptly', () => {
  let own: BrowserServer;
  const reported: unknown[] = [];
  beforeEach(async () => {
    reported.length = 0;
    own = await startBrowserServer({ host, staticDir, onError: (error) => reported.push(error) });
  });
  afterEach(async () => {
    await own.close();
  });

  /** Waits until `count` reports arrived, and a little more, so a second one for the same event would show. */
  async function reportsSettled(count: number): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (reported.length < count && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 20));
    await new Promise((wait) => setTimeout(wait, 200));
  }

  it('a request reset half-way is one line, not a stack trace', async () => {
    const socket = connectSocket(own.port);
    await new Promise<void>((resolveConnect) => socket.once('connect', () => resolveConnect()));
    socket.write(`GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:${own.port}\r\n`);
    await new Promise((wait) => setTimeout(wait, 50));
    socket.resetAndDestroy();
    await reportsSettled(1);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(ClientDisconnect);
    expect((reported[0] as Error).message).toBe(
      'browser-mode server: a client disconnected in the middle of a request (ECONNRESET)',
    );
  });

  it('a bridge connection dropped in the middle of a call is one line, not a stack trace', async () => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${own.port}${WS_PATH}`,
      [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${own.token}`],
      {
        origin: `http://127.0.0.1:${own.port}`,
      },
    );
    await new Promise((resolveOpen, rejectOpen) => {
      ws.once('open', resolveOpen);
      ws.once('error', rejectOpen);
    });
    ws.send(JSON.stringify({ kind: 'call', id: 1, method: 'app.info', input: {} }));
    ws.terminate();
    await reportsSettled(1);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(ClientDisconnect);
    expect((reported[0] as Error).message).not.toContain('\n');
  });
});
