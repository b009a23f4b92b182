import {
  buildAppCsp,
  PROXY_CSP_QUERY,
  proxyOwnOrigins,
  readAppCsp,
  withCspMeta,
  type AppCspOptions,
} from '../../shared/apps/app-csp';
import { buildAllowAttribute, buildSandboxAttribute, readAppPermissions } from '../../shared/apps/app-frame-policy';
import type { AppUiCsp } from '../../shared/domain/app-ui';
import {
  CSP_VIOLATION_LOGGER,
  CSP_VIOLATION_REPORTER,
  readCspViolation,
  SANDBOX_CSP_VIOLATION,
} from './csp-violations';
import type { ProxyWordId } from './proxy-words';

// The sandbox proxy's logic, apart from the page's start-up so tests can drive
// it with fake windows. The proxy sits between Berth's UI (its parent, another
// origin) and the app (an inner frame with an opaque origin): it builds the
// inner frame from `ui/notifications/sandbox-resource-ready` and relays
// JSON-RPC messages between exactly those two windows.

export const SANDBOX_PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
export const SANDBOX_RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';
/** The logger name of the proxy's own notes, sent to the host as `notifications/message`. */
export const PROXY_LOGGER = 'berth-sandbox-proxy';

/** What the relay needs from the page it runs in (the real `window`/`document`, or fakes in tests). */
export interface ProxyEnvironment {
  /** The proxy's parent (Berth's UI). */
  parent: Pick<Window, 'postMessage'>;
  /** Its exact origin, as `location.ancestorOrigins[0]` tells. */
  parentOrigin: string;
  /** The proxy page's own origin (`location.origin`): like the parent's, no app may name it in its CSP. */
  selfOrigin: string;
  /** The proxy document's own query (it carries the CSP its server sent as a header). */
  search: string;
  /**
   * Loads the proxy document again with this query (the app's CSP in it), so
   * its server sends that policy as the header. The parent then hears
   * sandbox-proxy-ready again and sends the resource again.
   */
  reloadWithQuery(search: string): void;
  /** Creates and inserts the app's iframe; returns its window and a remover. */
  createFrame(attributes: { sandbox: string; allow: string; srcdoc: string }, onLoad: () => void): AppFrame;
  /** Shows a short note in the proxy's own page (the app is gone), by its id: the page words it in the person's language. */
  showNote(note: ProxyWordId): void;
}

export interface AppFrame {
  readonly window: Pick<Window, 'postMessage'> | null;
  remove(): void;
}

/** One message event, reduced to what the relay reads. */
export interface RelayedEvent {
  source: unknown;
  origin: string;
  data: unknown;
}

interface JsonRpcMessage {
  jsonrpc: '2.0';
  method?: unknown;
  params?: unknown;
}

const isJsonRpc = (data: unknown): data is JsonRpcMessage =>
  typeof data === 'object' &&
  data !== null &&
  !Array.isArray(data) &&
  (data as { jsonrpc?: unknown }).jsonrpc === '2.0';

export interface SandboxRelay {
  /** Call for every `message` event the proxy window receives. */
  onMessage(event: RelayedEvent): void;
}

