#!/usr/bin/env node
// @ts-check
// The package check `npm test` runs: `npm run dist -- --dir` into a temp
// folder, then a look inside the app.asar it made. Where node_modules/electron
// has its binary, that distribution is packaged for this platform and the
// afterPack hook burns the fuses; elsewhere a stub Electron distribution (a
// Linux layout with a fake `electron`) stands in, everything up to Electron is
// still exercised, and the fuses are skipped with a notice.
//
// app.asar must hold the main entry package.json names, the preload and the
// renderer, and no node_modules, source maps, tests or test fixtures, or
// browser mode; and it must stay within SIZE_BUDGET_BYTES.
//
// Usage: node scripts/check-package.mjs [--keep] (--keep leaves the temp folder and prints it)
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { electronFuses, fuseSettings } from './after-pack.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * app.asar is ~10 MiB (main bundle, preload, renderer): it grew from ~5 MiB with MCP Bundles, whose
 * manifest and signature checks (@anthropic-ai/mcpb with its zod 3 schemas and node-forge) are
 * bundled into main and loaded when a bundle is opened, and past 10 MiB with the renderer's message
 * catalogs in five languages (one chunk per locale, issue 36) and the chat's context, caching and
 * reasoning code (issue 32). The pseudo-locale's catalog (a test language, ~0.4 MiB) is left out
 * (electron-builder.yml). A jump past this means something slipped in.
 */
export const SIZE_BUDGET_BYTES = 11 * 1024 * 1024;

/** Paths in the package that are development-only: tests, fixtures, sources of maps, browser mode. */
const FORBIDDEN = [
  {
    test: (/** @type {string} */ path) => path.split('/').includes('node_modules'),
    why: 'node_modules (everything is bundled into dist/)',
  },
  { test: (/** @type {string} */ path) => path.endsWith('.map'), why: 'a source map (it embeds the sources)' },
  {
    test: (/** @type {string} */ path) =>
      /(^|\/)(e2e|test|tests|__tests__|fixtures|test-fixtures)(\/|$)/.test(path) ||
      /\.(test|spec)\.[cm]?[jt]sx?$/.test(path),
    why: 'a test or test fixture',
  },
  {
    test: (/** @type {string} */ path) => path.startsWith('dist/app/'),
    why: 'browser mode (not part of the desktop app)',
  },
  {
    test: (/** @type {string} */ path) => /(^|\/)_berth-catalog_pseudo-[^/]*\.js$/.test(path),
    why: 'the pseudo-locale (a test language, never offered to a person)',
  },
  {
    test: (/** @type {string} */ path) => /\.(ts|tsx)$/.test(path) && !path.endsWith('.d.ts'),
    why: 'TypeScript source',
  },
];

/** @returns {typeof import('@electron/asar')} */
function asarModule() {
  // @electron/asar comes with electron-builder (app-builder-lib depends on it): use that copy.
  const fromBuilder = createRequire(createRequire(import.meta.url).resolve('app-builder-lib/package.json'));
  return fromBuilder('@electron/asar');
}

/**
 * Every file (not folder) in an asar archive, without the leading slash, with its size.
 * @param {string} archive
 * @returns {Map<string, number>}
 */
export function asarFiles(archive) {
  /** @type {Map<string, number>} */
  const files = new Map();
  /**
   * @param {Record<string, unknown>} entries
   * @param {string} prefix
   */
  const walk = (entries, prefix) => {
    for (const [name, entry] of Object.entries(entries)) {
      const path = prefix === '' ? name : `${prefix}/${name}`;
      const node = /** @type {{ files?: Record<string, unknown>, size?: number }} */ (entry);
      if (node.files !== undefined) walk(node.files, path);
      else files.set(path, Number(node.size ?? 0));
    }
  };
  walk(/** @type {{ files: Record<string, unknown> }} */ (asarModule().getRawHeader(archive).header).files, '');
  return files;
}

/**
 * What is wrong with a packaged app.asar; an empty list when nothing is.
 * @param {string} archive
 * @param {{ budgetBytes?: number }} [options]
 * @returns {{ problems: string[], files: number, bytes: number, main: string | undefined }}
 */
export function checkAsar(archive, options = {}) {
  const budget = options.budgetBytes ?? SIZE_BUDGET_BYTES;
  const files = asarFiles(archive);
  const problems = [];

  /** @type {string | undefined} */
  let main;
  if (!files.has('package.json')) {
    problems.push('package.json is missing');
  } else {
    const manifest = JSON.parse(asarModule().extractFile(archive, 'package.json').toString('utf8'));
    main = typeof manifest.main === 'string' ? posix.normalize(manifest.main).replace(/^\.\//, '') : undefined;
    if (main === undefined) problems.push('package.json names no main entry');
    else if (!files.has(main)) problems.push(`the main entry package.json names (${main}) is missing`);
  }
  if (!files.has('dist/preload/index.cjs')) problems.push('the preload (dist/preload/index.cjs) is missing');
  if (!files.has('dist/renderer/index.html')) problems.push('the renderer (dist/renderer/index.html) is missing');
  else if (![...files.keys()].some((path) => path.startsWith('dist/renderer/assets/') && path.endsWith('.js'))) {
    problems.push("the renderer's scripts (dist/renderer/assets/*.js) are missing");
  }

  for (const { test, why } of FORBIDDEN) {
    const hits = [...files.keys()].filter(test);
    if (hits.length > 0)
      problems.push(`${why}: ${hits.slice(0, 3).join(', ')}${hits.length > 3 ? ` and ${hits.length - 3} more` : ''}`);
  }

  const bytes = statSync(archive).size;
  if (bytes > budget) problems.push(`app.asar is ${mib(bytes)}, over its ${mib(budget)} budget`);
  return { problems, files: files.size, bytes, main };
}

/** @param {number} bytes */
function mib(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * A stand-in for an unpacked Electron (Linux layout): what electron-builder
 * copies and renames, with a fake `electron` that only says what it is.
 * @param {string} dir
 */
export function writeStubElectronDist(dir) {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  mkdirSync(join(dir, 'locales'), { recursive: true });
  writeFileSync(
    join(dir, 'electron'),
    '#!/bin/sh\necho "stub Electron for packaging checks: not runnable" >&2\nexit 1\n',
  );
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'LICENSE'), 'Stub Electron distribution for scripts/check-package.mjs.\n');
  writeFileSync(join(dir, 'locales', 'en-US.pak'), '');
}

