import { posix, win32 } from 'node:path';
import type { ForeignLocationId } from '../../shared/contract/config-import';
import type { ForeignFormat } from './foreign-formats';

/** Where another app keeps its MCP servers. */
export interface ForeignConfigLocation {
  /** Stable id for the UI, e.g. `vscode-user`. */
  id: ForeignLocationId;
  label: string;
  format: ForeignFormat;
  path: string;
}

/** Everything `foreignConfigLocations` depends on, so it stays a pure function. */
export interface LocationOptions {
  platform: NodeJS.Platform;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** A project folder: adds its `.mcp.json` and `.vscode/mcp.json`. */
  projectFolder?: string;
}

/** Candidate files per app; whether each exists is for the caller to check. */
export function foreignConfigLocations(options: LocationOptions): ForeignConfigLocation[] {
  const { platform, home, env } = options;
  const path = platform === 'win32' ? win32 : posix;
  // Electron apps keep their data in the per-platform "application data" folder.
  const appData =
    platform === 'win32'
      ? (env.APPDATA ?? path.join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? path.join(home, '.config'));
  const locations: ForeignConfigLocation[] = [
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      format: 'claude-desktop',
      path: path.join(appData, 'Claude', 'claude_desktop_config.json'),
    },
    { id: 'cursor', label: 'Cursor', format: 'cursor', path: path.join(home, '.cursor', 'mcp.json') },
    {
      id: 'vscode-user',
      label: 'VS Code (user)',
      format: 'vscode',
      path: path.join(appData, 'Code', 'User', 'mcp.json'),
    },
  ];
  if (options.projectFolder !== undefined) {
    locations.push(
      {
        id: 'claude-code-project',
        label: 'Claude Code (.mcp.json)',
        format: 'claude-code',
        path: path.join(options.projectFolder, '.mcp.json'),
      },
      {
        id: 'vscode-workspace',
        label: 'VS Code (workspace)',
        format: 'vscode',
        path: path.join(options.projectFolder, '.vscode', 'mcp.json'),
      },
    );
  }
  return locations;
}
