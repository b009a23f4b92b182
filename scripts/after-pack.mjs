// @ts-check
// electron-builder's afterPack hook (electron-builder.yml): burns Electron's
// fuses into the packaged binary, through electron-builder's own
// addElectronFuses and its copy of @electron/fuses, i.e. what its
// `electronFuses` option does. It lives here rather than in that option so that a package built on
// a stub Electron distribution (scripts/check-package.mjs, on machines with
// no Electron binary) is skipped with a notice instead of failing: only a
// real binary has a fuse wire.
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Electron's fuses for Berth: no Node mode, no inspector or NODE_OPTIONS, the app only from an integrity-checked app.asar. */
export const FUSES = {
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  grantFileProtocolExtraPrivileges: false,
};

/** Marks the fuse wire in every Electron binary since 12 (@electron/fuses' SENTINEL). */
const FUSE_SENTINEL = Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX');

/**
 * The file that carries the fuse wire: the packaged executable as
 * electron-builder names it per platform, or on macOS the Electron Framework
 * inside the app (where @electron/fuses flips them too).
 * @param {{ appOutDir: string, electronPlatformName: string, packager: { appInfo: { productFilename: string }, executableName?: string } }} context
 */
export function fuseWireFile(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  const product = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    return join(
      appOutDir,
      `${product}.app`,
      'Contents',
      'Frameworks',
      'Electron Framework.framework',
      'Electron Framework',
    );
  }
  if (electronPlatformName === 'win32') return join(appOutDir, `${product}.exe`);
  return join(appOutDir, packager.executableName ?? product.toLowerCase());
}

/**
 * Whether the file carries Electron's fuse wire: streamed in chunks, as the binary is ~200 MB.
 * @param {string} path
 */
export async function hasFuseWire(path) {
  const file = await open(path, 'r');
  try {
    const chunk = Buffer.alloc(4 * 1024 * 1024);
    let carry = Buffer.alloc(0);
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return false;
      const window = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      if (window.includes(FUSE_SENTINEL)) return true;
      carry = window.subarray(Math.max(0, window.length - FUSE_SENTINEL.length + 1));
    }
  } finally {
    await file.close();
  }
}

/** @returns {typeof import('@electron/fuses')} the copy electron-builder itself uses */
export function electronFuses() {
  const fromBuilder = createRequire(createRequire(import.meta.url).resolve('app-builder-lib/package.json'));
  return fromBuilder('@electron/fuses');
}

/**
 * Each fuse in FUSES with its position on the fuse wire.
 * @returns {{ name: string, position: number, enabled: boolean }[]}
 */
export function fuseSettings() {
  const { FuseV1Options } = electronFuses();
  return Object.entries(FUSES).map(([name, enabled]) => {
    const position = /** @type {Record<string, unknown>} */ (FuseV1Options)[
      name.charAt(0).toUpperCase() + name.slice(1)
    ];
    if (typeof position !== 'number') throw new Error(`@electron/fuses has no fuse named ${name}`);
    return { name, position, enabled };
  });
}

/**
 * FUSES as @electron/fuses' flipFuses wants them.
 * @param {boolean} resetAdHocDarwinSignature
 * @returns {import('@electron/fuses').FuseConfig}
 */
export function fuseConfig(resetAdHocDarwinSignature) {
  /** @type {Record<string, unknown>} */
  const config = { version: electronFuses().FuseVersion.V1, resetAdHocDarwinSignature };
  for (const { position, enabled } of fuseSettings()) config[position] = enabled;
  return /** @type {import('@electron/fuses').FuseConfig} */ (config);
}

/**
 * @param {import('app-builder-lib').AfterPackContext} context
 */
export default async function afterPack(context) {
  const wire = fuseWireFile(/** @type {Parameters<typeof fuseWireFile>[0]} */ (/** @type {unknown} */ (context)));
  if (!(await hasFuseWire(wire))) {
    console.log(`  • fuses skipped: ${wire} is not a real Electron binary (a stub distribution); a real one gets them`);
    return;
  }
  // Flipping fuses breaks the ad-hoc signature arm64 macOS requires; electron-builder re-signs when an identity is set.
  await context.packager.addElectronFuses(context, fuseConfig(context.electronPlatformName === 'darwin'));
}
