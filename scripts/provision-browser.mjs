#!/usr/bin/env node
// @ts-check
// Makes sure the end-to-end tests have a browser: `npm test` runs this right
// after scripts/setup.mjs, and `npm run test:e2e` before Playwright. The
// Playwright config then picks the same browser through the same lookup
// (app/cli/browser-lookup.mjs), so the decision is made in one place.
//
//   1. BERTH_BROWSER set: that browser or a clear stop; nothing is installed.
//   2. Playwright's own Chromium, when installed, or installable here
//      (`playwright install chromium`; it fails in seconds where its download
//      host is unreachable, and that failure is remembered for a week in
//      node_modules/.berth-browser-stamp so later runs stay cheap).
//   3. Chrome / Chromium / Edge already on the machine.
//   4. Linux, as root, with apt-get: Debian's chromium, with a one-line notice.
//   5. Otherwise: stop with one line saying what to install.
// Tests that open real windows (the browser-mode window test, Electron's
// specs) need a display on Linux: without DISPLAY, Xvfb is installed the same
// way, and so are the OS sandbox's bubblewrap, socat and ripgrep, and the CJK
// font (Debian's fonts-noto-cjk) the screenshots in Chinese, Korean and
// Japanese need to show real glyphs.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findBrowser, onPath, systemLookupInputs } from '../app/cli/browser-lookup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A failed `playwright install` is tried again after this long (or with another playwright-core). */
export const RETRY_INSTALL_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
/** A real download takes a minute or two; an unreachable host fails in seconds (or at the connection timeout). */
const PLAYWRIGHT_INSTALL_TIMEOUT_MS = 10 * 60 * 1000;
const PLAYWRIGHT_CONNECTION_TIMEOUT_MS = 15_000;
const APT_TIMEOUT_MS = 15 * 60 * 1000;

/**
 * Everything the decision reads from, or does to, the machine: injectable so
 * that a test can play a bare machine (empty PATH, a temp folder as its root,
 * a fake apt-get) on any machine.
 * @typedef {object} Machine
 * @property {import('../app/cli/browser-lookup.mjs').BrowserLookupInputs} lookup
 * @property {boolean} isRoot
 * @property {string | undefined} playwrightCli playwright-core's cli.js, when installed
 * @property {string | undefined} playwrightVersion
 * @property {string} stampFile
 * @property {() => number} now
 * @property {(command: string, args: string[], options: { timeoutMs: number, env?: Record<string, string> }) => Promise<RunResult>} run
 * @property {(line: string) => void} say
 */

/** @typedef {{ ok: boolean, output: string }} RunResult */

/**
 * @typedef {{ kind: 'ready', path: string, source: import('../app/cli/browser-lookup.mjs').BrowserSource }
 *   | { kind: 'stop', message: string }} Decision
 */

/**
 * @param {Machine} machine
 * @param {string} name
 * @returns {string | undefined}
 */
function findTool(machine, name) {
  const systemRoot = machine.lookup.systemRoot ?? '/';
  const candidates = [
    ...onPath(name, machine.lookup),
    ...['/usr/bin', '/bin', '/usr/sbin'].map((dir) => posix.join(systemRoot, dir, name)),
  ];
  return candidates.find((candidate) => machine.lookup.isExecutable(candidate));
}

/**
 * The last line of a tool's output worth showing: its error, not its progress bar.
 * @param {string} output
 */
function lastLine(output) {
  const lines = output
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^\s*at /.test(line));
  const error = lines.filter((line) => /error|fail|ENOTFOUND|EAI_AGAIN|ECONN|timed out/i.test(line)).at(0);
  return (error ?? lines.at(-1) ?? 'no output').slice(0, 200);
}

/**
 * @param {Machine} machine
 * @returns {{ playwrightVersion?: string, failedAt?: number, reason?: string }}
 */
function readStamp(machine) {
  try {
    return JSON.parse(readFileSync(machine.stampFile, 'utf8'));
  } catch {
    // Missing (never tried) or unreadable: either way, trying the download again is the safe answer.
    return {};
  }
}

