import { isAppSandboxUrl } from './app-sandbox-protocol';
import type { MainLog } from './log';

/**
 * What the main process adds around MCP Apps, whose frames live inside
 * Berth's window: Berth's page may frame only the sandbox proxy, the app's
 * own frame may never leave its srcdoc document, and only the app's frame may
 * be granted a web permission — one the person allowed, which the proxy wrote
 * into the frame's `allow` attribute (Chromium checks that Permissions Policy
 * before it ever asks here).
 */

/** Web permissions an app may be granted (camera/microphone are `media`). */
const APP_FRAME_PERMISSIONS = new Set(['media', 'geolocation', 'clipboard-sanitized-write']);

/** The part of Electron's permission request/check details this reads. */
export interface PermissionDetails {
  isMainFrame?: boolean;
  requestingUrl?: string;
  /** Requests: what a `media` request wants. */
  mediaTypes?: readonly string[];
  /** Checks: what a `media` check is about. */
  mediaType?: string;
}

/**
 * Whether a web permission may be granted. Berth's own page never needs one;
 * an app's frame (the srcdoc document inside the sandbox proxy) may have
 * camera, microphone, geolocation and clipboard-write, and only when its
 * Permissions Policy let the request through.
 */
export function isAppFramePermission(permission: string, details: PermissionDetails): boolean {
  if (details.isMainFrame !== false) return false;
  if (!APP_FRAME_PERMISSIONS.has(permission)) return false;
  if (details.requestingUrl !== 'about:srcdoc') return false;
  if (permission === 'media') {
    const types = details.mediaTypes ?? (details.mediaType === undefined ? [] : [details.mediaType]);
    return types.length > 0 && types.every((type) => type === 'video' || type === 'audio');
  }
  return true;
}

/** A sub-frame navigation as Electron's `will-frame-navigate` passes it. */
export interface FrameNavigationEvent {
  readonly url: string;
  readonly isMainFrame: boolean;
  readonly frame: { readonly parent: { readonly url: string; readonly parent: unknown } | null } | null;
  preventDefault(): void;
}

/**
 * Sub-frames of Berth's window: a frame of Berth's page may show only the
 * sandbox proxy; the app's frame (the proxy's child) only its srcdoc, so an
 * app cannot navigate itself to a page of its choosing (carrying data out in
 * the URL, which no CSP directive stops). Frames the app itself embeds are
 * left to its CSP's frame-src. Main-frame navigations are will-navigate's.
 */
export function guardFrameNavigation(event: FrameNavigationEvent, log: MainLog): void {
  if (event.isMainFrame) return;
  const parent = event.frame?.parent;
  if (parent === undefined || parent === null) {
    event.preventDefault();
    log.warn(`blocked a frame navigation from a frame that is gone: ${describeUrl(event.url)}`);
    return;
  }
  if (parent.parent === null) {
    if (isAppSandboxUrl(event.url)) return;
    event.preventDefault();
    log.warn(
      `blocked a frame of Berth's page from loading ${describeUrl(event.url)} (only the app sandbox may be framed)`,
    );
    return;
  }
  if (isAppSandboxUrl(parent.url)) {
    if (event.url === 'about:srcdoc' || event.url === 'about:blank') return;
    event.preventDefault();
    log.warn(`blocked an app from navigating its frame to ${describeUrl(event.url)}`);
  }
}

function describeUrl(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url;
}
