import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserWindowConstructorOptions } from 'electron';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_CSP, APP_ENTRY_URL, createAppRequestHandler, isAppUrl, registerAppScheme } from './app-protocol';
import type { MainLog } from './log';
import {
  createMainWindow,
  createWindowOpenHandler,
  applyPermissionPolicy,
  externalHttpUrl,
  focusWindow,
  guardNavigation,
  hardenWebContents,
  type MainWindowDeps,
  type PermissionSession,
} from './window';

function fakeLog() {
  return {
    info: vi.fn<MainLog['info']>(),
    warn: vi.fn<MainLog['warn']>(),
    error: vi.fn<MainLog['error']>(),
  } satisfies MainLog;
}

type Listener = (...args: unknown[]) => void;

/** Just enough of BrowserWindow to watch what createMainWindow does with it. */
class FakeWindow {
  static last: FakeWindow | null = null;
  readonly listeners = new Map<string, Listener[]>();
  readonly contentsListeners = new Map<string, Listener[]>();
  windowOpenHandler: ((details: { url: string }) => unknown) | null = null;
  permissionRequest: Parameters<PermissionSession['setPermissionRequestHandler']>[0] | null = null;
  permissionCheck: Parameters<PermissionSession['setPermissionCheckHandler']>[0] | null = null;
  loadURL = vi.fn(async (_url: string) => undefined);
  show = vi.fn();
  readonly webContents = {
    setWindowOpenHandler: (handler: (details: { url: string }) => unknown) => {
      this.windowOpenHandler = handler;
    },
    on: (event: string, listener: Listener) => {
      this.contentsListeners.set(event, [...(this.contentsListeners.get(event) ?? []), listener]);
    },
    session: {
      setPermissionRequestHandler: (handler: NonNullable<FakeWindow['permissionRequest']>) => {
        this.permissionRequest = handler;
      },
      setPermissionCheckHandler: (handler: NonNullable<FakeWindow['permissionCheck']>) => {
        this.permissionCheck = handler;
      },
    },
  };
  constructor(readonly options: BrowserWindowConstructorOptions) {
    FakeWindow.last = this;
  }
  once(event: string, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  isDestroyed(): boolean {
    return false;
  }
  fireContents(event: string, ...args: unknown[]): void {
    for (const listener of this.contentsListeners.get(event) ?? []) listener(...args);
  }
}

function openFakeWindow(dark = false) {
  const log = fakeLog();
  const shell = { openExternal: vi.fn(async (_url: string) => undefined) };
  createMainWindow({
    BrowserWindow: FakeWindow as unknown as MainWindowDeps['BrowserWindow'],
    nativeTheme: { shouldUseDarkColors: dark },
    shell,
    preloadPath: '/opt/berth/dist/preload/index.cjs',
    log,
  });
  const win = FakeWindow.last;
  if (win === null) throw new Error('no window was created');
  return { win, log, shell };
}

function navigationEvent(url: string) {
  return { url, preventDefault: vi.fn() };
}

describe('createMainWindow', () => {
  it('creates a sandboxed, isolated window without Node, webviews or spellcheck, with the bundled preload', () => {
    const { win } = openFakeWindow();
    const prefs = win.options.webPreferences;
    expect(prefs).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      spellcheck: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      preload: '/opt/berth/dist/preload/index.cjs',
    });
    expect(win.options.title).toBe('Berth');
    expect(win.options.minWidth).toBeGreaterThanOrEqual(600);
    expect(win.options.minHeight).toBeGreaterThanOrEqual(400);
    expect(win.options.show).toBe(false);
  });

  it('loads the renderer from berth://app and shows the window when ready', () => {
    const { win } = openFakeWindow();
    expect(win.loadURL).toHaveBeenCalledExactlyOnceWith(APP_ENTRY_URL);
    expect(APP_ENTRY_URL).toBe('berth://app/index.html');
    expect(win.show).not.toHaveBeenCalled();
    for (const listener of win.listeners.get('ready-to-show') ?? []) listener();
    expect(win.show).toHaveBeenCalledOnce();
  });

  it('follows the OS theme for the background colour', () => {
    const light = openFakeWindow(false).win.options.backgroundColor;
    const dark = openFakeWindow(true).win.options.backgroundColor;
    expect(light).not.toBe(dark);
  });

