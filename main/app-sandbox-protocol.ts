import { createSandboxProxyResponder } from '../app/apps/sandbox-proxy-files';
import type { MainLog } from './log';

/**
 * MCP Apps run inside the sandbox proxy, served from a privileged scheme of
 * its own (`berth-app://sandbox`): an origin that is not Berth's
 * (`berth://app`), so nothing in it can reach Berth's DOM or its IPC bridge
 * (which accepts only berth://app's main frame). It serves the same files, with
 * the same headers, as browser mode's second loopback server.
 */
export const APP_SANDBOX_SCHEME = 'berth-app';
export const APP_SANDBOX_HOST = 'sandbox';
export const APP_SANDBOX_ORIGIN = `${APP_SANDBOX_SCHEME}://${APP_SANDBOX_HOST}`;
/** What createHost's appSandboxProxyUrl answers in Electron. */
export const APP_SANDBOX_URL = `${APP_SANDBOX_ORIGIN}/`;

/** Privileges for registerSchemesAsPrivileged: a real origin and a secure context, nothing that bypasses CSP. */
export const APP_SANDBOX_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true } as const;

/** True when `url` is on the sandbox's origin, with no credentials. */
export function isAppSandboxUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  // WHATWG URL gives non-special schemes an opaque origin, so compare parts.
  return (
    parsed.protocol === `${APP_SANDBOX_SCHEME}:` &&
    parsed.host === APP_SANDBOX_HOST &&
    parsed.username === '' &&
    parsed.password === ''
  );
}

/**
 * The `protocol.handle` handler for `berth-app://sandbox/…`: the proxy
 * document (framed only by `embedderOrigin`, Berth's berth://app) and its scripts.
 */
export function createAppSandboxRequestHandler(options: {
  proxyDir: string;
  embedderOrigin: string;
  log: MainLog;
}): (request: Request) => Promise<Response> {
  const respond = createSandboxProxyResponder({
    proxyDir: options.proxyDir,
    embedderOrigins: () => [options.embedderOrigin],
  });
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return new Response('Bad request URL', { status: 400 });
    }
    if (!isAppSandboxUrl(request.url)) {
      options.log.warn(`app sandbox protocol: refused a request for another host: ${request.url.slice(0, 200)}`);
      return new Response('Not found', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
      });
    }
    const answer = await respond(request.method, url.pathname, url.search);
    if (answer.status >= 500) options.log.error(`app sandbox protocol: ${url.pathname}: ${String(answer.body).trim()}`);
    return new Response(answer.status === 200 && answer.body.length === 0 ? null : answer.body, {
      status: answer.status,
      headers: answer.headers,
    });
  };
}
