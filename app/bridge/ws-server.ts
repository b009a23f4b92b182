import { randomBytes } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { WS_PATH, WS_PROTOCOL, type EventMessage, type ReplyMessage } from '../../shared/contract';
import { fail, type Result } from '../../shared/result';
import type { Host } from '../host/host-types';
import {
  allowedHostHeaders,
  allowedOrigins,
  bindAddress,
  checkSubprotocols,
  checkToken,
  isAllowedHostHeader,
  isLoopbackHostname,
  type UpgradeRefusal,
} from '../net/loopback-guard';
import { errorMessage } from '../../shared/error-message';
import { bridgeError } from '../../shared/domain/bridge-errors';
import { ClientDisconnect, clientDisconnect, isClientGone } from '../net/client-disconnect';
import { createStaticHandler } from './static-files';
import { corkUntilTickEnd } from '../tick-cork';

/** Options for {@link startBrowserServer}. */
export interface BrowserServerOptions {
  host: Host;
  /** The built renderer (index.html and its assets). */
  staticDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Must be a loopback address: 127.0.0.0/8, ::1 or localhost (binds 127.0.0.1). */
  hostname?: string;
  /** Defaults to 32 random bytes, base64url. */
  token?: string;
  /** Where to report failures that have no caller to answer (defaults to stderr). */
  onError?(error: unknown): void;
  /**
   * The MCP Apps sandbox's origin (app/apps/sandbox-proxy-server.ts): Berth's
   * pages may frame it, and the WebSocket refuses it by name.
   */
  appSandboxOrigin?: string;
}

/** A running browser-mode server. */
export interface BrowserServer {
  /** The page to open, e.g. `http://127.0.0.1:PORT/`; append `#token=TOKEN`. */
  url: string;
  port: number;
  token: string;
  /** Closes every socket and the listener; idempotent. Does not shut the host down. */
  close(): Promise<void>;
}

export const MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;
/** Past this much unsent data a client is not keeping up; close it rather than buffer without bound. */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/**
 * The most one event may take (characters of its JSON). Events are bounded at their source (big tool results travel
 * as previews, app/chat/results/result-preview.ts); this is the fail-safe: an event past it is not sent, with a log
 * line, because two such events in one tick would pass MAX_BUFFERED_BYTES and drop every window.
 */
export const MAX_EVENT_CHARS = 4 * 1024 * 1024;
/** RFC 6455 "Try Again Later". */
export const CLOSE_TOO_SLOW = 1013;
const TERMINATE_AFTER_CLOSE_MS = 5_000;
/** The TCP socket under each accepted WebSocket, corked per tick by {@linkcode send}. */
const wireOf = new WeakMap<WebSocket, Duplex>();

