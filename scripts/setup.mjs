#!/usr/bin/env node
// Installs dependencies, once per package-lock.json. Plain Node with no
// dependencies: it runs before node_modules exists.
//
// - Fast path: node_modules/.berth-setup-stamp holds the lockfile's sha256 → nothing to do.
// - `npm ci` (or `npm install` without a lockfile), --no-audit --no-fund.
// - If that fails and ELECTRON_SKIP_BINARY_DOWNLOAD is unset, Electron's
//   binary download is the usual culprit (it comes from a host that is often
//   unreachable): retry once without it; `npm start` then uses browser mode.
// - Exits non-zero, with npm's output shown, when the install cannot be done.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lockFile = join(root, 'package-lock.json');
const stampFile = join(root, 'node_modules', '.berth-setup-stamp');
const FALLBACK_NOTICE =
  "Electron's binary could not be downloaded; continuing with ELECTRON_SKIP_BINARY_DOWNLOAD=1 — Berth will run in browser mode.";
const ELECTRON_DOWNLOAD_TIMEOUT_MS = 120_000;

function lockHash() {
  return existsSync(lockFile) ? createHash('sha256').update(readFileSync(lockFile)).digest('hex') : undefined;
}

function readStamp() {
  try {
    // First line: the lockfile hash; later lines are notes (e.g. electron=unavailable).
    return readFileSync(stampFile, 'utf8').split('\n')[0].trim();
  } catch {
    return undefined;
  }
}

/**
 * Runs npm. Under `npm run`/`npm start`, npm_execpath names npm's own CLI, so
 * the same npm runs again without a shell (and without Windows' npm.cmd).
 */
function npm(args, { env, capture }) {
  const execPath = process.env.npm_execpath;
  const viaNode = execPath !== undefined && /\.(c|m)?js$/.test(execPath);
  const command = viaNode ? process.execPath : 'npm';
  const fullArgs = viaNode ? [execPath, ...args] : args;
  const result = spawnSync(command, fullArgs, {
    cwd: root,
    env,
    // stdout → our stderr: `npm start` keeps stdout for Berth's ready line.
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 2, 2],
    shell: !viaNode && process.platform === 'win32',
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  if (result.error) {
    return { ok: false, output: `Could not run npm: ${result.error.message}\n` };
  }
  return {
    ok: result.status === 0,
    status: result.status ?? 1,
    output: capture ? `${result.stdout ?? ''}${result.stderr ?? ''}` : '',
  };
}

function main() {
  const before = lockHash();
  if (before !== undefined && readStamp() === before) return 0;

  const args = [before !== undefined ? 'ci' : 'install', '--no-audit', '--no-fund'];
  const skipAlreadySet = Boolean(process.env.ELECTRON_SKIP_BINARY_DOWNLOAD);
  process.stderr.write(`Installing dependencies (npm ${args.join(' ')})…\n`);

  // The first attempt is captured so that a failed Electron download does not
  // bury the one line that explains the fallback.
  const first = npm(args, { env: process.env, capture: !skipAlreadySet });
  if (!first.ok) {
    if (skipAlreadySet) {
      process.stderr.write(first.output);
      process.stderr.write(`npm ${args[0]} failed (exit ${first.status ?? 1}).\n`);
      return first.status ?? 1;
    }
    process.stderr.write(`${FALLBACK_NOTICE}\n`);
    const retry = npm(args, { env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }, capture: false });
    if (!retry.ok) {
      process.stderr.write(`\nThe first attempt's output was:\n${first.output}`);
      process.stderr.write(
        `npm ${args[0]} failed even without Electron's binary (exit ${retry.status ?? 1}); see the output above.\n`,
      );
      return retry.status ?? 1;
    }
  } else {
    process.stderr.write(first.output);
  }

  const electron = ensureElectronBinary();

  // `npm install` may have written or updated the lockfile: stamp what is there now.
  const after = lockHash();
  if (after !== undefined) {
    mkdirSync(dirname(stampFile), { recursive: true });
    writeFileSync(stampFile, `${after}\nelectron=${electron}\n`);
  }
  return 0;
}

/**
 * Electron (since v38 or so) has no postinstall: its binary is fetched by
 * node_modules/electron/install.js on first use. Fetch it here, once, so that
 * `npm start` knows which shell it has; where the download host is not
 * reachable, fall back to browser mode with one line of notice.
 */
function ensureElectronBinary() {
  const electronDir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(electronDir, 'package.json'))) return 'absent';
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return 'skipped';
  const pathFile = join(electronDir, 'path.txt');
  if (existsSync(pathFile) && existsSync(join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim())))
    return 'available';
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: ELECTRON_DOWNLOAD_TIMEOUT_MS,
    encoding: 'utf8',
  });
  if (result.status === 0 && existsSync(pathFile)) return 'available';
  process.stderr.write(`${FALLBACK_NOTICE}\n`);
  return 'unavailable';
}

process.exitCode = main();
