import type {
  AppBridge,
  McpUiHostContext,
  McpUiResourcePermissions,
  PostMessageTransport,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { errorMessage } from '../../../shared/error-message';
import type { AppUiPermission, AppUiResource } from '../../../shared/domain/app-ui';
import type { AppRequestHandlers } from './app-requests';
import type { DisplayMode } from './display-modes';
import { CSP_VIOLATION_LOGGER, readCspViolation, type CspRefusal } from '../../sandbox-proxy/csp-violations';
import { cspRefusalText } from './csp-refusal';
import { clampAppHeight } from './frame-bounds';
import { translate } from '../../i18n/use-t';

/** The part of `@modelcontextprotocol/ext-apps/app-bridge` a session uses, passed in so it loads on demand (and tests can pass a fake). */
export interface BridgeModule {
  AppBridge: new (...args: ConstructorParameters<typeof AppBridge>) => AppBridge;
  PostMessageTransport: new (...args: ConstructorParameters<typeof PostMessageTransport>) => PostMessageTransport;
}

/** What an app's tool call ended with, as the app receives it. */
export type AppToolOutcome =
  | {
      kind: 'result';
      content: { type: string; [key: string]: unknown }[];
      structuredContent?: Record<string, unknown>;
      isError: boolean;
    }
  | { kind: 'cancelled'; reason: string };

export interface AppSessionOptions {
  bridgeModule: BridgeModule;
  /** Where the outer iframe goes (the card's frame slot). */
  container: HTMLElement;
  proxyUrl: string;
  resource: AppUiResource;
  /** Declared by the resource AND allowed by the person: only these reach the sandbox. */
  allowedPermissions: readonly AppUiPermission[];
  /** The iframe's accessible name (server and tool). */
  title: string;
  hostVersion: string;
  hostContext: McpUiHostContext;
  handlers: AppRequestHandlers;
  /** The tool's input; undefined while not known (never for a card). */
  toolInput: Record<string, unknown> | undefined;
  /** The app asked for this height (already within bounds). */
  onHeight(height: number): void;
  /** The app finished its handshake and declared these display modes. */
  onInitialized(appModes: readonly DisplayMode[] | undefined): void;
  /** The app asked to be closed. */
  onRequestTeardown(): void;
  /** The bridge failed (the proxy went away, a broken message): the card says so. */
  onError(message: string): void;
  /** The app's CSP refused something (worded by the sandbox proxy): the card says so, the app keeps running. */
  onCspRefusal(refusal: CspRefusal): void;
}

export interface AppSession {
  /** Deliver the call's outcome (kept until the app is initialized; sent once). */
  deliver(outcome: AppToolOutcome): void;
  /** The full host context now (the bridge sends only what changed). */
  updateHostContext(context: McpUiHostContext): void;
  /**
   * Tell the app it is going away (ui/resource-teardown), then remove the
   * iframe: after its answer, or at once when `wait` is false (the card is
   * unmounting and its DOM goes now).
   */
  close(wait: boolean): Promise<void>;
}

/** How long a closing app may take to answer ui/resource-teardown. */
const TEARDOWN_WAIT_MS = 1_000;

function permissionsObject(allowed: readonly AppUiPermission[]): McpUiResourcePermissions {
  return Object.fromEntries(allowed.map((permission) => [permission, {}]));
}

/**
 * One app in one frame: the outer iframe on the sandbox proxy's origin, the
 * AppBridge on its window, the resource sent when the proxy is ready, the
 * tool's input once the app is initialized and its result after that.
 */
export function startAppSession(options: AppSessionOptions): AppSession {
  const { bridgeModule, handlers, resource } = options;
  const permissions = permissionsObject(options.allowedPermissions);
  const iframe = document.createElement('iframe');
  // allow-same-origin keeps the proxy on its own (non-Berth) origin so it can build the inner frame; the app itself runs in the proxy's opaque inner frame.
  // No allow-forms: the inner frame could never get more than this one, and no app form posts anywhere.
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  iframe.setAttribute('title', options.title);
  iframe.className = 'app-frame-iframe';
  const allow = Object.keys(permissions)
    .map((p) => (p === 'clipboardWrite' ? 'clipboard-write' : p))
    .join('; ');
  if (allow !== '') iframe.setAttribute('allow', allow);
  options.container.appendChild(iframe);

  const bridge = new bridgeModule.AppBridge(
    null,
    { name: 'Berth', version: options.hostVersion },
    {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      updateModelContext: { text: {}, structuredContent: {} },
      message: { text: {} },
      sandbox: { permissions, csp: resource.csp },
    },
    { hostContext: options.hostContext },
  );

  let initialized = false;
  let closed = false;
  let outcome: AppToolOutcome | undefined;
  let outcomeSent = false;

  const sendOutcome = () => {
    if (!initialized || outcomeSent || outcome === undefined || closed) return;
    outcomeSent = true;
    const sent =
      outcome.kind === 'result'
        ? bridge.sendToolResult({
            content: outcome.content as never,
            ...(outcome.structuredContent !== undefined ? { structuredContent: outcome.structuredContent } : {}),
            isError: outcome.isError,
          })
        : bridge.sendToolCancelled({ reason: outcome.reason });
    sent.catch((error: unknown) => options.onError(errorMessage(error)));
  };

  bridge.onsandboxready = () => {
    bridge
      .sendSandboxResourceReady({ html: resource.html, csp: resource.csp, permissions })
      .catch((error: unknown) => options.onError(errorMessage(error)));
  };
  bridge.oninitialized = () => {
    initialized = true;
    options.onInitialized(bridge.getAppCapabilities()?.availableDisplayModes);
    if (options.toolInput !== undefined)
      bridge
        .sendToolInput({ arguments: options.toolInput })
        .catch((error: unknown) => options.onError(errorMessage(error)));
    sendOutcome();
  };
  bridge.onsizechange = (params) => {
    if (!handlers.admitSizeChange()) return;
    if (params.height !== undefined) options.onHeight(clampAppHeight(params.height, 0));
  };
  bridge.onrequestteardown = () => options.onRequestTeardown();
  bridge.onloggingmessage = (params) => {
    // The proxy drops app logs under this name, so only its own refusal reports (facts) arrive with it.
    const refusal = params.logger === CSP_VIOLATION_LOGGER ? readCspViolation(params.data) : undefined;
    if (refusal === undefined) return void handlers.log(params);
    options.onCspRefusal(refusal);
    void handlers.log({ ...params, data: cspRefusalText(translate, refusal) });
  };
  bridge.oncalltool = (params, extra) => handlers.callTool(params, extra?.mcpReq?.signal) as never;
  bridge.onreadresource = (params) => handlers.readResource(params) as never;
  bridge.onlistresources = (params) => handlers.listResources(params) as never;
  bridge.onopenlink = (params) => handlers.openLink(params);
  bridge.onmessage = (params) => handlers.message(params as never);
  bridge.onupdatemodelcontext = (params) => handlers.updateModelContext(params as never);
  bridge.onrequestdisplaymode = (params) => handlers.requestDisplayMode(params);

  const win = iframe.contentWindow;
  if (win === null) {
    queueMicrotask(() => options.onError(translate('apps.frame.notCreated')));
  } else {
    // Connected before the proxy loads, so its sandbox-proxy-ready is not missed; the transport only hears this window.
    bridge
      .connect(new bridgeModule.PostMessageTransport(win, win))
      .then(() => {
        if (!closed) iframe.src = options.proxyUrl;
      })
      .catch((error: unknown) => options.onError(errorMessage(error)));
  }

  return {
    deliver(next) {
      if (outcome !== undefined) return;
      outcome = next;
      sendOutcome();
    },
    updateHostContext(context) {
      if (!closed) bridge.setHostContext(context);
    },
    async close(wait) {
      if (closed) return;
      closed = true;
      if (initialized) {
        const answered = bridge.teardownResource({}).catch(() => undefined);
        if (wait) await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, TEARDOWN_WAIT_MS))]);
      }
      iframe.remove();
      await bridge.close().catch(() => undefined);
    },
  };
}
