#!/usr/bin/env node
// `npm start`: set up, build if needed, then run Berth in Electron when its
// binary is usable, else in browser mode. Arguments after `--` go to Berth
// (`npm start -- --headless --port 4000`). stdout is left to Berth alone (its
// ready line); set-up and build output goes to stderr.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const forwardedArgs = process.argv.slice(2);

/** Everything the build reads; tests are left out since they do not change the output. */
const SOURCE_DIRS = ['app', 'shared', 'main', 'preload', 'renderer', 'resources'];
const SOURCE_FILES = [
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'vite.sandbox-proxy.config.ts',
  'tsconfig.base.json',
  'tsconfig.web.json',
  'tsconfig.node.json',
  'scripts/build-node.mjs',
];
const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;

const OUTPUTS = {
  electron: [
    'dist/main/index.cjs',
    'dist/preload/index.cjs',
    'dist/renderer/index.html',
    'dist/sandbox-proxy/index.html',
  ],
  browser: ['dist/app/browser-mode.mjs', 'dist/renderer/index.html', 'dist/sandbox-proxy/index.html'],
};

const say = (line) => process.stderr.write(`${line}\n`);

/** Runs a step with its output on stderr; exits with the step's code if it fails. */
function runStep(label, command, args) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: ['ignore', 2, 2],
    shell: command === 'npm' && process.platform === 'win32',
  });
  if (result.error) {
    say(`${label} could not run: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) {
    say(`${label} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

function npmCommand(args) {
  const execPath = process.env.npm_execpath;
  return execPath !== undefined && /\.(c|m)?js$/.test(execPath)
    ? [process.execPath, [execPath, ...args]]
    : ['npm', args];
}

/** The Electron binary, when `node_modules/electron/path.txt` names a file that exists. */
function electronBinary() {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

/** Which shell to run, and why not Electron when it is browser mode. */
function chooseShell() {
  if (forwardedArgs.includes('--headless')) return { shell: 'browser', why: '--headless asks for no window' };
  const binary = electronBinary();
  if (binary === undefined) return { shell: 'browser', why: 'the Electron binary is not installed' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { shell: 'browser', why: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  }
  return { shell: 'electron', binary };
}

function newestMtime(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return TEST_FILE.test(path) ? 0 : stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

function buildReason(outputs) {
  const missing = outputs.find((output) => !existsSync(join(root, output)));
  if (missing !== undefined) return `${missing} is missing`;
  const oldestOutput = Math.min(...outputs.map((output) => statSync(join(root, output)).mtimeMs));
  const newestSource = Math.max(...[...SOURCE_DIRS, ...SOURCE_FILES].map((source) => newestMtime(join(root, source))));
  return newestSource > oldestOutput ? 'sources changed since the last build' : undefined;
}

/** Runs Berth as a child, passes signals on, and exits with its code. */
function runChild(command, args, env) {
  const child = spawn(command, args, {
    cwd: root,
    env,
    stdio: 'inherit',
    // Its own process group on POSIX, so a terminal's Ctrl+C reaches it once (from us), not twice.
    detached: process.platform !== 'win32',
  });
  let lastSignalAt = 0;
  const forward = (signal) => {
    // npm and the terminal may both deliver one Ctrl+C; Berth treats a second signal as "force quit".
    const now = Date.now();
    if (now - lastSignalAt < 500) return;
    lastSignalAt = now;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => forward(signal));
  child.on('error', (error) => {
    say(`Could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 128 + (osConstants.signals[signal] ?? 0) : 1));
  });
}

runStep('Set-up', process.execPath, [join(root, 'scripts', 'setup.mjs')]);
const choice = chooseShell();
const reason = buildReason(OUTPUTS[choice.shell]);
if (reason !== undefined) {
  say(`Building Berth (${reason})…`);
  runStep('The build', ...npmCommand(['run', 'build']));
}

if (choice.shell === 'electron') {
  const env = { ...process.env };
  // Set, it would make Electron behave as plain Node and never open a window.
  delete env.ELECTRON_RUN_AS_NODE;
  // `electron <root>` makes app.getAppPath() the project root, as in the
  // packaged app, and package.json's "main" names dist/main/index.cjs.
  runChild(choice.binary, [root, ...forwardedArgs], env);
} else {
  say(`Berth is starting in browser mode (${choice.why}).`);
  runChild(process.execPath, [join(root, 'dist', 'app', 'browser-mode.mjs'), ...forwardedArgs], process.env);
}