  it('installs the window-open, navigation and permission guards on its webContents', () => {
    const { win, shell } = openFakeWindow();
    expect(win.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/');

    const away = navigationEvent('https://evil.example/');
    win.fireContents('will-navigate', away);
    expect(away.preventDefault).toHaveBeenCalled();
    const redirect = navigationEvent('http://127.0.0.1:9/');
    win.fireContents('will-redirect', redirect);
    expect(redirect.preventDefault).toHaveBeenCalled();
    const home = navigationEvent('berth://app/index.html#/logs');
    win.fireContents('will-navigate', home);
    expect(home.preventDefault).not.toHaveBeenCalled();
    const appAway = {
      ...navigationEvent('https://evil.example/'),
      isMainFrame: false,
      frame: { parent: { url: 'berth-app://sandbox/', parent: {} } },
    };
    win.fireContents('will-frame-navigate', appAway);
    expect(appAway.preventDefault).toHaveBeenCalled();

    const callback = vi.fn();
    win.permissionRequest?.({}, 'media', callback, { requestingUrl: 'berth://app/index.html' });
    expect(callback).toHaveBeenCalledExactlyOnceWith(false);
    expect(win.permissionCheck?.({}, 'clipboard-read', 'berth://app', { isMainFrame: true })).toBe(false);
  });
});

describe('window-open handler', () => {
  it('opens http and https links in the browser and always denies the window', () => {
    const log = fakeLog();
    const shell = { openExternal: vi.fn(async (_url: string) => undefined) };
    const handler = createWindowOpenHandler({ shell, log });
    expect(handler({ url: 'https://modelcontextprotocol.io/docs' })).toEqual({ action: 'deny' });
    expect(handler({ url: 'http://example.com/a?b=c' })).toEqual({ action: 'deny' });
    expect(shell.openExternal.mock.calls).toEqual([
      ['https://modelcontextprotocol.io/docs'],
      ['http://example.com/a?b=c'],
    ]);
  });

  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    'berth://app/index.html',
    'data:text/html,<script>1</script>',
    'https://user:pass@example.com/',
    'https://user@example.com/',
    'smb://server/share',
    'not a url',
    '',
  ])('refuses %j and logs it', (url) => {
    const log = fakeLog();
    const shell = { openExternal: vi.fn(async (_url: string) => undefined) };
    expect(createWindowOpenHandler({ shell, log })({ url })).toEqual({ action: 'deny' });
    expect(shell.openExternal).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('refused to open a window'));
  });

  it('logs a failure to open the browser instead of losing it', async () => {
    const log = fakeLog();
    const shell = { openExternal: vi.fn(async () => Promise.reject(new Error('no browser'))) };
    createWindowOpenHandler({ shell, log })({ url: 'https://example.com/' });
    await vi.waitFor(() => expect(log.error).toHaveBeenCalledWith(expect.stringContaining('no browser')));
  });

  it('externalHttpUrl normalises what it accepts', () => {
    expect(externalHttpUrl('HTTPS://Example.COM')).toBe('https://example.com/');
    expect(externalHttpUrl('ftp://example.com/')).toBeNull();
  });

  it('hardenWebContents denies popups and <webview> on any webContents', () => {
    const log = fakeLog();
    const shell = { openExternal: vi.fn(async (_url: string) => undefined) };
    let openHandler: ((details: { url: string }) => unknown) | null = null;
    let attach: ((event: { preventDefault(): void }) => void) | null = null;
    hardenWebContents(
      {
        setWindowOpenHandler: (handler) => {
          openHandler = handler;
        },
        on: (_event, listener) => {
          attach = listener;
        },
      },
      { shell, log },
    );
    expect(openHandler).not.toBeNull();
    const event = { preventDefault: vi.fn() };
    (attach as ((event: { preventDefault(): void }) => void) | null)?.(event);
    expect(event.preventDefault).toHaveBeenCalled();
  });
});

describe('navigation guard', () => {
  it.each(['berth://app/index.html', 'berth://app/', 'berth://app/index.html?x#y'])('lets %s through', (url) => {
    const event = navigationEvent(url);
    guardNavigation(event, fakeLog());
    expect(event.preventDefault).not.toHaveBeenCalled();
  });

  it.each([
    'https://evil.example/',
    'file:///etc/passwd',
    'berth://other/index.html',
    'berth://x@app/',
    'javascript:1',
    'about:blank',
  ])('blocks %s', (url) => {
    const log = fakeLog();
    const event = navigationEvent(url);
    guardNavigation(event, log);
    expect(event.preventDefault).toHaveBeenCalledOnce();
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('blocked navigation'));
  });

  it('isAppUrl compares scheme and host, not a string prefix', () => {
    expect(isAppUrl('berth://app.evil.example/')).toBe(false);
    expect(isAppUrl('berth://app:8080/')).toBe(false);
    expect(isAppUrl('berth://app/x')).toBe(true);
  });
});

