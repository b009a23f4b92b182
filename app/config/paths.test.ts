import { describe, expect, it } from 'vitest';
import { berthPaths, resolveBrowserConfigDir } from './paths';

describe('resolveBrowserConfigDir', () => {
  it('lets BERTH_CONFIG_DIR win on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32', 'freebsd'] as const) {
      expect(
        resolveBrowserConfigDir({
          env: { BERTH_CONFIG_DIR: '/custom/berth', XDG_CONFIG_HOME: '/x', APPDATA: 'C:\\A' },
          platform,
          homedir: '/home/p',
        }),
      ).toBe('/custom/berth');
    }
  });

  it('ignores an empty BERTH_CONFIG_DIR', () => {
    expect(resolveBrowserConfigDir({ env: { BERTH_CONFIG_DIR: '' }, platform: 'linux', homedir: '/home/p' })).toBe(
      '/home/p/.config/berth',
    );
  });

  it('follows XDG on Linux and the BSDs', () => {
    expect(
      resolveBrowserConfigDir({ env: { XDG_CONFIG_HOME: '/home/p/.xdg' }, platform: 'linux', homedir: '/home/p' }),
    ).toBe('/home/p/.xdg/berth');
    expect(resolveBrowserConfigDir({ env: {}, platform: 'linux', homedir: '/home/p' })).toBe('/home/p/.config/berth');
    expect(resolveBrowserConfigDir({ env: {}, platform: 'openbsd', homedir: '/home/p' })).toBe('/home/p/.config/berth');
    // A relative XDG_CONFIG_HOME is invalid per the spec.
    expect(
      resolveBrowserConfigDir({ env: { XDG_CONFIG_HOME: 'rel/dir' }, platform: 'freebsd', homedir: '/home/p' }),
    ).toBe('/home/p/.config/berth');
  });

  it('uses Application Support on macOS', () => {
    expect(resolveBrowserConfigDir({ env: { XDG_CONFIG_HOME: '/x' }, platform: 'darwin', homedir: '/Users/p' })).toBe(
      '/Users/p/Library/Application Support/Berth',
    );
  });

  it('uses %APPDATA% on Windows, with a fallback under the profile', () => {
    expect(
      resolveBrowserConfigDir({
        env: { APPDATA: 'C:\\Users\\p\\AppData\\Roaming' },
        platform: 'win32',
        homedir: 'C:\\Users\\p',
      }),
    ).toBe('C:\\Users\\p\\AppData\\Roaming\\Berth');
    expect(resolveBrowserConfigDir({ env: {}, platform: 'win32', homedir: 'C:\\Users\\p' })).toBe(
      'C:\\Users\\p\\AppData\\Roaming\\Berth',
    );
  });
});

describe('berthPaths', () => {
  it('lays out the files inside the config dir', () => {
    expect(berthPaths('/home/p/.config/berth')).toEqual({
      configDir: '/home/p/.config/berth',
      configFile: '/home/p/.config/berth/config.json',
      stateDir: '/home/p/.config/berth/state',
      logsDir: '/home/p/.config/berth/logs',
      conversationsDir: '/home/p/.config/berth/conversations',
      secretsFile: '/home/p/.config/berth/secrets.json',
      bundlesDir: '/home/p/.config/berth/bundles',
    });
  });

  it('joins Windows dirs with backslashes', () => {
    expect(berthPaths('C:\\Users\\p\\AppData\\Roaming\\Berth')).toMatchObject({
      configFile: 'C:\\Users\\p\\AppData\\Roaming\\Berth\\config.json',
      logsDir: 'C:\\Users\\p\\AppData\\Roaming\\Berth\\logs',
    });
  });
});
