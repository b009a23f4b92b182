import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomicWriteFile } from './atomic-write';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-atomic-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A document big enough that a non-atomic write would be observed half-done. */
function version(n: number): string {
  return JSON.stringify({
    version: n,
    padding: Array.from({ length: 4_000 }, (_, i) => `${n}-${i}-${'x'.repeat(40)}`),
  });
}

describe('atomicWriteFile', () => {
  it('creates missing directories, writes the content and leaves no temp file', async () => {
    const file = join(dir, 'nested', 'deeper', 'config.json');
    await atomicWriteFile(file, '{"a":1}');
    expect(await readFile(file, 'utf8')).toBe('{"a":1}');
    await atomicWriteFile(file, new TextEncoder().encode('{"a":2}'));
    expect(await readFile(file, 'utf8')).toBe('{"a":2}');
    expect(await readdir(join(dir, 'nested', 'deeper'))).toEqual(['config.json']);
  });

  it('applies the requested mode', async () => {
    if (process.platform === 'win32') return;
    const file = join(dir, 'secret.json');
    await atomicWriteFile(file, '{}', 0o600);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('writes 0600 files in 0700 directories by default, whatever the umask, also over a 0644 file', async () => {
    if (process.platform === 'win32') return;
    const savedUmask = process.umask(0);
    try {
      const file = join(dir, 'state', 'deeper', 'roots.json');
      await atomicWriteFile(file, '{}');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, 'state'))).mode & 0o777).toBe(0o700);
      expect((await stat(join(dir, 'state', 'deeper'))).mode & 0o777).toBe(0o700);

      const old = join(dir, 'settings.json');
      await writeFile(old, '{}');
      await chmod(old, 0o644);
      await atomicWriteFile(old, '{"a":1}');
      expect((await stat(old)).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(savedUmask);
    }
  });

  it('never lets a concurrent reader see a partial file', async () => {
    const file = join(dir, 'config.json');
    await atomicWriteFile(file, version(0));
    let writing = true;
    let reads = 0;
    const seen = new Set<number>();
    const reader = (async () => {
      while (writing) {
        const parsed = JSON.parse(await readFile(file, 'utf8')) as { version: number; padding: string[] };
        expect(parsed.padding).toHaveLength(4_000);
        seen.add(parsed.version);
        reads += 1;
      }
    })();
    try {
      for (let n = 1; n <= 40; n += 1) await atomicWriteFile(file, version(n));
    } finally {
      writing = false;
    }
    await reader;
    expect(reads).toBeGreaterThan(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: 40 });
    expect(await readdir(dir)).toEqual(['config.json']);
  });

  it('removes its temp file and keeps the target when the rename fails', async () => {
    const target = join(dir, 'taken');
    await mkdir(join(target, 'child'), { recursive: true });
    await expect(atomicWriteFile(target, 'data')).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['taken']);
    expect(await readdir(target)).toEqual(['child']);
  });
});
