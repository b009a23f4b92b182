import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import type { Configuration } from 'app-builder-lib';
import { DebugLogger } from 'builder-util/out/DebugLogger';
import { beforeAll, describe, expect, it } from 'vitest';
import { FUSES } from '../scripts/after-pack.mjs';

// electron-builder.yml checked with electron-builder's own loader and schema
// validator (the same calls `electron-builder` makes before packaging), plus
// the settings Berth's security and layout depend on.

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
let config: Configuration;

beforeAll(async () => {
  config = await getConfig(repoRoot, null, null);
});

function filePatterns(): string[] {
  const files = config.files;
  const entries = Array.isArray(files) ? files : [files];
  return entries.flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    if (entry === null || entry === undefined) return [];
    const filter = entry.filter;
    return filter === undefined ? [] : Array.isArray(filter) ? filter : [filter];
  });
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's schema validation", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('is checked by a validator that rejects a misspelled fuse', async () => {
    const broken = { ...config, electronFuses: { ...config.electronFuses, runAsNodeX: false } } as Configuration;
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/electronFuses/);
  });

  it('names the app and points main at the bundled entry', () => {
    expect(config.appId).toBe('dev.berth.app');
    expect(config.productName).toBe('Berth');
    expect(config.directories?.output).toBe('release');
    expect(config.extraMetadata).toMatchObject({ main: 'dist/main/index.cjs' });
  });

  it('packages only build output and package.json: no sources, tests, maps or node_modules', () => {
    const patterns = filePatterns();
    const included = patterns.filter((p) => !p.startsWith('!'));
    for (const pattern of included)
      expect(pattern === 'package.json' || pattern.startsWith('dist/'), pattern).toBe(true);
    expect(included).toEqual(
      expect.arrayContaining([
        'dist/main/**',
        'dist/preload/**',
        'dist/renderer/**',
        'dist/sandbox-proxy/**',
        'package.json',
      ]),
    );
    expect(patterns).toEqual(expect.arrayContaining(['!**/*.map', '!node_modules{,/**/*}']));
  });

  it('burns the security fuses in its afterPack hook, which skips a stub Electron (so no electronFuses option)', () => {
    expect(config.afterPack).toBe('./scripts/after-pack.mjs');
    expect(config.electronFuses).toBeUndefined();
    expect(FUSES).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).not.toBe(false);
    expect(config.npmRebuild).toBe(false);
  });

  it('targets AppImage + deb, dmg with hardened runtime, and nsis', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.linux?.category).toBe('Development');
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('uses a 1024×1024 PNG icon from resources/', async () => {
    for (const icon of [config.linux?.icon, config.mac?.icon, config.win?.icon])
      expect(icon).toBe('resources/icon.png');
    const png = await readFile(join(repoRoot, 'resources/icon.png'));
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    // IHDR: width and height are the first two big-endian words after the chunk header.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
  });
});
