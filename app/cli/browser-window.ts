import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { browserArgs, findBrowser, type BrowserLookupInputs } from './find-browser';

/** A window closed this soon after launch was most likely handed to an already running browser, or failed. */
const HANDOFF_WINDOW_MS = 3_000;

export interface AppWindowOptions {
  url: string;
  /** The window's own profile, so its process lives exactly as long as the window. */
  userDataDir: string;
  /** Where progress and problems are written (stderr: stdout carries only the ready line). */
  say(line: string): void;
  /** The window was closed by the person. */
  onClosed(): void;
  lookup?: BrowserLookupInputs;
}

export interface AppWindow {
  /** Close the window (if one was opened). */
  close(): void;
}

/**
 * Opens Berth's UI in a Chromium-family `--app` window. Never fatal: without
 * a browser, or if it fails, Berth keeps serving and says to open the URL.
 */
export function openAppWindow(options: AppWindowOptions): AppWindow {
  const lookup = findBrowser(options.lookup);
  if (lookup.kind === 'not-found') {
    options.say(lookup.message);
    return { close: () => undefined };
  }
  try {
    mkdirSync(options.userDataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    options.say(`Could not create the browser profile at ${options.userDataDir}: ${error instanceof Error ? error.message : String(error)}`);
    return { close: () => undefined };
  }
  const runningAsRoot = process.platform === 'linux' && process.getuid?.() === 0;
  if (runningAsRoot) options.say('Running as root: the browser window starts without its sandbox (--no-sandbox).');

  const launchedAt = Date.now();
  let child: ChildProcess;
  try {
    child = spawn(lookup.path, browserArgs(options.url, options.userDataDir, { noSandbox: runningAsRoot }), {
      // The browser's chatter must not reach stdout, which carries only the ready line.
      stdio: 'ignore',
      detached: false,
    });
  } catch (error) {
    options.say(`Could not start ${lookup.path}: ${error instanceof Error ? error.message : String(error)}; open the URL above yourself.`);
    return { close: () => undefined };
  }
  let closedByUs = false;
  child.once('error', (error) => {
    options.say(`Could not start ${lookup.path}: ${error.message}; open the URL above yourself.`);
  });
  child.once('exit', (code, signal) => {
    if (closedByUs) return;
    if (Date.now() - launchedAt < HANDOFF_WINDOW_MS) {
      const how = signal !== null ? `signal ${signal}` : `code ${String(code)}`;
      options.say(`The browser exited right away (${how}); Berth keeps running — open the URL above, and press Ctrl+C to stop.`);
      return;
    }
    options.onClosed();
  });
  options.say(`Opened Berth in ${lookup.path}`);
  return {
    close: () => {
      closedByUs = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
