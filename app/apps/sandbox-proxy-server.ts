import { createServer, type Server } from 'node:http';
import { errorMessage } from '../../shared/error-message';
import { clientDisconnect, isClientGone } from '../net/client-disconnect';
import { allowedHostHeaders, isAllowedHostHeader } from '../net/loopback-guard';
import { createSandboxProxyResponder } from './sandbox-proxy-files';

/**
 * Browser mode's second loopback origin: a server on its own port of
 * 127.0.0.1 that serves only the MCP Apps sandbox proxy. Apps run in frames
 * under it, so they never share an origin with Berth's UI (and its bridge
 * token), and Berth's WebSocket refuses this origin.
 */

export interface SandboxProxyServerOptions {
  /** The built proxy (dist/sandbox-proxy). */
  proxyDir: string;
  /** Origins that may embed the proxy: Berth's UI. Read per request (Berth's own port is known after this server starts). */
  embedderOrigins: () => readonly string[];
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Where to report failures that have no caller to answer. */
  onError?(error: unknown): void;
}

export interface SandboxProxyServer {
  /** The proxy document, e.g. `http://127.0.0.1:PORT/` (the renderer adds the app's `?csp=`). */
  url: string;
  /** `http://127.0.0.1:PORT`: Berth's UI lets it into frame-src; the bridge refuses it. */
  origin: string;
  port: number;
  /** Idempotent. */
  close(): Promise<void>;
}

const LISTEN_HOST = '127.0.0.1';

export async function startSandboxProxyServer(options: SandboxProxyServerOptions): Promise<SandboxProxyServer> {
  const reportError = options.onError ?? ((error: unknown) => console.error('[berth] app sandbox server:', error));
  let ownOrigins: readonly string[] = [];
  const respond = createSandboxProxyResponder({
    proxyDir: options.proxyDir,
    embedderOrigins: options.embedderOrigins,
    proxyOrigins: () => ownOrigins,
  });
  const server = createServer();
  const port = await listen(server, options.port ?? 0);
  ownOrigins = [`http://${LISTEN_HOST}:${port}`];
  const hosts = allowedHostHeaders(LISTEN_HOST, port);

  server.on('request', (request, response) => {
    if (!isAllowedHostHeader(request.headers.host, hosts)) {
      response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      response.end('Forbidden: unexpected Host header\n');
      return;
    }
    const url = new URL(request.url ?? '/', `http://${LISTEN_HOST}:${port}`);
    respond(request.method ?? 'GET', url.pathname, url.search)
      .then((answer) => {
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
      })
      .catch((error: unknown) => {
        reportError(error);
        if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        response.end(`Internal error: ${errorMessage(error)}\n`);
      });
  });
  // Nothing on this origin speaks WebSocket.
  server.on('upgrade', (_request, socket) => {
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  server.on('clientError', (error, socket) => {
    reportError(
      isClientGone(error)
        ? clientDisconnect('app sandbox server', error)
        : new Error(`app sandbox server: bad request: ${errorMessage(error)}`),
    );
    socket.destroy();
  });

  let closing: Promise<void> | undefined;
  const origin = `http://${LISTEN_HOST}:${port}`;
  return {
    url: `${origin}/`,
    origin,
    port,
    close: () => {
      closing ??= new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolveListen, rejectListen) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      rejectListen(
        error.code === 'EADDRINUSE'
          ? new Error(`The app sandbox's port ${port} on ${LISTEN_HOST} is already in use`)
          : error,
      );
    });
    server.listen({ host: LISTEN_HOST, port, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string')
        rejectListen(new Error('The app sandbox server did not get a TCP address'));
      else resolveListen(address.port);
    });
  });
}
