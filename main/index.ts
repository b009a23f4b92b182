import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, protocol, safeStorage, shell } from 'electron';
import { resolveBrowserConfigDir } from '../app/config/paths';
import { createHost } from '../app/host';
import type { Host } from '../app/host/host-types';
import { createSafeStorageSecretStore } from '../app/secrets/safe-storage-store';
import { APP_ORIGIN, APP_SCHEME, createAppRequestHandler, registerAppScheme } from './app-protocol';
import { APP_SANDBOX_SCHEME, APP_SANDBOX_URL, createAppSandboxRequestHandler } from './app-sandbox-protocol';
import { createFolderPicker } from './folder-dialog';
import { registerBridgeIpc } from './ipc';
import { createGracefulQuit, quitOnSignals, reportStartupFailure } from './lifecycle';
import { createConsoleLog } from './log';
import { bindPendingBadge } from './pending-badge';
import { buildAppMenuTemplate } from './menu';
import { createMainWindow, focusWindow, hardenWebContents } from './window';

const log = createConsoleLog();

app.setName('Berth');
// One config dir for both shells (and BERTH_CONFIG_DIR for tests and portable
// installs); it also keys the single-instance lock, so set it first.
const userData = resolve(resolveBrowserConfigDir({ env: process.env, platform: process.platform, homedir: homedir() }));
mkdirSync(userData, { recursive: true });
app.setPath('userData', userData);
registerAppScheme(protocol);

if (!app.requestSingleInstanceLock()) {
  log.info('Berth is already running; focusing that window instead');
  app.quit();
} else {
  let hostStarting: Promise<Host> | null = null;
  let host: Host | null = null;
  let mainWindow: BrowserWindow | null = null;

  const quit = createGracefulQuit({
    exit: (code) => app.exit(code),
    // A quit during start-up waits for the host to exist, so servers it is spawning are stopped too.
    getHost: () => {
      const starting = hostStarting;
      return starting === null
        ? null
        : {
            shutdown: () =>
              starting.then(
                (host) => host.shutdown(),
                () => undefined,
              ),
          };
    },
    log,
  });
  app.on('before-quit', (event) => quit.onBeforeQuit(event));
  quitOnSignals(process, quit, log);
  app.on('second-instance', () => focusWindow(mainWindow));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, { shell, log }));

  const distDir = join(app.getAppPath(), 'dist');
  const openMainWindow = (): void => {
    const win = createMainWindow({
      BrowserWindow,
      nativeTheme,
      shell,
      preloadPath: join(distDir, 'preload', 'index.cjs'),
      log,
    });
    win.on('closed', () => {
      if (mainWindow === win) mainWindow = null;
      // Requests waiting for the person end (deny / reject / cancel) unless a window comes back.
      host?.clientsChanged?.(mainWindow === null ? 0 : 1);
    });
    mainWindow = win;
    host?.clientsChanged?.(1);
  };

  /** URL-mode elicitation: the system browser, only for http(s), only after the person agreed in the UI. */
  const openExternal = async (url: string): Promise<void> => {
    const protocolName = new URL(url).protocol;
    if (protocolName !== 'https:' && protocolName !== 'http:')
      throw new Error(`Berth opens only http and https links, not ${protocolName}`);
    await shell.openExternal(url);
  };

  app
    .whenReady()
    .then(async () => {
      protocol.handle(APP_SCHEME, createAppRequestHandler({ rootDir: join(distDir, 'renderer'), log }));
      // MCP Apps: their sandbox proxy on an origin of its own (berth-app://sandbox).
      protocol.handle(
        APP_SANDBOX_SCHEME,
        createAppSandboxRequestHandler({ proxyDir: join(distDir, 'sandbox-proxy'), embedderOrigin: APP_ORIGIN, log }),
      );
      Menu.setApplicationMenu(
        Menu.buildFromTemplate(
          buildAppMenuTemplate({ platform: process.platform, appName: app.getName(), isPackaged: app.isPackaged }),
        ),
      );
      const configDir = app.getPath('userData');
      // safeStorage is usable only after ready; without an OS keychain it falls back to a 0600 file, with a warning.
      const secrets = createSafeStorageSecretStore({
        safeStorage,
        encryptedFile: join(configDir, 'secrets.electron.json'),
        fallbackFile: join(configDir, 'secrets.json'),
        warn: (text) => log.warn(`secrets: ${text}`),
      });
      const pickFolder = createFolderPicker({ dialog, getWindow: () => mainWindow });
      const starting = createHost({
        configDir,
        shell: 'electron',
        secrets,
        openExternal,
        pickFolder,
        appSandboxProxyUrl: () => APP_SANDBOX_URL,
        systemLanguages: () => app.getPreferredSystemLanguages(),
      });
      hostStarting = starting;
      host = await starting;
      registerBridgeIpc({ ipcMain, host, getWindow: () => mainWindow, log });
      bindPendingBadge(host, (count) => app.setBadgeCount(count), log);
      openMainWindow();
      app.on('activate', () => {
        if (mainWindow === null) openMainWindow();
        else focusWindow(mainWindow);
      });
    })
    .catch((error: unknown) =>
      reportStartupFailure(error, { showErrorBox: (title, content) => dialog.showErrorBox(title, content), log, quit }),
    );
}