export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const { host, staticDir, port: requestedPort = 0, hostname = '127.0.0.1' } = options;
  if (!isLoopbackHostname(hostname)) {
    throw new Error(
      `Browser mode only listens on a loopback address (127.0.0.1, ::1 or localhost); refusing to bind "${hostname}"`,
    );
  }
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65_535) {
    throw new Error(`The port must be an integer from 0 to 65535, not ${String(requestedPort)}`);
  }
  const token = checkToken(options.token ?? randomBytes(32).toString('base64url'));
  const reportError = options.onError ?? ((error: unknown) => console.error('[berth] browser-mode server:', error));
  const { listenHost, urlHost } = bindAddress(hostname);

  const server = createServer();
  const port = await listen(server, listenHost, requestedPort);
  const hosts = allowedHostHeaders(urlHost, port);
  const origins = allowedOrigins(urlHost, port);
  const serveStatic = createStaticHandler({
    staticDir,
    port,
    onError: reportError,
    ...(options.appSandboxOrigin !== undefined ? { appSandboxOrigin: options.appSandboxOrigin } : {}),
  });
  const sockets = new Set<WebSocket>();

  server.on('request', (request, response) => {
    if (!isAllowedHostHeader(request.headers.host, hosts)) {
      response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      response.end('Forbidden: unexpected Host header\n');
      return;
    }
    serveStatic(request, response).catch((error: unknown) => {
      reportError(error);
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('Internal error\n');
    });
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_PAYLOAD_BYTES,
    perMessageDeflate: false,
    // Reached only after checkUpgrade accepted the list, which contains WS_PROTOCOL.
    handleProtocols: () => WS_PROTOCOL,
  });
  wss.on('error', reportError);

  // A request the client dropped half-way is one line; anything else gets Node's own 400, as before.
  server.on('clientError', (error, socket) => {
    if (isClientGone(error)) reportError(clientDisconnect('browser-mode server', error));
    else if (socket.writable) socket.write('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    socket.destroy();
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', (error) => {
      reportError(
        isClientGone(error)
          ? clientDisconnect('bridge', error)
          : new Error(`bridge upgrade socket error: ${errorMessage(error)}`),
      );
      socket.destroy();
    });
    const refusal = checkUpgrade(request, { hosts, origins, token, appSandboxOrigin: options.appSandboxOrigin });
    if (refusal) {
      refuseUpgrade(socket, refusal);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      wireOf.set(ws, socket);
      sockets.add(ws);
      host.clientsChanged?.(sockets.size);
      ws.on('close', () => {
        // Requests waiting for the person are withdrawn after a grace period with no window left.
        if (sockets.delete(ws)) host.clientsChanged?.(sockets.size);
      });
      ws.on('error', (error) => {
        // Reported, not swallowed: a dropped bridge connection must leave a trace (a reset's is the close below).
        if (!isClientGone(error)) reportError(new Error(`bridge connection error: ${errorMessage(error)}`));
        ws.terminate();
      });
      ws.on('close', (code, reason) => {
        if (code === 1006)
          reportError(
            new ClientDisconnect('bridge: a window’s connection dropped without closing (1006); it reconnects'),
          );
        else if (code !== 1000 && code !== 1001 && code !== 1005)
          reportError(new Error(`bridge connection closed: ${code} ${reason.toString('utf8')}`));
      });
      ws.on('message', (data, isBinary) => {
        void handleMessage(host, ws, data, isBinary, reportError);
      });
    });
  });

  const unsubscribe = host.subscribe((topic, payload) => {
    if (sockets.size === 0) return;
    const event: EventMessage = { kind: 'event', topic, payload };
    let text: string;
    try {
      text = JSON.stringify(event);
    } catch (error) {
      reportError(new Error(`Could not serialize the ${topic} event: ${errorMessage(error)}`));
      return;
    }
    if (text.length > MAX_EVENT_CHARS) {
      reportError(
        new Error(
          `Did not send a ${topic} event of ${(text.length / 1024 / 1024).toFixed(1)} MB to the windows: one event may take at most ${MAX_EVENT_CHARS / 1024 / 1024} MB (a window would be dropped as too slow); reopening the view reloads it`,
        ),
      );
      return;
    }
    for (const ws of sockets) send(ws, text);
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolveClose) => {
      unsubscribe();
      for (const ws of sockets) {
        ws.close(1001, 'Berth is shutting down');
        setTimeout(() => ws.terminate(), TERMINATE_AFTER_CLOSE_MS).unref();
      }
      wss.close();
      server.close(() => resolveClose());
      server.closeAllConnections();
    });
    return closing;
  };

  return { url: `http://${urlHost}:${port}/`, port, token, close };
}

function listen(server: Server, hostname: string, port: number): Promise<number> {
  return new Promise((resolveListen, rejectListen) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        rejectListen(
          Object.assign(
            new Error(`Port ${port} on ${hostname} is already in use; choose another port, or 0 for a free one`),
            { code: error.code },
          ),
        );
      } else if (error.code === 'EACCES') {
        rejectListen(
          Object.assign(new Error(`Not allowed to listen on ${hostname}:${port} (ports below 1024 need privileges)`), {
            code: error.code,
          }),
        );
      } else {
        rejectListen(error);
      }
    };
    const onListening = (): void => {
      server.off('error', onError);
      const address = server.address();
      if (address === null || typeof address === 'string') {
        rejectListen(new Error('The browser-mode server did not get a TCP address'));
        return;
      }
      resolveListen(address.port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host: hostname, port, exclusive: true });
  });
}

interface UpgradePolicy {
  hosts: ReadonlySet<string>;
  origins: ReadonlySet<string>;
  token: string;
  appSandboxOrigin: string | undefined;
}

