import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../shared/contract';

/**
 * The checks that keep browser mode's loopback server private to this
 * machine's user: loopback bind only, Host allowlist (DNS rebinding), exact
 * Origin for the WebSocket, and a per-run token compared in constant time.
 */

/** A per-run token must survive as part of a Sec-WebSocket-Protocol value (an RFC 7230 token). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,512}$/;

/** Whether `hostname` only ever reaches this machine: 127.0.0.0/8, ::1 or `localhost`. */
export function isLoopbackHostname(hostname: string): boolean {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (bare.toLowerCase() === 'localhost') return true;
  const family = isIP(bare);
  if (family === 4) return bare.split('.')[0] === '127';
  if (family === 6) return normalizeIpv6(bare) === '0:0:0:0:0:0:0:1';
  return false;
}

function normalizeIpv6(address: string): string {
  const [head = '', tail] = address.toLowerCase().split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  return [...headParts, ...Array<string>(missing).fill('0'), ...tailParts]
    .map((part) => String(parseInt(part, 16)))
    .join(':');
}

/** What to pass to `listen`, and how URLs name it. `localhost` binds 127.0.0.1 so the URL is predictable. */
export function bindAddress(hostname: string): { listenHost: string; urlHost: string } {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (bare.toLowerCase() === 'localhost') return { listenHost: '127.0.0.1', urlHost: '127.0.0.1' };
  if (isIP(bare) === 6) return { listenHost: bare, urlHost: `[${bare}]` };
  return { listenHost: bare, urlHost: bare };
}

/** The `host:port` values a request may carry in its Host header. */
export function allowedHostHeaders(urlHost: string, port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `${urlHost.toLowerCase()}:${port}`]);
}

/** The exact Origins allowed to open the WebSocket: the pages this server serves. */
export function allowedOrigins(urlHost: string, port: number): Set<string> {
  return new Set([...allowedHostHeaders(urlHost, port)].map((host) => `http://${host}`));
}

export function isAllowedHostHeader(header: string | undefined, allowed: ReadonlySet<string>): boolean {
  return header !== undefined && allowed.has(header.toLowerCase());
}

export function checkToken(token: string): string {
  if (!TOKEN_PATTERN.test(token)) {
    throw new Error('The browser-mode token must be 16 to 512 characters of A-Z, a-z, 0-9, "-" or "_"');
  }
  return token;
}

/** Why a WebSocket upgrade is refused, or undefined when it may proceed. */
export interface UpgradeRefusal {
  status: 401 | 403;
  reason: string;
}

/**
 * Checks the subprotocol list of an upgrade: it must offer WS_PROTOCOL and
 * carry the token as `WS_TOKEN_PROTOCOL_PREFIX + token`.
 */
export function checkSubprotocols(header: string | undefined, expectedToken: string): UpgradeRefusal | undefined {
  const offered = (header ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  if (!offered.includes(WS_PROTOCOL)) {
    return { status: 401, reason: `The WebSocket must offer the ${WS_PROTOCOL} subprotocol` };
  }
  const tokens = offered.filter((value) => value.startsWith(WS_TOKEN_PROTOCOL_PREFIX));
  if (tokens.length === 0) return { status: 401, reason: 'The WebSocket carries no token' };
  // Compare every offered token so timing does not reveal which one (or whether any) matched.
  let matched = false;
  for (const offeredToken of tokens) {
    if (tokensEqual(offeredToken.slice(WS_TOKEN_PROTOCOL_PREFIX.length), expectedToken)) matched = true;
  }
  return matched ? undefined : { status: 401, reason: 'The WebSocket token is wrong' };
}

/** Constant-time comparison; hashing first makes the lengths equal without leaking them. */
export function tokensEqual(a: string, b: string): boolean {
  const digestA = createHash('sha256').update(a, 'utf8').digest();
  const digestB = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(digestA, digestB);
}
