import { parseArgs } from 'node:util';
import { errorMessage } from '../../shared/error-message';

/** Browser mode's command line, parsed. */
export interface BrowserModeArgs {
  /** Serve only; do not open a browser window. */
  headless: boolean;
  /** 0 picks a free port. */
  port: number;
  configDir?: string;
  staticDir?: string;
  help: boolean;
}

/** A command line Berth cannot run with; the message says what to change. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: berth-browser-mode [--headless] [--port N] [--config-dir DIR] [--static-dir DIR]

  --headless         serve the UI without opening a browser window
  --port N           listen on 127.0.0.1:N (default 0: a free port)
  --config-dir DIR   where config.json, state and logs live
                     (default: the platform's config dir, or $BERTH_CONFIG_DIR)
  --static-dir DIR   the built renderer (default: dist/renderer in the repo)
  --help             show this text`;

export function parseBrowserModeArgs(argv: readonly string[]): BrowserModeArgs {
  let values: { headless?: boolean; port?: string; 'config-dir'?: string; 'static-dir'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        headless: { type: 'boolean' },
        port: { type: 'string' },
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
  return {
    headless: values.headless ?? false,
    port: parsePort(values.port),
    ...(values['config-dir'] !== undefined ? { configDir: nonEmpty(values['config-dir'], '--config-dir') } : {}),
    ...(values['static-dir'] !== undefined ? { staticDir: nonEmpty(values['static-dir'], '--static-dir') } : {}),
    help: values.help ?? false,
  };
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = /^\d{1,5}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(port) || port > 65_535) {
    throw new UsageError(`--port must be a number from 0 to 65535 (0 picks a free port), not "${value}"`);
  }
  return port;
}

function nonEmpty(value: string, flag: string): string {
  if (value.trim() === '') throw new UsageError(`${flag} needs a directory`);
  return value;
}
