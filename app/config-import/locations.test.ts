import { describe, expect, it } from 'vitest';
import { foreignConfigLocations } from './locations';

const paths = (locations: ReturnType<typeof foreignConfigLocations>): Record<string, string> =>
  Object.fromEntries(locations.map((location) => [location.id, location.path]));

describe('foreignConfigLocations', () => {
  it('macOS', () => {
    expect(paths(foreignConfigLocations({ platform: 'darwin', home: '/Users/ada', env: {} }))).toEqual({
      'claude-desktop': '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json',
      cursor: '/Users/ada/.cursor/mcp.json',
      'vscode-user': '/Users/ada/Library/Application Support/Code/User/mcp.json',
    });
  });

  it('Windows, with and without APPDATA', () => {
    const env = { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' };
    expect(paths(foreignConfigLocations({ platform: 'win32', home: 'C:\\Users\\ada', env }))).toEqual({
      'claude-desktop': 'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      cursor: 'C:\\Users\\ada\\.cursor\\mcp.json',
      'vscode-user': 'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json',
    });
    expect(paths(foreignConfigLocations({ platform: 'win32', home: 'D:\\home', env: {} }))['claude-desktop']).toBe(
      'D:\\home\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
  });

  it('Linux, honouring XDG_CONFIG_HOME', () => {
    expect(paths(foreignConfigLocations({ platform: 'linux', home: '/home/ada', env: {} }))).toEqual({
      'claude-desktop': '/home/ada/.config/Claude/claude_desktop_config.json',
      cursor: '/home/ada/.cursor/mcp.json',
      'vscode-user': '/home/ada/.config/Code/User/mcp.json',
    });
    expect(
      paths(foreignConfigLocations({ platform: 'linux', home: '/home/ada', env: { XDG_CONFIG_HOME: '/cfg' } }))[
        'vscode-user'
      ],
    ).toBe('/cfg/Code/User/mcp.json');
  });

  it('adds the project files with their formats when a project folder is given', () => {
    const locations = foreignConfigLocations({
      platform: 'linux',
      home: '/home/ada',
      env: {},
      projectFolder: '/work/app',
    });
    expect(locations.slice(3).map((location) => [location.format, location.path])).toEqual([
      ['claude-code', '/work/app/.mcp.json'],
      ['vscode', '/work/app/.vscode/mcp.json'],
    ]);
    expect(locations.map((location) => location.format).slice(0, 3)).toEqual(['claude-desktop', 'cursor', 'vscode']);
  });
});