/**
 * @param {Machine} machine
 * @param {object} stamp
 */
function writeStamp(machine, stamp) {
  mkdirSync(dirname(machine.stampFile), { recursive: true });
  writeFileSync(machine.stampFile, `${JSON.stringify(stamp, null, 2)}\n`);
}

/**
 * Whether `playwright install chromium` failed recently enough with this
 * playwright-core that trying again would only cost time.
 * @param {Machine} machine
 */
function installFailedRecently(machine) {
  const stamp = readStamp(machine);
  return (
    stamp.playwrightVersion === machine.playwrightVersion &&
    typeof stamp.failedAt === 'number' &&
    machine.now() - stamp.failedAt < RETRY_INSTALL_AFTER_MS
  );
}

/**
 * Tries Playwright's own Chromium download; true once it is installed.
 * @param {Machine} machine
 * @param {boolean} withDeps also install its system libraries (root with apt-get only)
 */
async function installPlaywrightChromium(machine, withDeps) {
  const cli = machine.playwrightCli;
  const managed = machine.lookup.managedChromium;
  if (cli === undefined || managed === undefined || installFailedRecently(machine)) return false;
  machine.say("Installing Playwright's Chromium for the end-to-end tests (playwright install chromium)…");
  const args = [cli, 'install', ...(withDeps ? ['--with-deps'] : []), '--no-shell', 'chromium'];
  const result = await machine.run(process.execPath, args, {
    timeoutMs: PLAYWRIGHT_INSTALL_TIMEOUT_MS,
    env: { PLAYWRIGHT_DOWNLOAD_CONNECTION_TIMEOUT: String(PLAYWRIGHT_CONNECTION_TIMEOUT_MS) },
  });
  if (result.ok && machine.lookup.isExecutable(managed)) {
    writeStamp(machine, { playwrightVersion: machine.playwrightVersion, installedAt: machine.now() });
    return true;
  }
  const reason = result.ok ? `it reported success but ${managed} is missing` : lastLine(result.output);
  writeStamp(machine, { playwrightVersion: machine.playwrightVersion, failedAt: machine.now(), reason });
  machine.say(
    `Playwright's Chromium could not be installed (${reason}); not trying again for a week. Looking for an installed browser instead.`,
  );
  return false;
}

/**
 * Runs apt-get update + install for `packages`, after one line saying so.
 * @param {Machine} machine
 * @param {string} aptGet
 * @param {string[]} packages
 * @param {string} why
 * @returns {Promise<string | undefined>} why it failed, or undefined
 */
async function aptInstall(machine, aptGet, packages, why) {
  machine.say(`Installing Debian's ${packages.join(', ')} ${why} (apt-get install ${packages.join(' ')})…`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const update = await machine.run(aptGet, ['update', '-qq'], { timeoutMs: APT_TIMEOUT_MS, env });
  if (!update.ok) return `apt-get update failed: ${lastLine(update.output)}`;
  const install = await machine.run(aptGet, ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
    timeoutMs: APT_TIMEOUT_MS,
    env,
  });
  return install.ok ? undefined : `apt-get install failed: ${lastLine(install.output)}`;
}

/**
 * What to install, in one line, for the platform.
 * @param {NodeJS.Platform} platform
 */
function whatToInstall(platform) {
  const install =
    platform === 'darwin'
      ? 'install Google Chrome (or `brew install --cask chromium`)'
      : platform === 'win32'
        ? 'install Google Chrome or Microsoft Edge'
        : "install Chromium (`sudo apt-get install chromium` on Debian, or your distribution's chromium package) or Google Chrome";
  return `No browser for the end-to-end tests: ${install}, or set BERTH_BROWSER to a Chromium-family browser, then run npm test again.`;
}

/**
 * Decides (and installs where it can) the browser the end-to-end tests run in.
 * @param {Machine} machine
 * @returns {Promise<Decision>}
 */
