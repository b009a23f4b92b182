import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserLookupInputs } from '../app/cli/browser-lookup.mjs';
import {
  provisionBrowser,
  provisionDisplay,
  provisionCjkFont,
  provisionSandbox,
  RETRY_INSTALL_AFTER_MS,
  systemMachine,
  type Machine,
} from './provision-browser.mjs';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'provision-browser.mjs');
const MANAGED = '/home/me/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';
const PLAYWRIGHT_CLI = '/repo/node_modules/playwright-core/cli.js';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Where the simulated machine keeps fonts-noto-cjk once installed (what fc-list then lists). */
const NOTO_CJK = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';

interface Simulated {
  machine: Machine;
  /** Every command run, as one string each. */
  ran: string[];
  said: string[];
  files: Set<string>;
}

/**
 * A machine in memory: `files` are the executables that exist; apt-get
 * "installs" chromium and Xvfb at their Debian paths; `playwright install`
 * succeeds only when `playwrightReachable`.
 */
function simulate(options: {
  platform?: NodeJS.Platform;
  env?: Record<string, string>;
  files?: string[];
  isRoot?: boolean;
  playwrightReachable?: boolean;
  aptWorks?: boolean;
  stampFile: string;
  now?: number;
}): Simulated {
  const files = new Set(options.files ?? []);
  const ran: string[] = [];
  const said: string[] = [];
  const lookup: BrowserLookupInputs = {
    env: options.env ?? { PATH: '/usr/local/bin:/usr/bin' },
    platform: options.platform ?? 'linux',
    homedir: '/home/me',
    isExecutable: (path) => files.has(path),
    managedChromium: MANAGED,
  };
  const machine: Machine = {
    lookup,
    isRoot: options.isRoot ?? false,
    playwrightCli: PLAYWRIGHT_CLI,
    playwrightVersion: '1.65.1',
    stampFile: options.stampFile,
    now: () => options.now ?? Date.parse('2026-11-25T12:00:00Z'),
    say: (line) => said.push(line),
    run: async (command, args) => {
      ran.push([command === process.execPath ? 'node' : command, ...args].join(' '));
      if (args[0] === PLAYWRIGHT_CLI) {
        if (!options.playwrightReachable)
          return {
            ok: false,
            output:
              'Downloading Chrome for Testing…\nError: getaddrinfo ENOTFOUND cdn.playwright.dev\n    at GetAddrInfoReqWrap',
          };
        files.add(MANAGED);
        return { ok: true, output: '' };
      }
      if (options.aptWorks === false) return { ok: false, output: 'E: Unable to locate package chromium' };
      if (args[0] === 'install' && args.includes('chromium')) files.add('/usr/bin/chromium');
      if (args[0] === 'install' && args.includes('xvfb')) files.add('/usr/bin/Xvfb');
      if (args[0] === 'install' && args.includes('bubblewrap')) files.add('/usr/bin/bwrap');
      if (args[0] === 'install' && args.includes('fonts-noto-cjk')) files.add(NOTO_CJK);
      if (command.endsWith('/fc-list'))
        return { ok: true, output: files.has(NOTO_CJK) ? 'Noto Sans CJK KR,Noto Sans CJK KR Regular\n' : 'Unifont\n' };
      return { ok: true, output: '' };
    },
  };
  return { machine, ran, said, files };
}

