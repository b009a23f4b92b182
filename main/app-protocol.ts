import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { contentTypeFor } from '../app/net/content-types';
import type { MainLog } from './log';
import { APP_SANDBOX_ORIGIN, APP_SANDBOX_SCHEME, APP_SANDBOX_SCHEME_PRIVILEGES } from './app-sandbox-protocol';

/**
 * The renderer is served from a privileged custom scheme instead of file://,
 * so it gets a real origin (`berth://app`) that IPC sender checks, CSP 'self'
 * and navigation guards can all compare against.
 */
export const APP_SCHEME = 'berth';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Sent with every response; only documents use it, and every response may be one. */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'none'",
  // The only page Berth frames: the MCP Apps sandbox proxy, on its own origin.
  `frame-src ${APP_SANDBOX_ORIGIN}`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The subset of Electron's `protocol` module used before the app is ready. */
export interface SchemeRegistrar {
  registerSchemesAsPrivileged(
    schemes: Array<{
      scheme: string;
      privileges?: { standard?: boolean; secure?: boolean; supportFetchAPI?: boolean; codeCache?: boolean };
    }>,
  ): void;
}

/** The subset of Electron's `protocol` module used once the app is ready. */
export interface ProtocolHandlerRegistry {
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
}

/**
 * Must run before `app` is ready, and only once (Electron keeps the last
 * call), so it registers the apps' sandbox scheme too. `standard` gives a
 * scheme a host and an origin; `secure` makes it a secure context (needed for
 * module scripts and crypto APIs); nothing here bypasses CSP.
 */
export function registerAppScheme(protocol: SchemeRegistrar): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    { scheme: APP_SANDBOX_SCHEME, privileges: { ...APP_SANDBOX_SCHEME_PRIVILEGES } },
  ]);
}

/** True when `url` is on our own origin (`berth://app`), with no credentials. */
export function isAppUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  // WHATWG URL gives non-special schemes an opaque "null" origin, so compare parts.
  return (
    parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === ''
  );
}

function textResponse(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-security-policy': APP_CSP,
      'x-content-type-options': 'nosniff',
    },
  });
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The `protocol.handle` handler for `berth://app/…`: serves files from
 * `rootDir` (the built renderer) and nothing outside it, symlinks included.
 */
export function createAppRequestHandler(options: {
  rootDir: string;
  log: MainLog;
}): (request: Request) => Promise<Response> {
  const root = resolve(options.rootDir);

  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return textResponse(400, 'Bad request URL');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) {
      options.log.warn(`app protocol: refused request for another host: ${request.url}`);
      return textResponse(404, 'Not found');
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return textResponse(405, 'Method not allowed');
    }

    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return textResponse(400, 'Bad path encoding');
    }
    if (pathname.includes('\0')) return textResponse(400, 'Bad path');
    if (pathname === '/' || pathname === '') pathname = '/index.html';

    const target = resolve(root, `.${pathname}`);
    if (!isInside(root, target)) {
      options.log.warn(`app protocol: refused path outside the renderer: ${url.pathname}`);
      return textResponse(403, 'Forbidden');
    }

    let realTarget: string;
    let realRootDir: string;
    try {
      realRootDir = await realpath(root);
      realTarget = await realpath(target);
      const info = await stat(realTarget);
      if (!info.isFile()) return textResponse(404, 'Not found');
    } catch (error) {
      if (isMissing(error)) return textResponse(404, 'Not found');
      options.log.error(`app protocol: cannot read ${url.pathname}`, error);
      return textResponse(500, 'Cannot read file');
    }
    if (!isInside(realRootDir, realTarget)) {
      options.log.warn(`app protocol: refused symlink leading outside the renderer: ${url.pathname}`);
      return textResponse(403, 'Forbidden');
    }

    let body: Buffer;
    try {
      body = await readFile(realTarget);
    } catch (error) {
      options.log.error(`app protocol: cannot read ${url.pathname}`, error);
      return textResponse(500, 'Cannot read file');
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: {
        'content-type': contentTypeFor(realTarget),
        'content-security-policy': APP_CSP,
        'x-content-type-options': 'nosniff',
        // Rebuilt files keep their names (index.html); always revalidate.
        'cache-control': 'no-cache',
      },
    });
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
