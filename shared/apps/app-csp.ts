import type { AppUiCsp } from '../domain/app-ui';

// The Content-Security-Policy an MCP App runs under, built from the domains its
// UI resource declares (`_meta.ui.csp`). Pure and zod-free: the sandbox proxy
// page (its own small bundle), the proxy's HTTP servers and the tests share it.
//
// Every declared domain is the server's word. A value is kept only when it is
// plainly an origin we can write into a directive as-is; anything that could
// add a directive, a keyword or a scheme-wide source is refused and reported,
// never "cleaned up" into something the server did not say.

/** The four lists of `_meta.ui.csp`, as the builder reports refusals. */
export type AppCspList = keyof AppUiCsp;

export interface RefusedCspSource {
  list: AppCspList;
  /** The declared value, cut short for display. */
  value: string;
  reason: string;
}

export interface AppCspPolicy {
  /** The policy text for a `Content-Security-Policy` header or `<meta http-equiv>`. */
  policy: string;
  /** Declared values left out, each with why; the app still runs, without them. */
  refused: RefusedCspSource[];
}

/** An origin of Berth's own that no app may name, and what it is (for the refusal's words). */
export interface OwnOrigin {
  origin: string;
  what: string;
}

/** What the app's policy must never let through. */
export interface AppCspOptions {
  /**
   * Berth's own origins: its UI and bridge (the WebSocket on the same port) and the sandbox
   * proxy's. A declared source naming one of them, in any scheme or loopback spelling, is refused.
   */
  ownOrigins?: readonly OwnOrigin[];
}

/** Extra directives only the proxy's own document needs (never the app's meta policy). */
export interface ProxyDocumentPolicyOptions extends AppCspOptions {
  /** Origins allowed to embed the proxy (Berth's UI); absent: any. */
  frameAncestors?: readonly string[];
}

/** The own origins of a proxy: Berth's UI (its parent) and the proxy's own page. */
export function proxyOwnOrigins(berthOrigins: readonly string[], proxyOrigins: readonly string[]): OwnOrigin[] {
  return [
    ...berthOrigins.map((origin) => ({ origin, what: "Berth's own window and bridge" })),
    ...proxyOrigins.map((origin) => ({ origin, what: "the app sandbox's own page" })),
  ];
}

const MAX_SOURCES_PER_LIST = 50;
const MAX_SOURCE_LENGTH = 500;

/** A DNS label: letters, digits and inner hyphens (punycode for anything else). */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

/** Which schemes each list may name. Plain http only for this machine, during development. */
const SCHEMES: Record<AppCspList, readonly string[]> = {
  connectDomains: ['https', 'wss', 'http', 'ws'],
  resourceDomains: ['https', 'http'],
  frameDomains: ['https', 'http'],
  baseUriDomains: ['https', 'http'],
};

/**
 * Checks one declared source and returns it as written into the policy
 * (lower-case, no trailing slash), or the reason it is refused. Accepted:
 * `https://host[:port]`, `https://*.example.com[:port]` (two labels at least
 * after the wildcard), `http://localhost|127.0.0.1[:port]`, and for connect
 * also `wss://…` and `ws://localhost|127.0.0.1`.
 */
export function checkCspSource(list: AppCspList, raw: unknown): { source: string } | { reason: string } {
  if (typeof raw !== 'string') return { reason: 'not a string' };
  if (raw.length === 0 || raw.length > MAX_SOURCE_LENGTH)
    return { reason: `must be 1 to ${MAX_SOURCE_LENGTH} characters` };
  // Anything that could end the source list, start a directive or a keyword ('unsafe-inline', 'nonce-…').
  if (/[\s;,'"`\\<>()[\]{}|^%]/.test(raw) || /[^\x21-\x7e]/.test(raw)) {
    return { reason: 'contains a character that is not allowed in an origin (space, quote, ";", "," …)' };
  }
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@]+)\/?$/i.exec(raw);
  if (match === null) {
    return {
      reason: 'is not an origin like https://example.com (no scheme-only sources, paths, queries or credentials)',
    };
  }
  const scheme = (match[1] ?? '').toLowerCase();
  const authority = (match[2] ?? '').toLowerCase();
  if (!SCHEMES[list].includes(scheme)) return { reason: `the ${scheme}: scheme is not allowed here` };

  const hostPort = /^(.+?)(?::(\d{1,5}))?$/.exec(authority);
  const host = hostPort?.[1] ?? '';
  const port = hostPort?.[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535))
    return { reason: 'has a port outside 1-65535' };
  if (host.includes(':'))
    return { reason: 'names a port that is not a number (or an IPv6 address, which is not supported)' };

  const secure = scheme === 'https' || scheme === 'wss';
  if (!secure && !LOOPBACK_HOSTS.has(host))
    return { reason: `plain ${scheme}: is allowed only for localhost and 127.0.0.1` };

  if (host.startsWith('*.')) {
    const rest = host.slice(2).split('.');
    if (rest.length < 2 || !rest.every((label) => LABEL.test(label))) {
      return { reason: 'a wildcard must cover a domain of two labels at least, e.g. https://*.example.com' };
    }
  } else if (!IPV4.test(host)) {
    const labels = host.split('.');
    if (!labels.every((label) => LABEL.test(label))) return { reason: 'the host is not a valid domain name' };
    if (labels.length < 2 && host !== 'localhost') return { reason: 'the host must be a full domain name' };
  }
  return { source: `${scheme}://${authority}` };
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, ws: 80, https: 443, wss: 443 };

