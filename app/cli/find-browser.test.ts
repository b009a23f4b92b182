import { describe, expect, it } from 'vitest';
import { browserArgs, findBrowser, type BrowserLookupInputs } from './find-browser';

function inputs(overrides: Partial<BrowserLookupInputs> & { existing?: string[] }): BrowserLookupInputs {
  const existing = new Set(overrides.existing ?? []);
  return {
    env: overrides.env ?? { PATH: '/usr/local/bin:/usr/bin' },
    platform: overrides.platform ?? 'linux',
    homedir: overrides.homedir ?? '/home/me',
    isExecutable: (path) => existing.has(path),
    ...(overrides.managedChromium !== undefined ? { managedChromium: overrides.managedChromium } : {}),
    ...(overrides.systemRoot !== undefined ? { systemRoot: overrides.systemRoot } : {}),
  };
}

const system = (path: string) => ({ kind: 'found', path, source: 'system' });

describe('findBrowser', () => {
  it('prefers chromium, then the other names, in PATH order', () => {
    expect(findBrowser(inputs({ existing: ['/usr/bin/google-chrome', '/usr/bin/chromium'] }))).toEqual(
      system('/usr/bin/chromium'),
    );
    expect(
      findBrowser(inputs({ existing: ['/usr/bin/microsoft-edge', '/usr/local/bin/google-chrome-stable'] })),
    ).toEqual(system('/usr/local/bin/google-chrome-stable'));
  });

  it('honours BERTH_BROWSER as a path or a name on PATH, and says when it is missing', () => {
    const existing = ['/opt/brave/brave', '/usr/bin/brave-browser', '/usr/bin/chromium'];
    expect(findBrowser(inputs({ env: { PATH: '/usr/bin', BERTH_BROWSER: '/opt/brave/brave' }, existing }))).toEqual({
      kind: 'found',
      path: '/opt/brave/brave',
      source: 'BERTH_BROWSER',
    });
    expect(findBrowser(inputs({ env: { PATH: '/usr/bin', BERTH_BROWSER: 'brave-browser' }, existing }))).toEqual({
      kind: 'found',
      path: '/usr/bin/brave-browser',
      source: 'BERTH_BROWSER',
    });
    const missing = findBrowser(inputs({ env: { PATH: '/usr/bin', BERTH_BROWSER: '/nope/browser' }, existing }));
    expect(missing.kind).toBe('not-found');
    expect(missing.kind === 'not-found' && missing.message).toContain('BERTH_BROWSER');
  });

  it('looks in the macOS application folders', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findBrowser(inputs({ platform: 'darwin', env: { PATH: '/usr/bin' }, existing: [chrome] }))).toEqual(
      system(chrome),
    );
    const userChromium = '/Users/me/Applications/Chromium.app/Contents/MacOS/Chromium';
    expect(
      findBrowser(inputs({ platform: 'darwin', homedir: '/Users/me', env: { PATH: '' }, existing: [userChromium] })),
    ).toEqual(system(userChromium));
  });

  it('looks on the Windows PATH with PATHEXT and in the install folders', () => {
    const env = {
      Path: 'C:\\Tools',
      PATHEXT: '.COM;.EXE',
      LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local',
      PROGRAMFILES: 'C:\\Program Files',
    };
    expect(findBrowser(inputs({ platform: 'win32', env, existing: ['C:\\Tools\\msedge.exe'] }))).toEqual(
      system('C:\\Tools\\msedge.exe'),
    );
    const edge = 'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe';
    expect(findBrowser(inputs({ platform: 'win32', env, existing: [edge] }))).toEqual(system(edge));
  });

  it("prefers Playwright's own Chromium once installed, but not over BERTH_BROWSER", () => {
    const managed = '/home/me/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';
    const existing = ['/usr/bin/chromium', '/opt/brave/brave'];
    expect(findBrowser(inputs({ managedChromium: managed, existing: [...existing, managed] }))).toEqual({
      kind: 'found',
      path: managed,
      source: 'playwright',
    });
    // Not installed (yet): the system browser.
    expect(findBrowser(inputs({ managedChromium: managed, existing }))).toEqual(system('/usr/bin/chromium'));
    expect(
      findBrowser(
        inputs({
          env: { PATH: '/usr/bin', BERTH_BROWSER: '/opt/brave/brave' },
          managedChromium: managed,
          existing: [...existing, managed],
        }),
      ),
    ).toEqual({
      kind: 'found',
      path: '/opt/brave/brave',
      source: 'BERTH_BROWSER',
    });
  });

  it('finds Linux browsers at their install paths when PATH lacks them, under the given system root', () => {
    expect(findBrowser(inputs({ env: { PATH: '' }, existing: ['/opt/google/chrome/chrome'] }))).toEqual(
      system('/opt/google/chrome/chrome'),
    );
    expect(
      findBrowser(
        inputs({
          env: { PATH: '' },
          systemRoot: '/tmp/bare',
          existing: ['/tmp/bare/snap/bin/chromium', '/usr/bin/chromium'],
        }),
      ),
    ).toEqual(system('/tmp/bare/snap/bin/chromium'));
    expect(
      findBrowser(inputs({ env: { PATH: '' }, systemRoot: '/tmp/bare', existing: ['/usr/bin/chromium'] })).kind,
    ).toBe('not-found');
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
