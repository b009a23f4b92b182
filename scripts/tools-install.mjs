// @ts-check
// A tools/<name> package (its own package.json and lockfile, kept out of
// Berth's node_modules) installed once per lockfile: `npm ci` there, then a
// stamp holding the lockfile's sha256. Shared by scripts/conformance.mjs and
// scripts/test-runtimes.mjs. Plain Node with no dependencies.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * npm itself: the one running `npm run` (npm_execpath, without a shell or
 * Windows' npm.cmd), else `npm` from PATH. Output goes to stderr.
 * @param {string[]} npmArgs
 * @param {string} cwd
 */
export function runNpm(npmArgs, cwd) {
  const execPath = process.env.npm_execpath;
  const viaNode = execPath !== undefined && /\.(c|m)?js$/.test(execPath);
  return spawnSync(viaNode ? process.execPath : 'npm', viaNode ? [execPath, ...npmArgs] : npmArgs, {
    cwd,
    stdio: ['ignore', 2, 2],
    shell: !viaNode && process.platform === 'win32',
  });
}

/**
 * Installs `toolsDir` unless its stamp matches its lockfile. Returns undefined
 * when it is installed, else why not in words.
 * @param {string} toolsDir
 * @param {string} announce what is said before installing
 * @returns {string | undefined}
 */
export function installToolsOnce(toolsDir, announce) {
  const stampFile = join(toolsDir, 'node_modules', '.berth-setup-stamp');
  const hash = createHash('sha256')
    .update(readFileSync(join(toolsDir, 'package-lock.json')))
    .digest('hex');
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : undefined;
  if (stamp === hash) return undefined;
  process.stderr.write(`${announce}\n`);
  const result = runNpm(['ci', '--no-audit', '--no-fund'], toolsDir);
  if (result.status !== 0) return `npm ci in ${toolsDir} failed (exit ${result.status ?? result.error?.message})`;
  writeFileSync(stampFile, `${hash}\n`);
  return undefined;
}