/** Starts the relay: announces readiness to the parent, then waits for the app's HTML. */
export function startSandboxRelay(env: ProxyEnvironment): SandboxRelay {
  let frame: AppFrame | undefined;
  let loads = 0;
  const cspOptions: AppCspOptions = { ownOrigins: proxyOwnOrigins([env.parentOrigin], [env.selfOrigin]) };

  const toParent = (message: JsonRpcMessage): void => env.parent.postMessage(message, env.parentOrigin);
  const note = (level: 'warning' | 'error', text: string): void => {
    (level === 'error' ? console.error : console.warn)(`[Berth sandbox] ${text}`);
    toParent({ jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: PROXY_LOGGER, data: text } });
  };

  // The page shows the person why in their language; Berth's log keeps the English.
  const closeApp = (why: ProxyWordId, english: string): void => {
    frame?.remove();
    frame = undefined;
    env.showNote(why);
    note('error', english);
  };

  const render = (params: unknown): void => {
    const fields = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
    if (typeof fields.html !== 'string') {
      note('error', 'The app could not be shown: sandbox-resource-ready carried no HTML.');
      return;
    }
    let policy: string;
    let csp: AppUiCsp;
    try {
      csp = readAppCsp(fields.csp);
      const built = buildAppCsp(csp, cspOptions);
      policy = built.policy;
      for (const refused of built.refused)
        note('warning', `Left out of the app's ${refused.list}: "${refused.value}" (${refused.reason}).`);
    } catch (error) {
      note('error', `The app could not be shown: ${error instanceof Error ? error.message : String(error)}.`);
      return;
    }
    const query = new URLSearchParams(env.search);
    if (!query.has(PROXY_CSP_QUERY) && policy !== buildAppCsp(undefined).policy) {
      // Loaded without the app's CSP (so under the no-network default header): load again with it, once.
      query.set(PROXY_CSP_QUERY, JSON.stringify(csp));
      env.reloadWithQuery(`?${query.toString()}`);
      return;
    }
    if (policyFromQuery(env.search, cspOptions) !== policy) {
      note(
        'warning',
        "The app's CSP differs from the one this sandbox page was loaded with; both apply, so the stricter wins.",
      );
    }
    const permissions = readAppPermissions(fields.permissions);
    if (permissions.refused.length > 0)
      note('warning', `Permissions not granted (not app permissions): ${permissions.refused.join(', ')}.`);
    const sandbox = buildSandboxAttribute(fields.sandbox);
    if (sandbox.refused.length > 0)
      note('warning', `Sandbox tokens refused (Berth only narrows the default): ${sandbox.refused.join(', ')}.`);

    frame?.remove();
    loads = 0;
    const created = env.createFrame(
      {
        sandbox: sandbox.sandbox,
        allow: buildAllowAttribute(permissions.permissions),
        srcdoc: withCspMeta(fields.html, policy, CSP_VIOLATION_REPORTER),
      },
      () => {
        // The first load is the app's own document; any later one is the app navigating or reloading its frame.
        loads += 1;
        if (loads > 1 && frame === created)
          closeApp('apps-sandbox.navigated-away', 'The app navigated away from its own page, so Berth closed it.');
      },
    );
    frame = created;
  };

  const onMessage = (event: RelayedEvent): void => {
    if (event.source === env.parent) {
      if (event.origin !== env.parentOrigin || !isJsonRpc(event.data)) return;
      if (event.data.method === SANDBOX_RESOURCE_READY) {
        render(event.data.params);
        return;
      }
      frame?.window?.postMessage(event.data, '*');
      return;
    }
    if (frame !== undefined && frame.window !== null && event.source === frame.window) {
      if (!isJsonRpc(event.data)) return;
      if (event.data.method === SANDBOX_CSP_VIOLATION) {
        const refusal = readCspViolation(event.data.params);
        if (refusal !== undefined)
          toParent({
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { level: 'warning', logger: CSP_VIOLATION_LOGGER, data: refusal },
          });
        return;
      }
      // Berth's own loggers speak for the proxy: an app's log may not pass for one.
      if (event.data.method === 'notifications/message' && isOwnLogger(event.data.params)) return;
      // The sandbox's own handshake is between Berth and the proxy; an app sending it is not relayed.
      if (typeof event.data.method === 'string' && event.data.method.startsWith('ui/notifications/sandbox-')) return;
      toParent(event.data);
    }
    // Anything else (another window, a stale app frame) is not a party to this relay.
  };

  toParent({ jsonrpc: '2.0', method: SANDBOX_PROXY_READY, params: {} });
  return { onMessage };
}

function isOwnLogger(params: unknown): boolean {
  const logger = typeof params === 'object' && params !== null ? (params as { logger?: unknown }).logger : undefined;
  return logger === PROXY_LOGGER || logger === CSP_VIOLATION_LOGGER;
}

/**
 * The app part of the policy the proxy's server sent as a header (it adds only
 * 'self' scripts and frame-ancestors), rebuilt from the query it read it from.
 */
function policyFromQuery(search: string, options: AppCspOptions): string | undefined {
  const raw = new URLSearchParams(search).get(PROXY_CSP_QUERY);
  try {
    return buildAppCsp(readAppCsp(raw === null ? undefined : JSON.parse(raw)), options).policy;
  } catch {
    // The server answered 400 to a query it could not read, so this page would not be running.
    return undefined;
  }
}
