import path, { posix, win32 } from 'node:path';

/** What `resolveBrowserConfigDir` needs from the process, injectable so every platform can be tested anywhere. */
export interface ConfigDirInputs {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  homedir: string;
}

/** Where Berth keeps its files; Electron passes its `userData` dir to `berthPaths` instead. */
export interface BerthPaths {
  configDir: string;
  /** Claude-Desktop-compatible `{ "mcpServers": … }`. */
  configFile: string;
  /** Remembered per-server facts (protocol era, consent decisions…). */
  stateDir: string;
  logsDir: string;
  /** One JSON file per conversation, with the index (app/chat/conversation-store.ts). */
  conversationsDir: string;
  /** Browser mode's 0600 secrets file (Electron uses safeStorage). */
  secretsFile: string;
  /** MCP Bundles, unpacked: `<name>/<version>/`, plus `.staging/` while one is reviewed. */
  bundlesDir: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/**
 * The config directory when Berth runs without Electron (browser mode, CLI),
 * following each platform's convention. `BERTH_CONFIG_DIR` wins so tests and
 * portable installs can point anywhere.
 */
export function resolveBrowserConfigDir({ env, platform, homedir }: ConfigDirInputs): string {
  const override = nonEmpty(env.BERTH_CONFIG_DIR);
  if (override !== undefined) return override;
  if (platform === 'win32') {
    const appData = nonEmpty(env.APPDATA) ?? win32.join(homedir, 'AppData', 'Roaming');
    return win32.join(appData, 'Berth');
  }
  if (platform === 'darwin') return posix.join(homedir, 'Library', 'Application Support', 'Berth');
  // XDG says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  const base = xdg !== undefined && posix.isAbsolute(xdg) ? xdg : posix.join(homedir, '.config');
  return posix.join(base, 'berth');
}

/** The fixed layout inside a config directory. */
export function berthPaths(configDir: string): BerthPaths {
  // A drive-letter or UNC dir is joined the Windows way even when computed elsewhere (tests, remote paths).
  const join = /^[A-Za-z]:[\\/]|^\\\\/.test(configDir) ? win32.join : path.join;
  return {
    configDir,
    configFile: join(configDir, 'config.json'),
    stateDir: join(configDir, 'state'),
    logsDir: join(configDir, 'logs'),
    conversationsDir: join(configDir, 'conversations'),
    secretsFile: join(configDir, 'secrets.json'),
    bundlesDir: join(configDir, 'bundles'),
  };
}
