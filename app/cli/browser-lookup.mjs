// @ts-check
// Which Chromium-family browser to use: one lookup for `npm start`'s browser
// mode (through find-browser.ts), the end-to-end suite (playwright.config.ts),
// the benchmarks and scripts/provision-browser.mjs. Plain ESM with JSDoc types
// so that plain Node scripts can run it before anything is compiled.
//
// Order: BERTH_BROWSER, then Playwright's own Chromium when it is installed,
// then Chrome / Chromium / Edge on PATH and at their usual install paths on
// Linux, macOS and Windows. Installing anything is provision-browser.mjs's job.
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/**
 * What the lookup reads from the machine; injectable so every platform can be tested anywhere.
 * @typedef {object} BrowserLookupInputs
 * @property {Readonly<Record<string, string | undefined>>} env
 * @property {NodeJS.Platform} platform
 * @property {string} homedir
 * @property {(path: string) => boolean} isExecutable Whether a file exists and can be run.
 * @property {string} [managedChromium] Where Playwright's own Chromium for this playwright-core lives once installed (absent: no Playwright here).
 * @property {string} [systemRoot] Prefix for the fixed install paths ("/" unless a test simulates a machine in a temp folder).
 */

/** @typedef {'BERTH_BROWSER' | 'playwright' | 'system'} BrowserSource */

/**
 * `message` is for browser mode's window (it ends by pointing at the printed URL); `reason` says only what is missing.
 * @typedef {{ kind: 'found', path: string, source: BrowserSource } | { kind: 'not-found', message: string, reason: string }} BrowserLookup
 */

/** Chromium-family browsers with `--app` windows, in order of preference, as named on PATH. */
const POSIX_NAMES = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'microsoft-edge',
  'microsoft-edge-stable',
];
const WINDOWS_NAMES = ['chrome', 'msedge', 'chromium'];

/** Where Linux packages put them, for a PATH that lacks /usr/bin or /snap/bin (services, minimal shells). */
const LINUX_INSTALL_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/usr/bin/microsoft-edge',
  '/usr/bin/microsoft-edge-stable',
  '/opt/microsoft/msedge/msedge',
];

const MAC_APPS = [
  'Chromium.app/Contents/MacOS/Chromium',
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
];

/**
 * @param {string} systemRoot
 * @param {string} path an absolute POSIX path
 */
function underRoot(systemRoot, path) {
  return systemRoot === '/' ? path : posix.join(systemRoot, path);
}

/** @param {BrowserLookupInputs} inputs */
function installPaths(inputs) {
  const root = inputs.systemRoot ?? '/';
  if (inputs.platform === 'darwin') {
    return MAC_APPS.flatMap((app) => [
      underRoot(root, posix.join('/Applications', app)),
      posix.join(inputs.homedir, 'Applications', app),
    ]);
  }
  if (inputs.platform === 'win32') {
    const env = inputs.env;
    const bases = [
      env.LOCALAPPDATA,
      env.PROGRAMFILES ?? env.ProgramFiles,
      env['PROGRAMFILES(X86)'] ?? env['ProgramFiles(x86)'],
    ].filter(/** @returns {base is string} */ (base) => base !== undefined && base !== '');
    const relative = [
      'Google\\Chrome\\Application\\chrome.exe',
      'Chromium\\Application\\chrome.exe',
      'Microsoft\\Edge\\Application\\msedge.exe',
    ];
    return relative.flatMap((rel) => bases.map((base) => win32.join(base, rel)));
  }
  return LINUX_INSTALL_PATHS.map((path) => underRoot(root, path));
}

/**
 * Every place `name` could be found on PATH, with Windows' executable extensions.
 * @param {string} name
 * @param {Pick<BrowserLookupInputs, 'env' | 'platform'>} inputs
 * @returns {string[]}
 */
