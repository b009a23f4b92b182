import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE } from '../config/private-files';
import type { PrepareLaunch } from './server-launch';

// A local server whose config sets no `cwd` starts in a folder of its own,
// never in Berth's working folder: servers write there (Playwright MCP makes
// `.playwright-mcp/`), and Berth's working folder is wherever it was launched
// from (a project, the person's home, `/`). The folder is the one the OS
// sandbox already gives each server (`<configDir>/sandbox/<name>-<hash>/data`,
// named for the sandbox, which made them first): a sandboxed server may write
// there, and it follows a rename and goes with a removal (app/sandbox).

/**
 * A server's own folder inside Berth's config folder: `sandbox/<name>-<hash>`.
 * The name is reduced to safe characters (a name may hold anything) and the
 * hash keeps two names that reduce alike apart.
 */
export function serverOwnFolder(configDir: string, server: string): string {
  const safe = server
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 60);
  const hash = createHash('sha256').update(server).digest('hex').slice(0, 10);
  return join(configDir, 'sandbox', `${safe}-${hash}`);
}

/** Where a local server without a configured `cwd` runs and keeps what it writes. */
export function serverDataFolder(configDir: string, server: string): string {
  return join(serverOwnFolder(configDir, server), 'data');
}

/** `prepare`, with a local server that has no `cwd` of its own started in its data folder (made, private to the person, when missing). */
export function withServerHome(prepare: PrepareLaunch, configDir: string): PrepareLaunch {
  return async (name, config) => {
    const launch = await prepare(name, config);
    if (launch.config.command === undefined || launch.config.cwd !== undefined) return launch;
    const home = serverDataFolder(configDir, name);
    await mkdir(home, { recursive: true, mode: PRIVATE_DIR_MODE });
    return { ...launch, config: { ...launch.config, cwd: home } };
  };
}