export async function provisionBrowser(machine) {
  const first = findBrowser(machine.lookup);
  if (machine.lookup.env.BERTH_BROWSER?.trim()) {
    return first.kind === 'found'
      ? { kind: 'ready', path: first.path, source: first.source }
      : { kind: 'stop', message: first.reason };
  }
  if (first.kind === 'found' && first.source === 'playwright')
    return { kind: 'ready', path: first.path, source: first.source };

  const linuxAptAsRoot =
    machine.lookup.platform === 'linux' && machine.isRoot ? findTool(machine, 'apt-get') : undefined;
  if (await installPlaywrightChromium(machine, linuxAptAsRoot !== undefined)) {
    return { kind: 'ready', path: /** @type {string} */ (machine.lookup.managedChromium), source: 'playwright' };
  }
  const installed = findBrowser(machine.lookup);
  if (installed.kind === 'found') return { kind: 'ready', path: installed.path, source: installed.source };

  if (linuxAptAsRoot === undefined) return { kind: 'stop', message: whatToInstall(machine.lookup.platform) };
  const failure = await aptInstall(
    machine,
    linuxAptAsRoot,
    ['chromium', 'fonts-dejavu-core'],
    'for the end-to-end tests',
  );
  if (failure !== undefined)
    return { kind: 'stop', message: `Could not install Chromium: ${failure}. ${whatToInstall('linux')}` };
  const afterApt = findBrowser(machine.lookup);
  return afterApt.kind === 'found'
    ? { kind: 'ready', path: afterApt.path, source: afterApt.source }
    : {
        kind: 'stop',
        message: `apt-get installed chromium, but no browser is at its usual path. ${whatToInstall('linux')}`,
      };
}

/**
 * Some tests open real windows (Berth's own browser window in
 * test/integration/browser-window-token.test.ts, Electron's specs): on Linux
 * without a display they run under Xvfb. Installs it as root with apt-get;
 * otherwise says what needs it. Never stops the run: the tests themselves
 * then fail (or, for Electron, skip) with the same advice.
 * @param {Machine} machine
 * @returns {Promise<void>}
 */
export async function provisionDisplay(machine) {
  const env = machine.lookup.env;
  if (
    machine.lookup.platform !== 'linux' ||
    env.DISPLAY ||
    env.WAYLAND_DISPLAY ||
    findTool(machine, 'Xvfb') !== undefined
  )
    return;
  const aptGet = machine.isRoot ? findTool(machine, 'apt-get') : undefined;
  const failure =
    aptGet === undefined
      ? 'apt-get is not available as root'
      : await aptInstall(machine, aptGet, ['xvfb', 'xauth'], 'for the tests that open real windows (no display)');
  if (failure !== undefined)
    machine.say(
      `The tests that open real windows need a display: install xvfb (${failure}); Electron's end-to-end tests will be skipped.`,
    );
}

/** What the OS sandbox of local servers needs on Linux (bubblewrap's command is `bwrap`, ripgrep's `rg`). */
const SANDBOX_TOOLS = [
  { tool: 'bwrap', pkg: 'bubblewrap' },
  { tool: 'socat', pkg: 'socat' },
  { tool: 'rg', pkg: 'ripgrep' },
];

/**
 * The OS sandbox of local servers (@anthropic-ai/sandbox-runtime) needs
 * bubblewrap, socat and ripgrep on Linux: installed as root with apt-get,
 * with a one-line notice; otherwise one line says what to install. Never
 * stops the run: the sandbox's tests then report themselves skipped with
 * the same reason.
 * @param {Machine} machine
 * @returns {Promise<void>}
 */
export async function provisionSandbox(machine) {
  if (machine.lookup.platform !== 'linux') return;
  const missing = SANDBOX_TOOLS.filter(({ tool }) => findTool(machine, tool) === undefined).map(({ pkg }) => pkg);
  if (missing.length === 0) return;
  const aptGet = machine.isRoot ? findTool(machine, 'apt-get') : undefined;
  const failure =
    aptGet === undefined
      ? 'apt-get is not available as root'
      : await aptInstall(machine, aptGet, missing, 'for the OS sandbox of local servers');
  if (failure !== undefined)
    machine.say(
      `The OS sandbox of local servers needs ${missing.join(', ')} (sudo apt-get install ${missing.join(' ')}; ${failure}); its tests will be skipped.`,
    );
}

