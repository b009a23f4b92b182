import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { CompressedFileCache, isCompressibleType } from './compression';
import { contentTypeFor } from '../net/content-types';

/**
 * Serves the built renderer to browser mode. Only files inside `staticDir`
 * (after resolving `..`, percent-encoding and symlinks) are ever read.
 */

/**
 * The Content-Security-Policy for HTML pages served on `port`. `frameOrigin`
 * is the MCP Apps sandbox's own origin, the one page Berth's UI may frame.
 */
export function contentSecurityPolicy(port: number, frameOrigin?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    frameOrigin === undefined ? "frame-src 'none'" : `frame-src ${frameOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const COMMON_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Berth</title></head>
<body><h1>Berth</h1><p>The renderer is not built — run <code>npm run build</code>, then reload this page.</p></body></html>
`;

export interface StaticHandlerOptions {
  staticDir: string;
  port: number;
  /** The MCP Apps sandbox's origin (a second loopback port), allowed in frame-src. */
  appSandboxOrigin?: string;
  /** Called when reading a file fails for a reason other than "not there". */
  onError(error: unknown): void;
}

export function createStaticHandler(
  options: StaticHandlerOptions,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const root = resolve(options.staticDir);
  const compressed = new CompressedFileCache();
  const htmlHeaders = {
    ...COMMON_HEADERS,
    'Content-Security-Policy': contentSecurityPolicy(options.port, options.appSandboxOrigin),
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
  };

  const sendText = (
    response: ServerResponse,
    status: number,
    text: string,
    extra: Record<string, string> = {},
  ): void => {
    response.writeHead(status, {
      ...COMMON_HEADERS,
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      ...extra,
    });
    response.end(text);
  };

  return async (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendText(response, 405, 'Method not allowed\n', { Allow: 'GET, HEAD' });
      return;
    }
    const target = resolveRequestPath(root, request.url ?? '/');
    if (target.kind === 'bad') {
      sendText(response, target.status, `${target.reason}\n`);
      return;
    }
    const file = await openableFile(root, target.path);
    if (file.kind === 'missing') {
      if (target.isIndex) {
        response.writeHead(503, { ...htmlHeaders, 'Content-Type': 'text/html; charset=utf-8' });
        response.end(request.method === 'HEAD' ? undefined : NOT_BUILT_PAGE);
        return;
      }
      sendText(response, 404, 'Not found\n');
      return;
    }
    if (file.kind === 'outside') {
      sendText(response, 403, 'Forbidden\n');
      return;
    }
    const type = contentTypeFor(file.path);
    const isHtml = type.startsWith('text/html');
    const headers: Record<string, string> = {
      ...(isHtml ? htmlHeaders : { ...COMMON_HEADERS, 'Cache-Control': 'no-cache' }),
      'Content-Type': type,
    };
    // Caches between here and the browser must not hand a compressed body to a client that did not ask for one.
    if (isCompressibleType(type)) headers.Vary = 'Accept-Encoding';
    const encoded = await compressed.get(file, type, request.headers['accept-encoding']);
    if (encoded !== undefined) {
      response.writeHead(200, {
        ...headers,
        'Content-Encoding': encoded.encoding,
        'Content-Length': String(encoded.body.length),
      });
      response.end(request.method === 'HEAD' ? undefined : encoded.body);
      return;
    }
    response.writeHead(200, { ...headers, 'Content-Length': String(file.size) });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const stream = createReadStream(file.path);
    stream.on('error', (error) => {
      options.onError(error);
      response.destroy(error);
    });
    stream.pipe(response);
  };
}

type RequestTarget =
  { kind: 'file'; path: string; isIndex: boolean } | { kind: 'bad'; status: 400 | 403; reason: string };

/** Maps a request URL to a path under `root`, refusing anything that would leave it. */
export function resolveRequestPath(root: string, url: string): RequestTarget {
  const rawPath = url.split(/[?#]/, 1)[0] ?? '/';
  if (!rawPath.startsWith('/')) return { kind: 'bad', status: 400, reason: 'Bad request path' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { kind: 'bad', status: 400, reason: 'Bad percent-encoding in the path' };
  }
  if (decoded.includes('\0')) return { kind: 'bad', status: 400, reason: 'Bad request path' };
  const isIndex = decoded === '/' || decoded === '/index.html';
  const full = resolve(root, `.${isIndex ? '/index.html' : decoded}`);
  if (!isInside(root, full)) return { kind: 'bad', status: 403, reason: 'Forbidden' };
  return { kind: 'file', path: full, isIndex };
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

type OpenableFile =
  { kind: 'file'; path: string; size: number; mtimeMs: number } | { kind: 'missing' } | { kind: 'outside' };

/** Follows symlinks and checks again that the real file lives under the real root. */
async function openableFile(root: string, path: string): Promise<OpenableFile> {
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(path)]);
    if (!isInside(realRoot, realFile)) return { kind: 'outside' };
    const info = await stat(realFile);
    if (!info.isFile()) return { kind: 'missing' };
    return { kind: 'file', path: realFile, size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    if (isMissingFileError(error)) return { kind: 'missing' };
    throw error;
  }
}

function isMissingFileError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'ENAMETOOLONG';
}
