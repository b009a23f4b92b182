import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { buildProxyDocumentCsp, PROXY_CSP_QUERY, proxyOwnOrigins, readAppCsp } from '../../shared/apps/app-csp';
import { errorMessage } from '../../shared/error-message';
import { contentTypeFor } from '../net/content-types';

/**
 * What the MCP Apps sandbox proxy's origin serves, for both shells (browser
 * mode's second loopback server, Electron's berth-app://sandbox): the proxy
 * document, with the app's CSP from its query as an HTTP header (which the
 * app's HTML cannot take back, unlike the `<meta>` the proxy also writes), and
 * the scripts that document names. Nothing else exists on that origin.
 */

/** Sent with every response of the proxy's origin. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** For answers that are not the proxy document: nothing in them may run or load. */
const INERT_CSP = "default-src 'none'; frame-ancestors 'none'";

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer> | string;
}

export interface SandboxProxyFilesOptions {
  /** The built proxy (dist/sandbox-proxy: index.html and assets/). */
  proxyDir: string;
  /** Origins that may embed the proxy (Berth's UI); read per request because Berth's port is known only later. */
  embedderOrigins: () => readonly string[];
  /** The proxy's own origins (no app may name them, nor Berth's embedder origins); read per request like the embedders. */
  proxyOrigins?: () => readonly string[];
}

/** The document's own paths; its scripts are under /assets/. */
const DOCUMENT_PATHS = new Set(['/', '/index.html']);

/** The `./assets/…` files the proxy document names in its src/href attributes: the only assets served. */
export function referencedAssets(html: string): Set<string> {
  const found = new Set<string>();
  for (const match of html.matchAll(/\b(?:src|href)\s*=\s*["']\.?\/(assets\/[A-Za-z0-9._-]+)["']/g)) {
    if (match[1] !== undefined) found.add(`/${match[1]}`);
  }
  return found;
}

const text = (status: number, message: string): ProxyResponse => ({
  status,
  headers: {
    ...COMMON_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Security-Policy': INERT_CSP,
    'Cache-Control': 'no-store',
  },
  body: `${message}\n`,
});

/** Answers one request to the proxy's origin. Never throws: a read failure is a 500 naming the cause. */
export function createSandboxProxyResponder(
  options: SandboxProxyFilesOptions,
): (method: string, pathname: string, search: string) => Promise<ProxyResponse> {
  const root = resolve(options.proxyDir);
  const documentFile = join(root, 'index.html');

  return async (method, pathname, search) => {
    if (method !== 'GET' && method !== 'HEAD') return text(405, 'Method not allowed');
    let html: string;
    try {
      html = await readFile(documentFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return text(503, 'The app sandbox is not built: run npm run build.');
      return text(500, `The app sandbox cannot be read: ${errorMessage(error)}`);
    }

    if (DOCUMENT_PATHS.has(pathname)) {
      let policy: string;
      try {
        const raw = new URLSearchParams(search).get(PROXY_CSP_QUERY);
        const embedders = options.embedderOrigins();
        policy = buildProxyDocumentCsp(readAppCsp(raw === null ? undefined : JSON.parse(raw)), {
          frameAncestors: embedders,
          ownOrigins: proxyOwnOrigins(embedders, options.proxyOrigins?.() ?? []),
        }).policy;
      } catch (error) {
        return text(400, `The ${PROXY_CSP_QUERY} query is not an app CSP: ${errorMessage(error)}`);
      }
      return {
        status: 200,
        headers: {
          ...COMMON_HEADERS,
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': policy,
          // Each app's policy rides in the URL; a cached copy must never serve another app.
          'Cache-Control': 'no-store',
        },
        body: method === 'HEAD' ? '' : html,
      };
    }

    if (!referencedAssets(html).has(pathname)) return text(404, 'Not found: this origin serves only the app sandbox.');
    try {
      const body = await readFile(join(root, pathname));
      return {
        status: 200,
        headers: {
          ...COMMON_HEADERS,
          'Content-Type': contentTypeFor(pathname),
          'Content-Security-Policy': INERT_CSP,
          'Cache-Control': 'no-cache',
        },
        body: method === 'HEAD' ? '' : new Uint8Array(body),
      };
    } catch (error) {
      return text(500, `The app sandbox's ${pathname} cannot be read: ${errorMessage(error)}`);
    }
  };
}
