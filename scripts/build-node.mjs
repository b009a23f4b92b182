#!/usr/bin/env node
// Bundles the Node-side entry points with esbuild:
//   main/index.ts          -> dist/main/index.cjs      (Electron main: everything but electron bundled,
//                                                      so the packaged app needs no node_modules)
//   preload/index.ts       -> dist/preload/index.cjs   (sandboxed preload: one CJS file, only electron external)
//   app/cli/browser-mode.ts -> dist/app/browser-mode.mjs (plain Node: packages stay in node_modules)
// Every entry is attempted; the script lists each failure by entry and exits 1 if any failed.
// Usage: node scripts/build-node.mjs [--only main,preload,browser] [--out-dir dist] [--minify]
import { access, chmod, copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Electron 45 ships Node 22 and Chromium 140.
const ELECTRON_NODE_TARGET = 'node22';
const ELECTRON_CHROME_TARGET = 'chrome140';

// ws loads these optional native speed-ups inside try/catch; they are not installed.
const WS_OPTIONAL_NATIVE = ['bufferutil', 'utf-8-validate'];

/** @type {Record<string, import('esbuild').BuildOptions & { forbidRequireShim?: boolean }>} */
const ENTRIES = {
  main: {
    entryPoints: ['main/index.ts'],
    outfile: 'dist/main/index.cjs',
    platform: 'node',
    format: 'cjs',
    target: ELECTRON_NODE_TARGET,
    external: ['electron', ...WS_OPTIONAL_NATIVE],
    // Prefer ESM builds: some packages' `main` is a UMD wrapper whose inner
    // require() calls esbuild cannot follow (jsonc-parser's lib/umd).
    mainFields: ['module', 'main'],
    // Bundled ESM packages may read import.meta.url, which CJS output lacks.
    define: { 'import.meta.url': '__berth_import_meta_url' },
    banner: { js: "const __berth_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  },
  preload: {
    entryPoints: ['preload/index.ts'],
    outfile: 'dist/preload/index.cjs',
    // A sandboxed preload gets a browser-like context whose `require` knows only electron and a few polyfills.
    platform: 'browser',
    format: 'cjs',
    target: ELECTRON_CHROME_TARGET,
    external: ['electron'],
    // Parsed on every page load and mostly zod (the contract): drop whitespace but keep names for stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
  },
  browser: {
    entryPoints: ['app/cli/browser-mode.ts'],
    outfile: 'dist/app/browser-mode.mjs',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Only our own ESM is bundled here, so no createRequire banner is needed;
    // buildEntry fails the build if esbuild ever has to emit its require shim.
    forbidRequireShim: true,
  },
};

/** Build one entry; resolves to a list of error lines (empty on success). */
async function buildEntry(name, { forbidRequireShim = false, ...options }, { minify, outDir }) {
  // `outfile` is written relative to dist/; --out-dir moves that tree (tests build into a temp dir).
  const outfile = resolve(root, outDir, relative('dist', options.outfile));
  const entry = options.entryPoints[0];
  try {
    await access(join(root, entry));
  } catch {
    return [`error [${name}] ${entry}: the entry file does not exist`];
  }
  await rm(outfile, { force: true });
  await rm(`${outfile}.map`, { force: true });
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      bundle: true,
      sourcemap: true,
      minify,
      logLevel: 'silent',
      metafile: true,
      legalComments: 'linked',
      ...options,
      outfile,
    });
    for (const warning of result.warnings) console.warn(formatMessage(`warning [${name}]`, warning));
    if (forbidRequireShim && (await readFile(outfile, 'utf8')).includes('Dynamic require of "')) {
      return [
        `error [${name}] ${entry}: the ESM output contains esbuild's require() shim, which throws at run time; ` +
          'add a createRequire banner or keep the CommonJS dependency external',
      ];
    }
    const bytes = Object.entries(result.metafile.outputs)
      .filter(([file]) => resolve(root, file) === outfile)
      .reduce((sum, [, output]) => sum + output.bytes, 0);
    console.log(`built ${name.padEnd(8)} ${relative(root, outfile)} (${(bytes / 1024).toFixed(0)} KiB)`);
    return [];
  } catch (error) {
    const messages =
      Array.isArray(error?.errors) && error.errors.length > 0
        ? error.errors
        : [{ text: String(error?.message ?? error) }];
    // esbuild repeats an output error once per file it could not write (code, map).
    return [...new Set(messages.map((message) => formatMessage(`error [${name}] ${entry}`, message)))];
  }
}

/**
 * The OS sandbox's seccomp helper (it blocks unix sockets inside a Linux
 * sandbox: ssh-agent, docker, D-Bus) is a native binary the bundled runtime
 * cannot find in node_modules: it goes beside the main bundle, and
 * electron-builder keeps it out of app.asar (asarUnpack), where it can run.
 * @param {string} outDir
 * @returns {Promise<string[]>}
 */
async function copySeccompHelpers(outDir) {
  const errors = [];
  for (const arch of ['x64', 'arm64']) {
    const from = join(root, 'node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp', arch, 'apply-seccomp');
    const to = resolve(root, outDir, 'main/vendor/seccomp', arch, 'apply-seccomp');
    try {
      await mkdir(dirname(to), { recursive: true });
      await copyFile(from, to);
      await chmod(to, 0o755);
    } catch (error) {
      errors.push(
        `error [main] the sandbox's seccomp helper (${arch}) could not be copied: ${error?.message ?? error}`,
      );
    }
  }
  return errors;
}

function formatMessage(prefix, message) {
  const where = message.location ? ` ${message.location.file}:${message.location.line}:${message.location.column}` : '';
  return `${prefix}:${where} ${message.text}`;
}

function parseCommandLine() {
  try {
    return parseArgs({
      options: {
        only: { type: 'string' },
        'out-dir': { type: 'string', default: 'dist' },
        minify: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    console.error(
      `${error.message}\nUsage: node scripts/build-node.mjs [--only main,preload,browser] [--out-dir dist] [--minify]`,
    );
    process.exit(2);
  }
}

async function main() {
  const values = parseCommandLine();
  const selected = values.only === undefined ? Object.keys(ENTRIES) : values.only.split(',').map((s) => s.trim());
  const unknown = selected.filter((name) => !(name in ENTRIES));
  if (unknown.length > 0) {
    console.error(`Unknown entry ${unknown.join(', ')}; choose from ${Object.keys(ENTRIES).join(', ')}`);
    process.exit(2);
  }

  const failures = [];
  // Sequential: two cores, and each failure report stays readable.
  for (const name of selected) {
    const errors = await buildEntry(name, ENTRIES[name], { minify: values.minify, outDir: values['out-dir'] });
    if (name === 'main' && errors.length === 0) errors.push(...(await copySeccompHelpers(values['out-dir'])));
    if (errors.length > 0) failures.push({ name, errors });
  }
  if (failures.length > 0) {
    for (const { errors } of failures) for (const line of errors) console.error(line);
    console.error(
      `\nbuild-node failed for: ${failures.map((f) => `${f.name} (${ENTRIES[f.name].entryPoints[0]})`).join(', ')}`,
    );
    process.exit(1);
  }
}

await main();