let dir: string;
let stampFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'berth-provision-'));
  stampFile = join(dir, 'stamp.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const PLAYWRIGHT_INSTALL = `node ${PLAYWRIGHT_CLI} install --no-shell chromium`;
const PLAYWRIGHT_INSTALL_WITH_DEPS = `node ${PLAYWRIGHT_CLI} install --with-deps --no-shell chromium`;

describe('provisionBrowser on a bare Linux machine (root, apt-get, no browser)', () => {
  const bare = () => simulate({ isRoot: true, files: ['/usr/bin/apt-get'], stampFile });

  it("tries Playwright's Chromium, then installs Debian's chromium with one notice and uses it", async () => {
    const { machine, ran, said } = bare();
    await expect(provisionBrowser(machine)).resolves.toEqual({
      kind: 'ready',
      path: '/usr/bin/chromium',
      source: 'system',
    });
    expect(ran).toEqual([
      PLAYWRIGHT_INSTALL_WITH_DEPS,
      '/usr/bin/apt-get update -qq',
      '/usr/bin/apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core',
    ]);
    expect(said.filter((line) => line.includes('apt-get install chromium'))).toHaveLength(1);
    expect(said.join('\n')).toContain('ENOTFOUND cdn.playwright.dev');
  });

  it('remembers that the download host is unreachable, and tries again after a week or with another Playwright', async () => {
    const first = bare();
    await provisionBrowser(first.machine);
    expect(JSON.parse(readFileSync(stampFile, 'utf8'))).toMatchObject({
      playwrightVersion: '1.65.1',
      reason: expect.stringContaining('ENOTFOUND'),
    });

    // The next run: chromium is installed now, and Playwright is not asked again.
    const next = simulate({
      isRoot: true,
      files: ['/usr/bin/apt-get', '/usr/bin/chromium'],
      stampFile,
      now: Date.parse('2026-11-26T12:00:00Z'),
    });
    await expect(provisionBrowser(next.machine)).resolves.toMatchObject({ kind: 'ready', path: '/usr/bin/chromium' });
    expect(next.ran).toEqual([]);
    expect(next.said).toEqual([]);

    const later = simulate({
      isRoot: true,
      files: ['/usr/bin/apt-get', '/usr/bin/chromium'],
      stampFile,
      now: Date.parse('2026-11-25T12:00:00Z') + RETRY_INSTALL_AFTER_MS + DAY_MS,
    });
    await provisionBrowser(later.machine);
    expect(later.ran).toEqual([PLAYWRIGHT_INSTALL_WITH_DEPS]);

    const upgraded = simulate({ isRoot: true, files: ['/usr/bin/apt-get', '/usr/bin/chromium'], stampFile });
    writeFileSync(
      stampFile,
      JSON.stringify({ playwrightVersion: '1.64.0', failedAt: upgraded.machine.now(), reason: 'x' }),
    );
    await provisionBrowser(upgraded.machine);
    expect(upgraded.ran).toEqual([PLAYWRIGHT_INSTALL_WITH_DEPS]);
  });

  it("uses Playwright's Chromium when it can be downloaded, and installs nothing else", async () => {
    const { machine, ran } = simulate({
      isRoot: true,
      files: ['/usr/bin/apt-get'],
      playwrightReachable: true,
      stampFile,
    });
    await expect(provisionBrowser(machine)).resolves.toEqual({ kind: 'ready', path: MANAGED, source: 'playwright' });
    expect(ran).toEqual([PLAYWRIGHT_INSTALL_WITH_DEPS]);
    expect(JSON.parse(readFileSync(stampFile, 'utf8'))).not.toHaveProperty('failedAt');
  });

  it('stops with the reason and what to install when apt-get fails', async () => {
    const { machine } = simulate({ isRoot: true, files: ['/usr/bin/apt-get'], aptWorks: false, stampFile });
    const decision = await provisionBrowser(machine);
    expect(decision.kind).toBe('stop');
    expect(decision.kind === 'stop' && decision.message).toMatch(
      /apt-get update failed: E: Unable to locate package chromium.*install Chromium/,
    );
  });
});

describe('provisionBrowser elsewhere', () => {
  it('is cheap when a browser is found: no command runs, nothing is said', async () => {
    const managed = simulate({ files: [MANAGED, '/usr/bin/chromium'], stampFile });
    await expect(provisionBrowser(managed.machine)).resolves.toEqual({
      kind: 'ready',
      path: MANAGED,
      source: 'playwright',
    });
    expect([...managed.ran, ...managed.said]).toEqual([]);

    writeFileSync(
      stampFile,
      JSON.stringify({ playwrightVersion: '1.65.1', failedAt: Date.parse('2026-11-24T12:00:00Z') }),
    );
    const system = simulate({ files: ['/usr/bin/chromium'], stampFile });
    await expect(provisionBrowser(system.machine)).resolves.toEqual({
      kind: 'ready',
      path: '/usr/bin/chromium',
      source: 'system',
    });
    expect([...system.ran, ...system.said]).toEqual([]);
  });

  it('takes BERTH_BROWSER as it is and installs nothing, even when it is missing', async () => {
    const env = { PATH: '/usr/bin', BERTH_BROWSER: '/opt/brave/brave' };
    const set = simulate({ env, isRoot: true, files: ['/opt/brave/brave', '/usr/bin/apt-get'], stampFile });
    await expect(provisionBrowser(set.machine)).resolves.toEqual({
      kind: 'ready',
      path: '/opt/brave/brave',
      source: 'BERTH_BROWSER',
    });
    const missing = simulate({ env, isRoot: true, files: ['/usr/bin/apt-get', '/usr/bin/chromium'], stampFile });
    await expect(provisionBrowser(missing.machine)).resolves.toEqual({
      kind: 'stop',
      message: expect.stringContaining('BERTH_BROWSER is set to "/opt/brave/brave"'),
    });
    expect([...set.ran, ...missing.ran]).toEqual([]);
  });

  it('as a user on Linux, stops with one line saying what to install (never sudo)', async () => {
    const { machine, ran } = simulate({ files: ['/usr/bin/apt-get'], stampFile });
    const decision = await provisionBrowser(machine);
    expect(ran).toEqual([PLAYWRIGHT_INSTALL]);
    expect(decision).toEqual({ kind: 'stop', message: expect.stringContaining('sudo apt-get install chromium') });
    expect(decision.kind === 'stop' && decision.message.split('\n')).toHaveLength(1);
  });

  it('on a Mac uses Chrome from /Applications when Playwright cannot download, and says what to install without one', async () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    const withChrome = simulate({ platform: 'darwin', env: { PATH: '/usr/bin:/bin' }, files: [chrome], stampFile });
    await expect(provisionBrowser(withChrome.machine)).resolves.toEqual({
      kind: 'ready',
      path: chrome,
      source: 'system',
    });
    rmSync(stampFile);
    const without = simulate({ platform: 'darwin', env: { PATH: '/usr/bin:/bin' }, isRoot: true, stampFile });
    await expect(provisionBrowser(without.machine)).resolves.toEqual({
      kind: 'stop',
      message: expect.stringContaining('install Google Chrome'),
    });
    expect(without.ran).toEqual([PLAYWRIGHT_INSTALL]);
  });

  it('on Windows without a browser, names Chrome or Edge', async () => {
    const { machine } = simulate({ platform: 'win32', env: { Path: 'C:\\Windows' }, stampFile });
    await expect(provisionBrowser(machine)).resolves.toEqual({
      kind: 'stop',
      message: expect.stringContaining('Google Chrome or Microsoft Edge'),
    });
  });
});

