import { parseArgs } from 'node:util';
import { errorMessage } from '../../shared/error-message';

/** Browser mode's command line, parsed. */
export interface BrowserModeArgs {
  /** Serve only; do not open a browser window. */
  headless: boolean;
  /** The bridge's (and the UI's) port; 0 picks a free port. */
  port: number;
  /**
   * The app sandbox's port (MCP Apps' second origin): `--app-sandbox-port`, else the one after
   * `--port` when that is set, so both can be planned (a firewall rule, a second instance); 0 picks a free port.
   */
  appSandboxPort: number;
  configDir?: string;
  staticDir?: string;
  help: boolean;
}

/** A command line Berth cannot run with; the message says what to change. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: berth-browser-mode [--headless] [--port N] [--app-sandbox-port M] [--config-dir DIR] [--static-dir DIR]

  --headless         serve the UI without opening a browser window
  --port N           listen on 127.0.0.1:N (default 0: a free port)
  --app-sandbox-port M
                     serve MCP Apps' sandbox on 127.0.0.1:M (default: N+1
                     when --port is given, else a free port)
  --config-dir DIR   where config.json, state and logs live
                     (default: the platform's config dir, or $BERTH_CONFIG_DIR)
  --static-dir DIR   the built renderer (default: dist/renderer in the repo)
  --help             show this text`;

export function parseBrowserModeArgs(argv: readonly string[]): BrowserModeArgs {
  let values: {
    headless?: boolean;
    port?: string;
    'app-sandbox-port'?: string;
    'config-dir'?: string;
    'static-dir'?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        headless: { type: 'boolean' },
        port: { type: 'string' },
        'app-sandbox-port': { type: 'string' },
        'config-dir': { type: 'string' },
        'static-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  const port = parsePort(values.port, '--port');
  return {
    headless: values.headless ?? false,
    port,
    appSandboxPort: appSandboxPort(values['app-sandbox-port'], port),
    ...(values['config-dir'] !== undefined ? { configDir: nonEmpty(values['config-dir'], '--config-dir') } : {}),
    ...(values['static-dir'] !== undefined ? { staticDir: nonEmpty(values['static-dir'], '--static-dir') } : {}),
    help: values.help ?? false,
  };
}

function parsePort(value: string | undefined, flag: string): number {
  if (value === undefined) return 0;
  const port = /^\d{1,5}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(port) || port > 65_535) {
    throw new UsageError(`${flag} must be a number from 0 to 65535 (0 picks a free port), not "${value}"`);
  }
  return port;
}

/** The app sandbox's port: its own flag, else the one after a fixed bridge port, else a free one. */
function appSandboxPort(value: string | undefined, port: number): number {
  if (value !== undefined) {
    const own = parsePort(value, '--app-sandbox-port');
    if (own !== 0 && own === port)
      throw new UsageError(`--app-sandbox-port must differ from --port (both are ${port})`);
    return own;
  }
  if (port === 0) return 0;
  if (port === 65_535)
    throw new UsageError('--port 65535 leaves no port after it for the app sandbox: pass --app-sandbox-port too');
  return port + 1;
}

function nonEmpty(value: string, flag: string): string {
  if (value.trim() === '') throw new UsageError(`${flag} needs a directory`);
  return value;
}
