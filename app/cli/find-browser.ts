import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** What the lookup reads from the machine; injectable so every platform can be tested anywhere. */
export interface BrowserLookupInputs {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  homedir: string;
  /** Whether a file exists and can be run. */
  isExecutable(path: string): boolean;
}

export type BrowserLookup = { kind: 'found'; path: string } | { kind: 'not-found'; message: string };

/** Chromium-family browsers with `--app` windows, in order of preference, as named on PATH. */
const POSIX_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'microsoft-edge-stable'];
const WINDOWS_NAMES = ['chrome', 'msedge', 'chromium'];

function macInstallPaths(homedir: string): string[] {
  const apps = [
    'Chromium.app/Contents/MacOS/Chromium',
    'Google Chrome.app/Contents/MacOS/Google Chrome',
    'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  ];
  return apps.flatMap((app) => [posix.join('/Applications', app), posix.join(homedir, 'Applications', app)]);
}

function windowsInstallPaths(env: BrowserLookupInputs['env']): string[] {
  const bases = [env.LOCALAPPDATA, env.PROGRAMFILES ?? env.ProgramFiles, env['PROGRAMFILES(X86)'] ?? env['ProgramFiles(x86)']].filter(
    (base): base is string => base !== undefined && base !== '',
  );
  const relative = ['Google\\Chrome\\Application\\chrome.exe', 'Chromium\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe'];
  return relative.flatMap((rel) => bases.map((base) => win32.join(base, rel)));
}

/** Every place `name` could be found on PATH, with Windows' executable extensions. */
function onPath(name: string, inputs: BrowserLookupInputs): string[] {
  const isWindows = inputs.platform === 'win32';
  const path = isWindows ? win32 : posix;
  const pathValue = inputs.env.PATH ?? inputs.env.Path ?? '';
  const extensions = isWindows && !/\.[A-Za-z0-9]+$/.test(name) ? (inputs.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean) : [''];
  return pathValue
    .split(isWindows ? ';' : ':')
    .filter((dir) => dir !== '')
    .flatMap((dir) => extensions.map((extension) => path.join(dir, name + extension.toLowerCase())));
}

/**
 * The browser to open Berth's window in: `BERTH_BROWSER` (a path or a name on
 * PATH) if set, else the first Chromium-family browser found.
 */
export function findBrowser(inputs: BrowserLookupInputs = systemInputs()): BrowserLookup {
  const wanted = inputs.env.BERTH_BROWSER?.trim();
  if (wanted) {
    const isPath = wanted.includes('/') || wanted.includes('\\');
    const candidates = isPath ? [wanted] : onPath(wanted, inputs);
    const found = candidates.find((candidate) => inputs.isExecutable(candidate));
    return found !== undefined
      ? { kind: 'found', path: found }
      : { kind: 'not-found', message: `BERTH_BROWSER is set to "${wanted}", but no such program ${isPath ? 'exists' : 'is on PATH'}` };
  }
  const names = inputs.platform === 'win32' ? WINDOWS_NAMES : POSIX_NAMES;
  const candidates = [
    ...names.flatMap((name) => onPath(name, inputs)),
    ...(inputs.platform === 'darwin' ? macInstallPaths(inputs.homedir) : []),
    ...(inputs.platform === 'win32' ? windowsInstallPaths(inputs.env) : []),
  ];
  const found = candidates.find((candidate) => inputs.isExecutable(candidate));
  if (found !== undefined) return { kind: 'found', path: found };
  return {
    kind: 'not-found',
    message: 'No Chromium, Chrome or Edge was found (set BERTH_BROWSER to a browser to use); open the URL above in any browser',
  };
}

/** Arguments for a standalone app window with its own profile (so its process lives exactly as long as the window). */
export function browserArgs(url: string, userDataDir: string, options: { noSandbox: boolean }): string[] {
  return [
    `--app=${url}`,
    `--user-data-dir=${userDataDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    // Chromium refuses to start as root unless its sandbox is turned off.
    ...(options.noSandbox ? ['--no-sandbox'] : []),
  ];
}

function systemInputs(): BrowserLookupInputs {
  return {
    env: process.env,
    platform: process.platform,
    homedir: homedir(),
    isExecutable: (path) => {
      try {
        if (!statSync(path).isFile()) return false;
        if (process.platform !== 'win32') accessSync(path, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}
