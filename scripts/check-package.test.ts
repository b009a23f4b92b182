import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import afterPack, { fuseConfig, fuseSettings, hasFuseWire, fuseWireFile } from './after-pack.mjs';
import { asarFiles, checkAsar, writeStubElectronDist } from './check-package.mjs';

const asar = createRequire(createRequire(import.meta.url).resolve('app-builder-lib/package.json'))(
  '@electron/asar',
) as {
  createPackage(src: string, dest: string): Promise<unknown>;
};
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'berth-check-package-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An app.asar from a file tree: `files` maps paths to contents. */
async function archive(files: Record<string, string>): Promise<string> {
  const src = join(dir, 'src');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  const out = join(dir, 'app.asar');
  await asar.createPackage(src, out);
  return out;
}

const GOOD = {
  'package.json': JSON.stringify({ name: 'berth', main: 'dist/main/index.cjs' }),
  'dist/main/index.cjs': 'main',
  'dist/preload/index.cjs': 'preload',
  'dist/renderer/index.html': '<!doctype html>',
  'dist/renderer/assets/index-abc.js': 'app',
};

describe('checkAsar', () => {
  it('passes a package with main, preload and renderer only', async () => {
    const path = await archive(GOOD);
    expect(checkAsar(path)).toMatchObject({ problems: [], files: 5, main: 'dist/main/index.cjs' });
    expect([...asarFiles(path).keys()].sort()).toEqual(Object.keys(GOOD).sort());
  });

  it('lists node_modules, source maps, tests and fixtures, browser mode and sources', async () => {
    const path = await archive({
      ...GOOD,
      'node_modules/zod/index.js': '',
      'dist/main/index.cjs.map': '{}',
      'e2e/fixtures/servers/echo.mjs': '',
      'dist/main/window.test.js': '',
      'dist/app/browser-mode.mjs': '',
      'dist/renderer/assets/_berth-catalog_pseudo-BIZY2yc2.js': '',
      'app/host.ts': '',
    });
    const { problems } = checkAsar(path);
    expect(problems).toEqual([
      'node_modules (everything is bundled into dist/): node_modules/zod/index.js',
      'a source map (it embeds the sources): dist/main/index.cjs.map',
      'a test or test fixture: dist/main/window.test.js, e2e/fixtures/servers/echo.mjs',
      'browser mode (not part of the desktop app): dist/app/browser-mode.mjs',
      'the pseudo-locale (a test language, never offered to a person): dist/renderer/assets/_berth-catalog_pseudo-BIZY2yc2.js',
      'TypeScript source: app/host.ts',
    ]);
  });

  it('needs the main entry package.json names, the preload and the renderer', async () => {
    const path = await archive({
      'package.json': JSON.stringify({ main: './dist/main/other.cjs' }),
      'dist/main/index.cjs': '',
      'dist/renderer/index.html': '',
    });
    expect(checkAsar(path).problems).toEqual([
      'the main entry package.json names (dist/main/other.cjs) is missing',
      'the preload (dist/preload/index.cjs) is missing',
      "the renderer's scripts (dist/renderer/assets/*.js) are missing",
    ]);
  });

  it('holds the package to its size budget', async () => {
    const path = await archive({ ...GOOD, 'dist/renderer/assets/big.js': 'x'.repeat(64 * 1024) });
    expect(checkAsar(path, { budgetBytes: 32 * 1024 }).problems).toEqual([
      expect.stringMatching(/^app\.asar is 0\.1 MiB, over its 0\.0 MiB budget$/),
    ]);
  });
});

describe('the afterPack hook (fuses)', () => {
  const context = (appOutDir: string, addElectronFuses = vi.fn()) => ({
    appOutDir,
    electronPlatformName: 'linux',
    packager: { appInfo: { productFilename: 'Berth' }, executableName: 'berth', addElectronFuses },
  });

  it('finds the fuse wire anywhere in a binary, also across its read chunks', async () => {
    const binary = join(dir, 'electron');
    const chunk = 4 * 1024 * 1024;
    writeFileSync(binary, Buffer.concat([Buffer.alloc(chunk - 10), Buffer.from(SENTINEL), Buffer.alloc(100)]));
    await expect(hasFuseWire(binary)).resolves.toBe(true);
    writeFileSync(binary, Buffer.alloc(chunk + 100));
    await expect(hasFuseWire(binary)).resolves.toBe(false);
  });

  it('skips a stub Electron with a notice, and burns the fuses into a real one', async () => {
    writeStubElectronDist(dir);
    const stubContext = context(dir);
    // electron-builder has renamed `electron` to the executable name by now.
    writeFileSync(fuseWireFile(stubContext), '#!/bin/sh\n');
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await afterPack(stubContext as never);
    expect(stubContext.packager.addElectronFuses).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith(expect.stringContaining('fuses skipped'));
    log.mockRestore();

    const realContext = context(dir);
    writeFileSync(
      fuseWireFile(realContext),
      Buffer.concat([Buffer.alloc(1000), Buffer.from(SENTINEL), Buffer.from([1, 8])]),
    );
    await afterPack(realContext as never);
    expect(realContext.packager.addElectronFuses).toHaveBeenCalledWith(realContext, fuseConfig(false));
  });

  it('turns off running as Node, NODE_OPTIONS and the inspector, and loads the app only from an integrity-checked asar', () => {
    // Positions on Electron's fuse wire (FuseV1Options).
    expect(fuseSettings()).toEqual([
      { name: 'runAsNode', position: 0, enabled: false },
      { name: 'enableCookieEncryption', position: 1, enabled: true },
      { name: 'enableNodeOptionsEnvironmentVariable', position: 2, enabled: false },
      { name: 'enableNodeCliInspectArguments', position: 3, enabled: false },
      { name: 'enableEmbeddedAsarIntegrityValidation', position: 4, enabled: true },
      { name: 'onlyLoadAppFromAsar', position: 5, enabled: true },
      { name: 'grantFileProtocolExtraPrivileges', position: 7, enabled: false },
    ]);
    expect(fuseConfig(true)).toEqual({
      version: '1',
      resetAdHocDarwinSignature: true,
      0: false,
      1: true,
      2: false,
      3: false,
      4: true,
      5: true,
      7: false,
    });
  });

  it('looks for the fuse wire in the packaged executable, or the Electron Framework on macOS', () => {
    const base = { appOutDir: '/out', packager: { appInfo: { productFilename: 'Berth' }, executableName: 'berth' } };
    expect(fuseWireFile({ ...base, electronPlatformName: 'linux' })).toBe(join('/out', 'berth'));
    expect(fuseWireFile({ ...base, electronPlatformName: 'win32' })).toBe(join('/out', 'Berth.exe'));
    expect(fuseWireFile({ ...base, electronPlatformName: 'darwin' })).toBe(
      join('/out', 'Berth.app', 'Contents', 'Frameworks', 'Electron Framework.framework', 'Electron Framework'),
    );
  });
});