/** node_modules/electron/dist when it holds a binary (setup.mjs fetches it where it can). */
function realElectronDist() {
  const electronDir = join(root, 'node_modules', 'electron');
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const dist = join(electronDir, 'dist');
  return existsSync(join(dist, readFileSync(pathFile, 'utf8').trim()))
    ? { dist, binary: join(dist, readFileSync(pathFile, 'utf8').trim()) }
    : undefined;
}

/**
 * Whether the packaged binary next to `archive` has every fuse in FUSES burnt as asked.
 * @param {string} archive
 * @returns {Promise<string[]>}
 */
async function checkFuses(archive) {
  const resources = dirname(archive);
  // macOS: Berth.app/Contents/Resources/app.asar; Linux and Windows: <unpacked>/resources/app.asar.
  const target =
    process.platform === 'darwin'
      ? dirname(dirname(resources))
      : join(
          dirname(resources),
          readdirSync(dirname(resources)).find((name) => /^(berth|Berth\.exe)$/.test(name)) ?? 'berth',
        );
  const current = /** @type {Record<number, unknown>} */ (await electronFuses().getCurrentFuseWire(target));
  // On the wire a fuse is the character '1' (enabled) or '0' (disabled): @electron/fuses' FuseState, which it does not export.
  return fuseSettings().flatMap(({ name, position, enabled }) =>
    current[position] === (enabled ? 0x31 : 0x30)
      ? []
      : [`fuse ${name} is not ${enabled ? 'enabled' : 'disabled'} in ${target}`],
  );
}

/**
 * @param {string} dir
 * @returns {string | undefined}
 */
function findAppAsar(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === 'app.asar') return path;
    if (entry.isDirectory()) {
      const found = findAppAsar(path);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function npmCommand(/** @type {string[]} */ args) {
  const execPath = process.env.npm_execpath;
  return execPath !== undefined && /\.(c|m)?js$/.test(execPath)
    ? { command: process.execPath, args: [execPath, ...args] }
    : { command: 'npm', args };
}

async function main() {
  const keep = process.argv.includes('--keep');
  const work = mkdtempSync(join(tmpdir(), 'berth-package-check-'));
  const say = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
  try {
    const real = realElectronDist();
    let electronDist;
    /** @type {string[]} */
    let platformArgs = [];
    if (real !== undefined) {
      electronDist = real.dist;
      say(`Package check: packaging with the Electron binary in node_modules/electron (${process.platform}).`);
    } else {
      electronDist = join(work, 'electron-stub');
      writeStubElectronDist(electronDist);
      platformArgs = ['--linux'];
      say(
        'Package check: no Electron binary here, so a stub Electron distribution stands in (Linux layout; fuses skipped).',
      );
    }
    const output = join(work, 'release');
    const { command, args } = npmCommand([
      'run',
      'dist',
      '--',
      '--dir',
      ...platformArgs,
      '--publish',
      'never',
      `--config.electronDist=${electronDist}`,
      `--config.directories.output=${output}`,
    ]);
    const result = spawnSync(command, args, {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      shell: command === 'npm' && process.platform === 'win32',
    });
    if (result.error !== undefined || result.status !== 0) {
      say(`${result.stdout ?? ''}${result.stderr ?? ''}`);
      say(
        `Package check failed: npm run dist -- --dir ${result.error !== undefined ? `could not run (${result.error.message})` : `exited with ${result.status ?? result.signal}`}.`,
      );
      return 1;
    }
    const archive = findAppAsar(output);
    if (archive === undefined) {
      say(`Package check failed: npm run dist -- --dir made no app.asar under ${output}.`);
      return 1;
    }
    const check = checkAsar(archive);
    if (real !== undefined) check.problems.push(...(await checkFuses(archive)));
    if (check.problems.length > 0) {
      say(`Package check failed: ${archive}:`);
      for (const problem of check.problems) say(`  - ${problem}`);
      return 1;
    }
    say(
      `Package check passed: app.asar ${mib(check.bytes)} (budget ${mib(SIZE_BUDGET_BYTES)}), ${check.files} files, main ${check.main}.`,
    );
    return 0;
  } finally {
    if (keep) say(`Kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