/** The font family the CJK screenshots are meant to show (fontconfig's name for fonts-noto-cjk). */
const CJK_FONT_FAMILY = /Noto Sans CJK/;

/**
 * The interface in Chinese, Korean and Japanese (e2e/language.spec.ts, its screenshots) needs a CJK
 * font, or Chromium draws boxes or a bitmap fallback: Debian's fonts-noto-cjk, installed as root
 * with apt-get when fontconfig does not list it. Quiet when it is there; never stops the run.
 * @param {Machine} machine
 * @returns {Promise<void>}
 */
export async function provisionCjkFont(machine) {
  if (machine.lookup.platform !== 'linux') return;
  const fcList = findTool(machine, 'fc-list');
  if (fcList !== undefined) {
    const listed = await machine.run(fcList, [':lang=ko', 'family'], { timeoutMs: 60_000 });
    if (listed.ok && CJK_FONT_FAMILY.test(listed.output)) return;
  }
  const aptGet = machine.isRoot ? findTool(machine, 'apt-get') : undefined;
  const failure =
    aptGet === undefined
      ? 'apt-get is not available as root'
      : await aptInstall(machine, aptGet, ['fonts-noto-cjk'], 'for the interface in Chinese, Korean and Japanese');
  if (failure !== undefined)
    machine.say(
      `Screenshots in Chinese, Korean and Japanese need a CJK font: install fonts-noto-cjk (${failure}); they will show fallback glyphs.`,
    );
}

/**
 * Runs a command, output captured, with a time limit.
 * @param {string} command
 * @param {string[]} args
 * @param {{ timeoutMs: number, env?: Record<string, string> }} options
 * @param {NodeJS.ProcessEnv} baseEnv
 * @returns {Promise<RunResult>}
 */
function runCaptured(command, args, options, baseEnv) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { env: { ...baseEnv, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const append = (/** @type {Buffer} */ chunk) => {
      // Enough to explain a failure; a download's progress output is not kept.
      output = (output + chunk.toString('utf8')).slice(-64 * 1024);
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    const timer = setTimeout(() => {
      output += `\n${command} timed out after ${Math.round(options.timeoutMs / 1000)} s`;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, output: `${output}\nCould not run ${command}: ${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, output });
    });
  });
}

/** @returns {{ cli: string, version: string } | undefined} */
function playwrightCore() {
  const require = createRequire(import.meta.url);
  let manifest;
  try {
    manifest = require.resolve('playwright-core/package.json');
  } catch {
    return undefined;
  }
  return { cli: join(dirname(manifest), 'cli.js'), version: JSON.parse(readFileSync(manifest, 'utf8')).version };
}

/**
 * This machine; `overrides` let a test swap in a simulated one.
 * @param {Omit<Partial<Machine>, 'lookup'> & { lookup?: Partial<import('../app/cli/browser-lookup.mjs').BrowserLookupInputs> }} [overrides]
 * @returns {Machine}
 */
export function systemMachine(overrides = {}) {
  const playwright = playwrightCore();
  const lookup = { ...systemLookupInputs(), ...overrides.lookup };
  return {
    isRoot: process.getuid?.() === 0,
    playwrightCli: playwright?.cli,
    playwrightVersion: playwright?.version,
    stampFile: join(root, 'node_modules', '.berth-browser-stamp'),
    now: () => Date.now(),
    run: (command, args, options) => runCaptured(command, args, options, lookup.env),
    say: (line) => process.stderr.write(`${line}\n`),
    ...overrides,
    lookup,
  };
}

async function main() {
  const machine = systemMachine();
  const decision = await provisionBrowser(machine);
  if (decision.kind === 'stop') {
    machine.say(decision.message);
    return 1;
  }
  machine.say(
    `End-to-end tests use ${decision.path} (${decision.source === 'system' ? 'installed on this machine' : decision.source}).`,
  );
  await provisionDisplay(machine);
  await provisionSandbox(machine);
  await provisionCjkFont(machine);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
