import type { BrowserWindow, BrowserWindowConstructorOptions, NativeTheme, Shell } from 'electron';
import { APP_ENTRY_URL, isAppUrl } from './app-protocol';
import { guardFrameNavigation, isAppFramePermission, type PermissionDetails } from './app-sandbox-guards';
import { errorMessage } from '../shared/error-message';
import type { MainLog } from './log';

/** Window background before the renderer paints, matched to the OS theme to avoid a flash. */
export const WINDOW_BACKGROUND = { dark: '#14161b', light: '#f7f7f8' } as const;

/** The webPreferences every Berth window gets: no Node, no webviews, isolated and sandboxed. */
export function secureWebPreferences(
  preloadPath: string,
): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
  return {
    preload: preloadPath,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    spellcheck: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
  };
}

/**
 * An http(s) URL that may be handed to the OS browser, or null. Credentials
 * in the URL are refused: they are a classic way to disguise the real host.
 */
export function externalHttpUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}

/** The part of `shell` used to open links outside the app. */
export type ExternalOpener = Pick<Shell, 'openExternal'>;

/**
 * The window-open handler: no window is ever created by the renderer; http(s)
 * links open in the person's browser, anything else is refused and logged.
 */
export function createWindowOpenHandler(deps: {
  shell: ExternalOpener;
  log: MainLog;
}): (details: { url: string }) => { action: 'deny' } {
  return ({ url }) => {
    const external = externalHttpUrl(url);
    if (external === null) {
      deps.log.warn(`refused to open a window for ${describeUrl(url)}`);
    } else {
      deps.shell.openExternal(external).catch((error: unknown) => {
        deps.log.error(`could not open ${external} in the browser: ${errorMessage(error)}`);
      });
    }
    return { action: 'deny' };
  };
}

/** A navigation event as Electron passes it (`will-navigate`, `will-redirect`). */
export interface NavigationEvent {
  readonly url: string;
  preventDefault(): void;
}

/** Navigations and redirects may only stay on our own origin. */
export function guardNavigation(event: NavigationEvent, log: MainLog): void {
  if (isAppUrl(event.url)) return;
  event.preventDefault();
  log.warn(`blocked navigation to ${describeUrl(event.url)}`);
}

/** The part of a session whose permission handlers Berth sets. */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (
      webContents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
      details: PermissionDetails,
    ) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (
      webContents: unknown,
      permission: string,
      requestingOrigin: string,
      details: PermissionDetails,
    ) => boolean,
  ): void;
}

/**
 * Berth itself needs no web permission (camera, notifications…): all are
 * refused, except what an MCP App's frame was allowed (isAppFramePermission).
 */
export function applyPermissionPolicy(session: PermissionSession, log: MainLog): void {
  session.setPermissionRequestHandler((_webContents, permission, callback, details) => {
    const granted = isAppFramePermission(permission, details);
    if (!granted)
      log.warn(`denied permission "${permission}" requested by ${describeUrl(details.requestingUrl ?? 'unknown')}`);
    callback(granted);
  });
  session.setPermissionCheckHandler((_webContents, permission, _origin, details) =>
    isAppFramePermission(permission, details ?? {}),
  );
}

/** What createMainWindow needs from Electron; the real modules satisfy it. */
export interface MainWindowDeps {
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow;
  nativeTheme: Pick<NativeTheme, 'shouldUseDarkColors'>;
  shell: ExternalOpener;
  /** Absolute path of the bundled preload (`dist/preload/index.cjs`). */
  preloadPath: string;
  log: MainLog;
  /** Defaults to `berth://app/index.html`. */
  entryUrl?: string;
}

/** Create, lock down and load the main window. Shown once the first paint is ready. */
export function createMainWindow(deps: MainWindowDeps): BrowserWindow {
  const win = new deps.BrowserWindow({
    title: 'Berth',
    width: 1280,
    height: 820,
    minWidth: 760,
    minHeight: 520,
    show: false,
    backgroundColor: deps.nativeTheme.shouldUseDarkColors ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light,
    webPreferences: secureWebPreferences(deps.preloadPath),
  });
  const contents = win.webContents;
  contents.setWindowOpenHandler(createWindowOpenHandler(deps));
  contents.on('will-navigate', (event) => guardNavigation(event, deps.log));
  contents.on('will-redirect', (event) => guardNavigation(event, deps.log));
  contents.on('will-frame-navigate', (event) => guardFrameNavigation(event, deps.log));
  applyPermissionPolicy(contents.session, deps.log);

  win.once('ready-to-show', () => win.show());
  const entryUrl = deps.entryUrl ?? APP_ENTRY_URL;
  win.loadURL(entryUrl).catch((error: unknown) => {
    deps.log.error(`could not load ${entryUrl}: ${errorMessage(error)}`);
    // Show the window anyway so the person is not left with an invisible app.
    if (!win.isDestroyed()) win.show();
  });
  return win;
}

/** The part of a webContents that `hardenWebContents` locks. */
export interface HardenableWebContents {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
}

/**
 * Applied to every webContents the app creates (devtools included), as a
 * backstop to the main window's own settings: no popups, no <webview>.
 */
export function hardenWebContents(
  contents: HardenableWebContents,
  deps: { shell: ExternalOpener; log: MainLog },
): void {
  contents.setWindowOpenHandler(createWindowOpenHandler(deps));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    deps.log.warn('refused to attach a <webview>');
  });
}

/** Bring an existing window to the front (second instance, dock click). */
export function focusWindow(
  win: Pick<BrowserWindow, 'isDestroyed' | 'isMinimized' | 'restore' | 'show' | 'focus'> | null,
): void {
  if (win === null || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

/** URLs in logs are cut short: a data: URL can be megabytes. */
function describeUrl(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url;
}