describe('provisionDisplay (for the tests that open real windows)', () => {
  it('installs Xvfb as root with apt-get when Linux has no display, and does nothing with one', async () => {
    const bare = simulate({ env: { PATH: '/usr/bin' }, isRoot: true, files: ['/usr/bin/apt-get'], stampFile });
    await provisionDisplay(bare.machine);
    expect(bare.ran).toEqual([
      '/usr/bin/apt-get update -qq',
      '/usr/bin/apt-get install -y -qq --no-install-recommends xvfb xauth',
    ]);
    expect(bare.files.has('/usr/bin/Xvfb')).toBe(true);

    const desktop = simulate({
      env: { PATH: '/usr/bin', DISPLAY: ':0' },
      isRoot: true,
      files: ['/usr/bin/apt-get'],
      stampFile,
    });
    await provisionDisplay(desktop.machine);
    expect(desktop.ran).toEqual([]);
  });

  it('as a user, says what needs a display and that the Electron specs will be skipped', async () => {
    const { machine, ran, said } = simulate({ env: { PATH: '/usr/bin' }, files: ['/usr/bin/apt-get'], stampFile });
    await provisionDisplay(machine);
    expect(ran).toEqual([]);
    expect(said).toEqual([
      expect.stringMatching(/need a display: install xvfb .*Electron's end-to-end tests will be skipped/),
    ]);
  });
});

describe('provisionCjkFont (for the interface in Chinese, Korean and Japanese)', () => {
  it('installs fonts-noto-cjk as root when fontconfig does not list it, and is quiet once it is there', async () => {
    const bare = simulate({
      env: { PATH: '/usr/bin' },
      isRoot: true,
      files: ['/usr/bin/apt-get', '/usr/bin/fc-list'],
      stampFile,
    });
    await provisionCjkFont(bare.machine);
    expect(bare.ran).toEqual([
      '/usr/bin/fc-list :lang=ko family',
      '/usr/bin/apt-get update -qq',
      '/usr/bin/apt-get install -y -qq --no-install-recommends fonts-noto-cjk',
    ]);
    expect(bare.said).toEqual([
      expect.stringMatching(/^Installing Debian's fonts-noto-cjk for the interface in Chinese/),
    ]);

    bare.ran.length = 0;
    bare.said.length = 0;
    await provisionCjkFont(bare.machine);
    expect(bare.ran).toEqual(['/usr/bin/fc-list :lang=ko family']);
    expect(bare.said).toEqual([]);
  });

  it('as a user, says what to install and goes on; off Linux, does nothing', async () => {
    const user = simulate({ env: { PATH: '/usr/bin' }, files: ['/usr/bin/apt-get', '/usr/bin/fc-list'], stampFile });
    await provisionCjkFont(user.machine);
    expect(user.ran).toEqual(['/usr/bin/fc-list :lang=ko family']);
    expect(user.said).toEqual([expect.stringMatching(/need a CJK font: install fonts-noto-cjk/)]);

    const mac = simulate({
      platform: 'darwin',
      env: { PATH: '/usr/bin' },
      isRoot: true,
      files: ['/usr/bin/apt-get'],
      stampFile,
    });
    await provisionCjkFont(mac.machine);
    expect(mac.ran).toEqual([]);
  });
});

describe('provisionSandbox (for the OS sandbox of local servers)', () => {
  it('installs what is missing of bubblewrap, socat and ripgrep as root, and nothing when all are there', async () => {
    const bare = simulate({
      env: { PATH: '/usr/bin' },
      isRoot: true,
      files: ['/usr/bin/apt-get', '/usr/bin/rg'],
      stampFile,
    });
    await provisionSandbox(bare.machine);
    expect(bare.ran).toEqual([
      '/usr/bin/apt-get update -qq',
      '/usr/bin/apt-get install -y -qq --no-install-recommends bubblewrap socat',
    ]);
    expect(bare.said).toEqual([expect.stringMatching(/^Installing Debian's bubblewrap, socat for the OS sandbox/)]);

    const ready = simulate({
      env: { PATH: '/usr/bin' },
      isRoot: true,
      files: ['/usr/bin/apt-get', '/usr/bin/bwrap', '/usr/bin/socat', '/usr/bin/rg'],
      stampFile,
    });
    await provisionSandbox(ready.machine);
    expect(ready.ran).toEqual([]);
  });

  it('as a user, or off Linux, installs nothing; a user is told what to install and that its tests will be skipped', async () => {
    const user = simulate({ env: { PATH: '/usr/bin' }, files: ['/usr/bin/apt-get'], stampFile });
    await provisionSandbox(user.machine);
    expect(user.ran).toEqual([]);
    expect(user.said).toEqual([
      expect.stringMatching(
        /needs bubblewrap, socat, ripgrep \(sudo apt-get install bubblewrap socat ripgrep; .*its tests will be skipped/,
      ),
    ]);
    const mac = simulate({
      platform: 'darwin',
      env: { PATH: '/usr/bin' },
      isRoot: true,
      files: ['/usr/bin/apt-get'],
      stampFile,
    });
    await provisionSandbox(mac.machine);
    expect([...mac.ran, ...mac.said]).toEqual([]);
  });
});

/** Writes an executable Node script (absolute shebang: the simulated PATH is empty). */
function writeNodeScript(path: string, body: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!${process.execPath}\n${body}\n`);
  chmodSync(path, 0o755);
}

describe.skipIf(process.platform === 'win32')(
  'the provisioning step on a simulated bare machine (real files and processes)',
  () => {
    it('with an empty PATH and a temp root, records what it asks apt-get for, and the second run does nothing', async () => {
      const root = join(dir, 'root');
      const aptLog = join(dir, 'apt.log');
      const playwrightLog = join(dir, 'playwright.log');
      // apt-get: records its arguments; `install … chromium` puts a browser where Debian does.
      writeNodeScript(
        join(root, 'usr/bin/apt-get'),
        `const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify(aptLog)}, process.argv.slice(2).join(' ') + '\\n');
if (process.argv[2] === 'install' && process.argv.includes('chromium')) {
  fs.writeFileSync(${JSON.stringify(join(root, 'usr/bin/chromium'))}, '#!/bin/sh\\n', { mode: 0o755 });
}`,
      );
      // Playwright's installer where its download host is unreachable.
      writeNodeScript(
        join(dir, 'playwright-cli.cjs'),
        `require('node:fs').appendFileSync(${JSON.stringify(playwrightLog)}, process.argv.slice(2).join(' ') + '\\n');
console.error('Error: getaddrinfo ENOTFOUND cdn.playwright.dev');
process.exit(1);`,
      );
      const said: string[] = [];
      const bareMachine = () =>
        systemMachine({
          lookup: {
            env: { PATH: '' },
            platform: 'linux',
            homedir: join(root, 'root'),
            systemRoot: root,
            managedChromium: join(root, 'root/.cache/ms-playwright/chromium/chrome'),
          },
          isRoot: true,
          playwrightCli: join(dir, 'playwright-cli.cjs'),
          stampFile: join(root, 'node_modules/.berth-browser-stamp'),
          say: (line) => said.push(line),
        });

      await expect(provisionBrowser(bareMachine())).resolves.toEqual({
        kind: 'ready',
        path: join(root, 'usr/bin/chromium'),
        source: 'system',
      });
      expect(readFileSync(playwrightLog, 'utf8')).toBe('install --with-deps --no-shell chromium\n');
      expect(readFileSync(aptLog, 'utf8')).toBe(
        'update -qq\ninstall -y -qq --no-install-recommends chromium fonts-dejavu-core\n',
      );
      expect(said).toEqual([
        expect.stringContaining("Installing Playwright's Chromium"),
        expect.stringMatching(/could not be installed \(Error: getaddrinfo ENOTFOUND cdn\.playwright\.dev\)/),
        expect.stringContaining("Installing Debian's chromium"),
      ]);

      said.length = 0;
      await expect(provisionBrowser(bareMachine())).resolves.toMatchObject({
        kind: 'ready',
        path: join(root, 'usr/bin/chromium'),
      });
      expect(said).toEqual([]);
      expect(readFileSync(playwrightLog, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
      expect(readFileSync(aptLog, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    });
  },
);

describe('scripts/provision-browser.mjs (the command npm test runs)', () => {
  const run = promisify(execFile);

  it('says which browser it chose, and stops with one line and exit 1 when BERTH_BROWSER names nothing', async () => {
    const fake = join(dir, 'my-browser');
    writeNodeScript(fake, '');
    const ok = await run(process.execPath, [SCRIPT], { env: { ...process.env, BERTH_BROWSER: fake } });
    expect(ok.stderr).toContain(`End-to-end tests use ${fake} (BERTH_BROWSER).`);

    const missing = join(dir, 'nothing-here');
    const failed = await run(process.execPath, [SCRIPT], { env: { ...process.env, BERTH_BROWSER: missing } }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr.trim()).toBe(`BERTH_BROWSER is set to "${missing}", but no such program exists`);
    expect(existsSync(missing)).toBe(false);
  });
});

describe('the README test command', () => {
  const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
  const scripts = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;

  it('provisions the browser right after installing dependencies, and again before the e2e suite', () => {
    const steps = scripts.test!.split(' && ');
    expect(steps.slice(0, 2)).toEqual(['node scripts/setup.mjs', 'node scripts/provision-browser.mjs']);
    expect(steps.at(-1)).toBe('npm run test:e2e');
    expect(scripts['test:e2e']).toBe('node scripts/provision-browser.mjs && playwright test');
  });

  it('is what CI runs, with no browser installed for it beforehand', () => {
    const ci = readFileSync(join(repo, '.ci', 'run'), 'utf8');
    const commands = ci.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
    expect(commands).toEqual(['set -euo pipefail', 'cd "$(dirname "$0")/.."', 'npm test']);
  });
});