/** Host and port as a network address: localhost and 127.0.0.1 are one host, a missing port is the scheme's default. */
function addressOf(origin: string): { host: string; port: number } | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@:]+)(?::(\d{1,5}))?\/?$/i.exec(origin.trim());
  const scheme = match?.[1]?.toLowerCase() ?? '';
  const defaultPort = DEFAULT_PORTS[scheme];
  if (match === null || defaultPort === undefined) return undefined;
  const host = (match[2] ?? '').toLowerCase().replace(/\.$/, '');
  // 0.0.0.0 as a destination reaches this machine's loopback too.
  return {
    host: host === 'localhost' || host === '0.0.0.0' ? '127.0.0.1' : host,
    port: match[3] === undefined ? defaultPort : Number(match[3]),
  };
}

/**
 * The own origin an accepted source reaches, if any. Schemes are ignored: `ws://` reaches the
 * bridge on the UI's port, `https://` the same host and port as `http://`.
 */
function ownOriginNamed(source: string, own: readonly OwnOrigin[]): OwnOrigin | undefined {
  const named = addressOf(source.replace('://*.', '://wildcard.'));
  if (named === undefined) return undefined;
  const suffix = source.includes('://*.') ? named.host.slice('wildcard'.length) : undefined;
  return own.find((candidate) => {
    const address = addressOf(candidate.origin);
    if (address === undefined || address.port !== named.port) return false;
    return suffix === undefined ? address.host === named.host : address.host.endsWith(suffix);
  });
}

/** The accepted sources of one list (duplicates dropped) and the refusals. */
function sourcesOf(
  csp: AppUiCsp | undefined,
  list: AppCspList,
  refused: RefusedCspSource[],
  own: readonly OwnOrigin[] = [],
): string[] {
  const declared: unknown = csp?.[list];
  if (declared === undefined) return [];
  if (!Array.isArray(declared)) {
    refused.push({ list, value: String(declared).slice(0, 100), reason: 'is not a list' });
    return [];
  }
  const accepted: string[] = [];
  for (const [index, raw] of declared.entries()) {
    if (index >= MAX_SOURCES_PER_LIST) {
      refused.push({
        list,
        value: `${declared.length - MAX_SOURCES_PER_LIST} more`,
        reason: `at most ${MAX_SOURCES_PER_LIST} sources per list`,
      });
      break;
    }
    const checked = checkCspSource(list, raw);
    const ownNamed = 'source' in checked ? ownOriginNamed(checked.source, own) : undefined;
    if ('reason' in checked) refused.push({ list, value: String(raw).slice(0, 100), reason: checked.reason });
    else if (ownNamed !== undefined)
      refused.push({
        list,
        value: String(raw).slice(0, 100),
        reason: `it is ${ownNamed.what} (${ownNamed.origin}), which an app may never reach`,
      });
    else if (!accepted.includes(checked.source)) accepted.push(checked.source);
  }
  return accepted;
}

const directive = (name: string, sources: readonly string[], whenEmpty = "'none'"): string =>
  `${name} ${sources.length > 0 ? sources.join(' ') : whenEmpty}`;

/**
 * The app's policy. Default (nothing declared): no network at all. Inline
 * script and style are allowed because apps are single-file HTML; so is eval
 * (code the app could already inline: no new way out, and pdf.js and
 * three.js-style apps need it); workers from blob: only (they inherit this
 * policy, while a worker loaded from a URL would run under that server's own
 * policy, network included); images, fonts and media come from data:/blob:
 * only; no frames, plugins, forms posting anywhere or <base> rewriting.
 * Declared domains are added to the directives the spec maps them to.
 */
export function buildAppCsp(csp: AppUiCsp | undefined, options: AppCspOptions = {}): AppCspPolicy {
  return buildPolicy(csp, undefined, options.ownOrigins ?? []);
}

