import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandboxProxyServer, type SandboxProxyServer } from '../apps/sandbox-proxy-server';
import { startBrowserServer, type BrowserServer } from '../bridge/ws-server';
import { resolveBrowserConfigDir } from '../config/paths';
import { createHost } from '../host';
import type { Host } from '../host/host-types';
import { parseBrowserModeArgs, USAGE, UsageError, type BrowserModeArgs } from './args';
import { openAppWindow, type AppWindow } from './browser-window';

/**
 * Browser mode: the host, the built renderer and the WebSocket bridge on
 * 127.0.0.1, optionally in a Chromium `--app` window. stdout carries exactly
 * one line (the ready URL) so scripts and tests can read it; everything else
 * goes to stderr.
 */

/** Shutting down longer than this means something hangs; exit anyway. */
const SHUTDOWN_LIMIT_MS = 20_000;

const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** The repo (or install) root: the nearest package.json named "berth" above this file, bundled or not. */
function findRepoRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'berth') return dir;
      } catch {
        // An unreadable manifest is not ours; keep looking upwards.
      }
    }
    if (dirname(dir) === dir) return resolve(start, '..', '..');
  }
}

async function main(args: BrowserModeArgs): Promise<void> {
  const configDir = resolve(
    args.configDir ?? resolveBrowserConfigDir({ env: process.env, platform: process.platform, homedir: homedir() }),
  );
  const staticDir = resolve(args.staticDir ?? join(findRepoRoot(), 'dist', 'renderer'));
  if (!existsSync(join(staticDir, 'index.html')))
    say(`The renderer is not built (no ${join(staticDir, 'index.html')}): run npm run build.`);

  // MCP Apps run under a second loopback origin that serves only their sandbox proxy.
  const proxyDir = resolve(staticDir, '..', 'sandbox-proxy');
  if (!existsSync(join(proxyDir, 'index.html')))
    say(`The app sandbox is not built (no ${join(proxyDir, 'index.html')}): run npm run build.`);
  let sandboxProxy: SandboxProxyServer | undefined;
  let server: BrowserServer | undefined;
  const ownPorts = (): number[] =>
    [server?.port, sandboxProxy === undefined ? undefined : Number(new URL(sandboxProxy.origin).port)].filter(
      (port): port is number => port !== undefined && port > 0,
    );
  const hostStarting: Promise<Host> = createHost({
    configDir,
    shell: 'browser',
    appSandboxProxyUrl: () => sandboxProxy?.url,
    ownPorts,
  });
  let appWindow: AppWindow | undefined;
  let stopping: Promise<void> | undefined;

  const shutdown = (code: number, why: string): Promise<void> => {
    stopping ??= (async () => {
      say(`Berth is shutting down (${why})…`);
      setTimeout(() => {
        say('Shutting down is taking too long; exiting now.');
        process.exit(1);
      }, SHUTDOWN_LIMIT_MS).unref();
      appWindow?.close();
      try {
        await server?.close();
        await sandboxProxy?.close();
        // A signal during start-up still waits for the host, so servers it is spawning are stopped too.
        await hostStarting.then(
          (host) => host.shutdown(),
          () => undefined,
        );
      } catch (error) {
        say(`Shutting down failed: ${describe(error)}`);
        process.exit(1);
      }
      process.exit(code);
    })();
    return stopping;
  };

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signals += 1;
    if (signals > 1) {
      say(`Second ${signal}: exiting without waiting for servers to stop.`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    void shutdown(0, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  process.on('unhandledRejection', (reason) => say(`Berth: unhandled promise rejection (a bug): ${describe(reason)}`));
  process.on('uncaughtException', (error) => {
    say(`Berth: uncaught exception (a bug): ${describe(error)}`);
    void shutdown(1, 'uncaught exception');
  });

  const host = await hostStarting;
  if (stopping !== undefined) return;
  try {
    sandboxProxy = await startSandboxProxyServer({
      proxyDir,
      port: args.appSandboxPort,
      // Only Berth's own page may frame it; its port is known once the server below listens.
      embedderOrigins: () =>
        server === undefined ? [] : [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`],
      onError: (error) => say(`Berth app sandbox server: ${describe(error)}`),
    });
    server = await startBrowserServer({
      host,
      staticDir,
      port: args.port,
      appSandboxOrigin: sandboxProxy.origin,
      onError: (error) => say(`Berth server: ${describe(error)}`),
    });
  } catch (error) {
    // Expected failures (port taken, bad address) read best without a stack trace.
    say(`Berth cannot start: ${error instanceof Error ? error.message : describe(error)}`);
    await shutdown(1, 'the server could not start');
    return;
  }
  if (stopping !== undefined) return;
  const readyUrl = `${server.url}#token=${server.token}`;
  process.stdout.write(`Berth is ready at ${readyUrl}\n`);
  say(`Config: ${configDir}`);
  say(`App sandbox: ${sandboxProxy.url}`);

  if (!args.headless) {
    appWindow = openAppWindow({
      url: server.url,
      token: server.token,
      userDataDir: join(configDir, 'browser-profile'),
      say,
      onClosed: () => void shutdown(0, 'the Berth window was closed'),
    });
  }
}

function describe(error: unknown): string {
  // A client that went away (app/net/client-disconnect.ts) is one line, not a stack trace.
  if (error instanceof Error && error.name === 'ClientDisconnect') return error.message;
  if (error instanceof Error) return error.stack ?? error.message;
  try {
    return String(error);
  } catch {
    return 'an error that cannot be described';
  }
}

let parsed: BrowserModeArgs;
try {
  parsed = parseBrowserModeArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  say(`${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (parsed.help) {
  say(USAGE);
  process.exit(0);
}
main(parsed).catch((error: unknown) => {
  say(`Berth cannot start: ${describe(error)}`);
  process.exit(1);
});