export function onPath(name, inputs) {
  const isWindows = inputs.platform === 'win32';
  const path = isWindows ? win32 : posix;
  const pathValue = inputs.env.PATH ?? inputs.env.Path ?? '';
  const extensions =
    isWindows && !/\.[A-Za-z0-9]+$/.test(name)
      ? (inputs.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean)
      : [''];
  return pathValue
    .split(isWindows ? ';' : ':')
    .filter((dir) => dir !== '')
    .flatMap((dir) => extensions.map((extension) => path.join(dir, name + extension.toLowerCase())));
}

/**
 * The browser to use: `BERTH_BROWSER` (a path or a name on PATH) if set, else
 * Playwright's own Chromium when installed, else the first Chromium-family
 * browser found on PATH or at its usual install path.
 * @param {BrowserLookupInputs} [inputs]
 * @returns {BrowserLookup}
 */
export function findBrowser(inputs = systemLookupInputs()) {
  const wanted = inputs.env.BERTH_BROWSER?.trim();
  if (wanted) {
    const isPath = wanted.includes('/') || wanted.includes('\\');
    const candidates = isPath ? [wanted] : onPath(wanted, inputs);
    const found = candidates.find((candidate) => inputs.isExecutable(candidate));
    if (found !== undefined) return { kind: 'found', path: found, source: 'BERTH_BROWSER' };
    const reason = `BERTH_BROWSER is set to "${wanted}", but no such program ${isPath ? 'exists' : 'is on PATH'}`;
    return { kind: 'not-found', message: reason, reason };
  }
  if (inputs.managedChromium !== undefined && inputs.isExecutable(inputs.managedChromium)) {
    return { kind: 'found', path: inputs.managedChromium, source: 'playwright' };
  }
  const names = inputs.platform === 'win32' ? WINDOWS_NAMES : POSIX_NAMES;
  const candidates = [...names.flatMap((name) => onPath(name, inputs)), ...installPaths(inputs)];
  const found = candidates.find((candidate) => inputs.isExecutable(candidate));
  if (found !== undefined) return { kind: 'found', path: found, source: 'system' };
  const reason = 'No Chromium, Chrome or Edge was found (set BERTH_BROWSER to a browser to use)';
  return { kind: 'not-found', message: `${reason}; open the URL above in any browser`, reason };
}

/**
 * Flags for a Chromium driven by automation (tests, benchmarks, the icon
 * renderer): no GPU, /dev/shm or background traffic, and no sandbox, which
 * fails as root and in containers.
 */
export const AUTOMATION_FLAGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]);

/**
 * Arguments for a standalone app window with its own profile (so its process lives exactly as long as the window).
 * @param {string} url
 * @param {string} userDataDir
 * @param {{ noSandbox: boolean }} options
 * @returns {string[]}
 */
export function browserArgs(url, userDataDir, options) {
  return [
    `--app=${url}`,
    `--user-data-dir=${userDataDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    // Chromium refuses to start as root unless its sandbox is turned off.
    ...(options.noSandbox ? ['--no-sandbox'] : []),
  ];
}

/**
 * Where playwright-core (a dev dependency, so present in a clone but not in a
 * package) installs its Chromium on this machine, honouring
 * PLAYWRIGHT_BROWSERS_PATH; undefined without playwright-core.
 * @returns {string | undefined}
 */
export function playwrightChromiumPath() {
  const require = createRequire(import.meta.url);
  /** @type {{ chromium: { executablePath(): string } }} */
  let playwright;
  try {
    playwright = require('playwright-core');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  try {
    return playwright.chromium.executablePath();
  } catch {
    // playwright-core throws here only on a platform it builds no Chromium for: there is none to find.
    return undefined;
  }
}

/**
 * Whether a file exists and can be run by us.
 * @param {string} path
 */
export function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * This machine, as the lookup sees it.
 * @returns {BrowserLookupInputs}
 */
export function systemLookupInputs() {
  return {
    env: process.env,
    platform: process.platform,
    homedir: homedir(),
    isExecutable: isExecutableFile,
    managedChromium: playwrightChromiumPath(),
  };
}
