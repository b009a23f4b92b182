import { spawn, type ChildProcess } from 'node:child_process';
import { isExecutableFile, onPath } from '../../../app/cli/browser-lookup.mjs';

const START_TIMEOUT_MS = 10_000;

/** A display for Electron's windows: the desktop's own, or an Xvfb started for the tests. */
export interface Display {
  /** Extra environment for Electron (DISPLAY), empty when the desktop's is used. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Where Xvfb is, if installed (scripts/provision-browser.mjs installs it as root where Electron is testable). */
export function findXvfb(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return [...onPath('Xvfb', { env, platform: 'linux' }), '/usr/bin/Xvfb'].find(isExecutableFile);
}

/**
 * macOS, Windows and a Linux desktop have a display; a Linux without one
 * (CI, containers) gets a private Xvfb, whose number it reports on
 * -displayfd so that parallel runs never collide. Throws with what to install
 * when there is no Xvfb.
 */
export async function startDisplay(env: NodeJS.ProcessEnv = process.env): Promise<Display> {
  if (process.platform !== 'linux' || env.DISPLAY || env.WAYLAND_DISPLAY)
    return { env: {}, stop: async () => undefined };
  const xvfb = findXvfb(env);
  if (xvfb === undefined)
    throw new Error('Electron needs a display: there is no DISPLAY and no Xvfb (apt-get install xvfb).');
  const child = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const number = await new Promise<string>((resolveNumber, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`Xvfb did not report its display within ${START_TIMEOUT_MS} ms: ${stderr}`)),
      START_TIMEOUT_MS,
    );
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8');
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolveNumber(out.trim());
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (code ${String(code)}) before reporting its display: ${stderr}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return { env: { DISPLAY: `:${number}` }, stop: () => stopProcess(child) };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    child.once('exit', () => resolveStop());
    child.kill('SIGTERM');
  });
}