function checkUpgrade(request: IncomingMessage, policy: UpgradePolicy): UpgradeRefusal | undefined {
  const path = (request.url ?? '').split('?', 1)[0];
  if (path !== WS_PATH) return { status: 403, reason: `WebSockets are only served on ${WS_PATH}` };
  if (!isAllowedHostHeader(request.headers.host, policy.hosts))
    return { status: 403, reason: 'Unexpected Host header' };
  const origin = request.headers.origin;
  // The allowlist below already leaves these out; naming them keeps an app's frames refused if it ever widens.
  if (origin === 'null')
    return { status: 403, reason: 'Origin not allowed: an opaque origin (a sandboxed frame, such as an app)' };
  if (origin !== undefined && origin === policy.appSandboxOrigin)
    return { status: 403, reason: "Origin not allowed: the apps' sandbox" };
  if (origin === undefined || !policy.origins.has(origin)) return { status: 403, reason: 'Origin not allowed' };
  return checkSubprotocols(request.headers['sec-websocket-protocol'], policy.token);
}

function refuseUpgrade(socket: Duplex, refusal: UpgradeRefusal): void {
  const body = `${refusal.reason}\n`;
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

async function handleMessage(
  host: Host,
  ws: WebSocket,
  data: RawData,
  isBinary: boolean,
  reportError: (error: unknown) => void,
): Promise<void> {
  const call = parseCall(data, isBinary);
  let result: Result<unknown>;
  if (call.kind === 'bad') {
    result = fail('INVALID_INPUT', call.message);
  } else {
    try {
      result = await host.dispatch(call.method, call.input);
    } catch (error) {
      // Host.dispatch promises never to throw; if it does, the caller still gets an answer.
      reportError(error);
      const words = bridgeError('bridge-errors.bug', { method: call.method, detail: errorMessage(error) });
      result = fail('INTERNAL', words.text, undefined, words.hostMessage);
    }
  }
  const reply: ReplyMessage = { kind: 'reply', id: call.id, result };
  let text: string;
  try {
    text = JSON.stringify(reply);
  } catch (error) {
    reportError(error);
    const words = bridgeError('bridge-errors.reply-not-serializable', { detail: errorMessage(error) });
    text = JSON.stringify({
      kind: 'reply',
      id: call.id,
      result: fail('INTERNAL', words.text, undefined, words.hostMessage),
    });
  }
  send(ws, text);
}

type ParsedCall =
  { kind: 'call'; id: number; method: string; input: unknown } | { kind: 'bad'; id: number; message: string };

/** Reads a CallMessage, keeping the id when it is readable so the client can match the error. */
function parseCall(data: RawData, isBinary: boolean): ParsedCall {
  if (isBinary)
    return { kind: 'bad', id: -1, message: 'Binary frames are not part of the bridge protocol; send JSON text' };
  let message: unknown;
  try {
    message = JSON.parse(rawText(data));
  } catch (error) {
    return { kind: 'bad', id: -1, message: `The message is not valid JSON: ${errorMessage(error)}` };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return {
      kind: 'bad',
      id: -1,
      message: 'A bridge message must be a JSON object { kind: "call", id, method, input }',
    };
  }
  const fields = message as Record<string, unknown>;
  const id = fields.id;
  const readableId = typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : undefined;
  if (readableId === undefined)
    return { kind: 'bad', id: -1, message: 'The message needs an "id" that is a non-negative integer' };
  if (fields.kind !== 'call') return { kind: 'bad', id: readableId, message: 'The message "kind" must be "call"' };
  if (typeof fields.method !== 'string')
    return { kind: 'bad', id: readableId, message: 'The message needs a "method" string' };
  return { kind: 'call', id: readableId, method: fields.method, input: fields.input };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function send(ws: WebSocket, text: string): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
    ws.close(CLOSE_TOO_SLOW, 'Berth: the client is not reading messages fast enough');
    // The close frame waits behind the backlog; do not keep that memory for long.
    setTimeout(() => ws.terminate(), TERMINATE_AFTER_CLOSE_MS).unref();
    return;
  }
  // Replies and events of one tick (many calls in flight) leave in one writev(2), not one each.
  const wire = wireOf.get(ws);
  if (wire !== undefined) corkUntilTickEnd(wire);
  ws.send(text);
}
