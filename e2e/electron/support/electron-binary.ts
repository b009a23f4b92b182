import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * The Electron binary from node_modules/electron (its path.txt names it inside
 * dist/; scripts/setup.mjs fetches it where the download host is reachable),
 * or undefined where there is none.
 */
export function electronBinary(): string | undefined {
  const electronDir = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}
