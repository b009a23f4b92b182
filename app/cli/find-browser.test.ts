import { describe, expect, it } from 'vitest';
import { browserArgs, findBrowser, type BrowserLookupInputs } from './find-browser';

function inputs(overrides: Partial<BrowserLookupInputs> & { existing?: string[] }): BrowserLookupInputs {
  const existing = new Set(overrides.existing ?? []);
  return {
    env: overrides.env ?? { PATH: '/usr/local/bin:/usr/bin' },
    platform: overrides.platform ?? 'linux',
    homedir: overrides.homedir ?? '/home/me',
    isExecutable: (path) => existing.has(path),
  };
}

describe('findBrowser', () => {
  it('prefers chromium, then the other names, in PATH order', () => {
    expect(findBrowser(inputs({ existing: ['/usr/bin/google-chrome', '/usr/bin/chromium'] }))).toEqual({ kind: 'found', path: '/usr/bin/chromium' });
    expect(findBrowser(inputs({ existing: ['/usr/bin/microsoft-edge', '/usr/local/bin/google-chrome-stable'] }))).toEqual({
      kind: 'found',
      path: '/usr/local/bin/google-chrome-stable',
    });
  });

  it('honours BERTH_BROWSER as a path or a name on PATH, and says when it is missing', () => {
    const existing = ['/opt/brave/brave', '/usr/bin/brave-browser', '/usr/bin/chromium'];
    expect(findBrowser(inputs({ env: { PATH: '/usr/bin', BERTH_BROWSER: '/opt/brave/brave' }, existing }))).toEqual({ kind: 'found', path: '/opt/brave/brave' });
    expect(findBrowser(inputs({ env: { PATH: '/usr/bin', BERTH_BROWSER: 'brave-browser' }, existing }))).toEqual({ kind: 'found', path: '/usr/bin/brave-browser' });
    const missing = findBrowser(inputs({ env: { PATH: '/usr/bin', BERTH_BROWSER: '/nope/browser' }, existing }));
    expect(missing.kind).toBe('not-found');
    expect(missing.kind === 'not-found' && missing.message).toContain('BERTH_BROWSER');
  });

  it('looks in the macOS application folders', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findBrowser(inputs({ platform: 'darwin', env: { PATH: '/usr/bin' }, existing: [chrome] }))).toEqual({ kind: 'found', path: chrome });
    const userChromium = '/Users/me/Applications/Chromium.app/Contents/MacOS/Chromium';
    expect(findBrowser(inputs({ platform: 'darwin', homedir: '/Users/me', env: { PATH: '' }, existing: [userChromium] }))).toEqual({
      kind: 'found',
      path: userChromium,
    });
  });

  it('looks on the Windows PATH with PATHEXT and in the install folders', () => {
    const env = { Path: 'C:\\Tools', PATHEXT: '.COM;.EXE', LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local', PROGRAMFILES: 'C:\\Program Files' };
    expect(findBrowser(inputs({ platform: 'win32', env, existing: ['C:\\Tools\\msedge.exe'] }))).toEqual({ kind: 'found', path: 'C:\\Tools\\msedge.exe' });
    const edge = 'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe';
    expect(findBrowser(inputs({ platform: 'win32', env, existing: [edge] }))).toEqual({ kind: 'found', path: edge });
  });

  it('says plainly when there is none', () => {
    const result = findBrowser(inputs({ existing: [] }));
    expect(result.kind).toBe('not-found');
    expect(result.kind === 'not-found' && result.message).toMatch(/No Chromium, Chrome or Edge/);
  });
});

describe('browserArgs', () => {
  it('opens an app window with its own profile', () => {
    expect(browserArgs('http://127.0.0.1:1/#token=t', '/cfg/browser-profile', { noSandbox: false })).toEqual([
      '--app=http://127.0.0.1:1/#token=t',
      '--user-data-dir=/cfg/browser-profile',
      '--no-first-run',
      '--no-default-browser-check',
    ]);
    expect(browserArgs('u', 'd', { noSandbox: true })).toContain('--no-sandbox');
  });
});