/**
 * The policy for the proxy's own document (HTTP header): the app's policy
 * plus `'self'` scripts for the proxy's module and `frame-ancestors`. The app's
 * srcdoc frame inherits this policy and also carries buildAppCsp's in a
 * `<meta>`; both are enforced, so 'self' never reaches the app.
 */
export function buildProxyDocumentCsp(
  csp: AppUiCsp | undefined,
  options: ProxyDocumentPolicyOptions = {},
): AppCspPolicy {
  return buildPolicy(csp, options, options.ownOrigins ?? []);
}

function buildPolicy(
  csp: AppUiCsp | undefined,
  proxy: ProxyDocumentPolicyOptions | undefined,
  own: readonly OwnOrigin[],
): AppCspPolicy {
  const refused: RefusedCspSource[] = [];
  const connect = sourcesOf(csp, 'connectDomains', refused, own);
  const resource = sourcesOf(csp, 'resourceDomains', refused, own);
  const frame = sourcesOf(csp, 'frameDomains', refused, own);
  const baseUri = sourcesOf(csp, 'baseUriDomains', refused, own);
  const self = proxy === undefined ? [] : ["'self'"];
  const directives = [
    "default-src 'none'",
    directive('script-src', [...self, "'unsafe-inline'", "'unsafe-eval'", ...resource]),
    directive('style-src', [...self, "'unsafe-inline'", ...resource]),
    directive('img-src', ['data:', 'blob:', ...resource]),
    directive('font-src', ['data:', 'blob:', ...resource]),
    directive('media-src', ['data:', 'blob:', ...resource]),
    directive('connect-src', connect),
    // Never the declared domains: a worker fetched from one runs under that server's policy, not this one.
    directive('worker-src', ['blob:']),
    directive('frame-src', frame),
    "object-src 'none'",
    directive('base-uri', baseUri),
    "form-action 'none'",
  ];
  if (proxy?.frameAncestors !== undefined) {
    const ancestors = proxy.frameAncestors.filter((origin) => /^[a-z][a-z0-9+.-]*:\/\/[a-z0-9.:[\]-]+$/i.test(origin));
    directives.push(directive('frame-ancestors', ancestors));
  }
  return { policy: directives.join('; '), refused };
}

/**
 * Reads `_meta.ui.csp` as it arrives over postMessage or in the proxy URL's
 * query: an object whose known keys are lists. Unknown keys are ignored (the
 * spec may add some); a wrong shape is an error, never "no restrictions".
 */
export function readAppCsp(value: unknown): AppUiCsp {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new Error('The app CSP must be an object of domain lists');
  const record = value as Record<string, unknown>;
  const csp: AppUiCsp = {};
  for (const list of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const) {
    const entries = record[list];
    if (entries === undefined) continue;
    if (!Array.isArray(entries) || !entries.every((entry) => typeof entry === 'string')) {
      throw new Error(`The app CSP's ${list} must be a list of strings`);
    }
    csp[list] = entries as string[];
  }
  return csp;
}

/** The query parameter of the proxy URL that carries the app's CSP to the proxy's server. */
export const PROXY_CSP_QUERY = 'csp';
/** The query parameter that names the language of the proxy page's own words (renderer/sandbox-proxy/proxy-words.ts). */
export const PROXY_LANGUAGE_QUERY = 'lang';

/**
 * The proxy document's URL for one app: `proxyUrl` with the declared CSP in
 * its query, so the proxy's server can send the policy as an HTTP header
 * (which the app's HTML cannot remove) besides the `<meta>` the proxy writes.
 */
export function proxyDocumentUrl(proxyUrl: string, csp: AppUiCsp | undefined, language?: string): string {
  const url = new URL(proxyUrl);
  url.searchParams.set(PROXY_CSP_QUERY, JSON.stringify(readAppCsp(csp)));
  // The proxy has no bridge to ask: the person's language for its own few words travels with it.
  if (language !== undefined) url.searchParams.set(PROXY_LANGUAGE_QUERY, language);
  return url.href;
}

/**
 * The app's HTML with its policy as the first element of `<head>`: right
 * after a leading `<!doctype …>` when there is one (so the page keeps its
 * standards mode), else at the very start. Searching the document for its own
 * `<head>` would be fooled by one inside a comment or a script.
 */
export function withCspMeta(html: string, policy: string, after = ''): string {
  // `after` (the proxy's violation reporter) comes right behind the policy, before any of the app's own markup.
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">${after}`;
  const doctype = /^\s*<!doctype\s[^<>]*>/i.exec(html);
  if (doctype === null) return `${meta}${html}`;
  return `${doctype[0]}${meta}${html.slice(doctype[0].length)}`;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
