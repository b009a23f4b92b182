import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { makePrivateDirSync } from '../config/private-files';
import { connectDevToolsPipe } from './devtools-pipe';
import { browserArgs, findBrowser, type BrowserLookupInputs } from './find-browser';
import { handTokenToWindow } from './window-token';
import { errorMessage } from '../../shared/error-message';

/** A window closed this soon after launch was most likely handed to an already running browser, or failed. */
const HANDOFF_WINDOW_MS = 3_000;

/**
 * What the window shows until Berth has handed it the token and opened its
 * page; it stays only if that failed. It is in the command line, so it holds
 * nothing secret.
 */
export const OPENING_PAGE =
  'data:text/html;charset=utf-8,' +
  encodeURIComponent(
    '<!doctype html><title>Berth</title><body style="font:15px system-ui,sans-serif;margin:3em;color:#333">' +
      '<p>Opening Berth…</p><p>If this page stays, open the address Berth printed in its terminal.</p>',
  );

export interface AppWindowOptions {
  /** Berth's page, without the token. */
  url: string;
  /** The bridge token, handed over the browser's private DevTools pipe (never in its argv or a URL). */
  token: string;
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
    makePrivateDirSync(options.userDataDir);
  } catch (error) {
    options.say(`Could not create the browser profile at ${options.userDataDir}: ${errorMessage(error)}`);
    return { close: () => undefined };
  }
  const runningAsRoot = process.platform === 'linux' && process.getuid?.() === 0;
  if (runningAsRoot) options.say('Running as root: the browser window starts without its sandbox (--no-sandbox).');

  const launchedAt = Date.now();
  let child: ChildProcess;
  try {
    const args = [
      ...browserArgs(OPENING_PAGE, options.userDataDir, { noSandbox: runningAsRoot }),
      '--remote-debugging-pipe',
    ];
    child = spawn(lookup.path, args, {
      // The browser's chatter must not reach stdout, which carries only the ready line.
      // fds 3 and 4 are the DevTools pipe (commands in, replies out).
      stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
      detached: false,
    });
  } catch (error) {
    options.say(`Could not start ${lookup.path}: ${errorMessage(error)}; open the URL above yourself.`);
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
      options.say(
        `The browser exited right away (${how}); Berth keeps running — open the URL above, and press Ctrl+C to stop.`,
      );
      return;
    }
    options.onClosed();
  });
  const [, , , commands, replies] = child.stdio;
  if (commands === null || replies === null || commands === undefined || replies === undefined) {
    // Without the pipe the window could never get the token: close it rather than leave it waiting.
    closedByUs = true;
    child.kill('SIGTERM');
    options.say(`Could not talk to ${lookup.path} (its DevTools pipe is missing); open the URL above yourself.`);
    return { close: () => undefined };
  }
  let exited = false;
  const pipe = connectDevToolsPipe(commands as Writable, replies as Readable);
  child.once('exit', () => {
    exited = true;
    pipe.close('the browser exited');
  });
  handTokenToWindow(pipe, { pageUrl: options.url, token: options.token }).then(
    () => options.say(`Opened Berth in ${lookup.path}`),
    (error: unknown) => {
      // A browser that exits closes the pipe first: give its exit a moment to be reported above instead.
      setTimeout(() => {
        if (closedByUs || exited) return;
        options.say(
          `Could not open Berth in the ${lookup.path} window: ${errorMessage(error)}; open the URL above yourself.`,
        );
      }, 500).unref();
    },
  );
  return {
    close: () => {
      closedByUs = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