describe('permissions', () => {
  it('denies every request and every check', () => {
    let request: Parameters<PermissionSession['setPermissionRequestHandler']>[0] | undefined;
    let check: Parameters<PermissionSession['setPermissionCheckHandler']>[0] | undefined;
    const log = fakeLog();
    applyPermissionPolicy(
      { setPermissionRequestHandler: (h) => (request = h), setPermissionCheckHandler: (h) => (check = h) },
      log,
    );
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-sanitized-write', 'openExternal']) {
      const callback = vi.fn();
      request?.({}, permission, callback, { requestingUrl: 'berth://app/index.html' });
      expect(callback).toHaveBeenCalledExactlyOnceWith(false);
      expect(
        check?.({}, permission, 'berth://app', { isMainFrame: true, requestingUrl: 'berth://app/index.html' }),
      ).toBe(false);
    }
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('denied permission "media"'));
  });
});

describe('focusWindow', () => {
  it('restores a minimised window and focuses it; ignores a missing or destroyed one', () => {
    const win = { isDestroyed: () => false, isMinimized: () => true, restore: vi.fn(), show: vi.fn(), focus: vi.fn() };
    focusWindow(win);
    expect(win.restore).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
    focusWindow(null);
    const gone = { ...win, isDestroyed: () => true, focus: vi.fn() };
    focusWindow(gone);
    expect(gone.focus).not.toHaveBeenCalled();
  });
});

describe('berth:// protocol', () => {
  let dir: string;
  let root: string;
  const log = fakeLog();
  let handle: (request: Request) => Promise<Response>;
  const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-protocol-'));
    root = join(dir, 'renderer');
    await mkdir(join(root, 'assets'), { recursive: true });
    await writeFile(join(root, 'index.html'), '<!doctype html><title>Berth</title>');
    await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(root, 'assets', 'a b.css'), 'body{}');
    await writeFile(join(dir, 'secret.txt'), 'do not serve');
    await symlink(join(dir, 'secret.txt'), join(root, 'leak.txt'));
    handle = createAppRequestHandler({ rootDir: root, log });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('registers berth as a standard, secure scheme', () => {
    const registerSchemesAsPrivileged = vi.fn();
    registerAppScheme({ registerSchemesAsPrivileged });
    expect(registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({
        scheme: 'berth',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
      expect.objectContaining({
        scheme: 'berth-app',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
    const privileges = registerSchemesAsPrivileged.mock.calls[0]?.[0]?.[0]?.privileges as Record<string, unknown>;
    expect(privileges.bypassCSP).toBeUndefined();
  });

  it('serves index.html with the strict CSP header', async () => {
    const response = await get('berth://app/index.html');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Berth</title>');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(APP_CSP);
    expect(APP_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' data: blob:; font-src 'self' data:; connect-src 'none'; frame-src berth-app://sandbox; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves / as index.html, assets with their types, and encoded names', async () => {
    expect(await (await get('berth://app/')).text()).toContain('Berth');
    const js = await get('berth://app/assets/app.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log(1)');
    expect((await get('berth://app/assets/a%20b.css')).status).toBe(200);
    const head = await get('berth://app/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it.each([
    ['berth://app/..%2fsecret.txt', 403],
    ['berth://app/assets/..%2f..%2fsecret.txt', 403],
    ['berth://app/%2e%2e/secret.txt', 404],
    ['berth://app/../secret.txt', 404],
    ['berth://app/leak.txt', 403],
    ['berth://app/missing.js', 404],
    ['berth://app/assets', 404],
    ['berth://app/a%00.js', 400],
    ['berth://app/%E0%A4%A', 400],
    ['berth://other/index.html', 404],
  ])('refuses %s with %i and never serves the secret', async (url, status) => {
    const response = await get(url);
    expect(response.status).toBe(status);
    expect(await response.text()).not.toContain('do not serve');
    expect(response.headers.get('content-security-policy')).toBe(APP_CSP);
  });

  it('only answers GET and HEAD', async () => {
    expect((await get('berth://app/index.html', 'POST')).status).toBe(405);
  });
});
