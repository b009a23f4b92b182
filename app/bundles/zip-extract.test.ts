import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeZip } from '../../test/integration/zip-writer';
import { extractZip, readTopLevelFile } from './zip-extract';

const SMALL = { maxEntries: 5, maxEntryBytes: 1_000, maxTotalBytes: 1_500 };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-zip-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('extractZip', () => {
  it('writes files and folders inside the root, keeping only the execute bit of the modes', async () => {
    const archive = writeZip([
      { name: 'server/', mode: 0o040755 },
      { name: 'server/run', data: '#!/bin/sh\n', mode: 0o100755 },
      { name: 'server/lib/data.txt', data: 'x'.repeat(500), deflate: true, mode: 0o100666 },
    ]);
    const root = join(dir, 'out');
    expect(await extractZip(archive, root, SMALL)).toEqual({ files: 2, bytes: 510 });
    expect(await readFile(join(root, 'server', 'lib', 'data.txt'), 'utf8')).toBe('x'.repeat(500));
    if (process.platform !== 'win32') {
      expect((await stat(join(root, 'server', 'run'))).mode & 0o777).toBe(0o700);
      expect((await stat(join(root, 'server', 'lib', 'data.txt'))).mode & 0o777).toBe(0o600);
    }
  });

  it('refuses an oversized entry by its header, before writing anything', async () => {
    const archive = writeZip([
      { name: 'a.txt', data: 'a' },
      { name: 'big.bin', data: Buffer.alloc(2_000), deflate: true },
    ]);
    await expect(extractZip(archive, join(dir, 'out'), SMALL)).rejects.toThrow(
      '"big.bin" is larger than 1000 bytes, the most Berth unpacks for one file',
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it('stops an entry that inflates past what its header claims, at the limit', async () => {
    // 5 MB of zeros deflate to a few kB: counted as written, never held whole.
    const archive = writeZip([{ name: 'bomb.bin', data: Buffer.alloc(5_000_000), deflate: true, declaredSize: 100 }]);
    await expect(extractZip(archive, join(dir, 'out'), SMALL)).rejects.toThrow(
      '"bomb.bin" unpacks to more than its header says (100 bytes)',
    );
    const written = await stat(join(dir, 'out', 'bomb.bin'));
    expect(written.size).toBeLessThan(1_000_000);
  });

  it('refuses too many entries, too much in total and duplicate names', async () => {
    const many = writeZip(Array.from({ length: 6 }, (_, index) => ({ name: `f${index}`, data: '' })));
    await expect(extractZip(many, join(dir, 'a'), SMALL)).rejects.toThrow(
      'The archive has 6 entries; Berth unpacks at most 5',
    );
    const heavy = writeZip([
      { name: 'a', data: Buffer.alloc(900) },
      { name: 'b', data: Buffer.alloc(900) },
    ]);
    await expect(extractZip(heavy, join(dir, 'b'), SMALL)).rejects.toThrow(/The bundle unpacks to more than/);
    const twice = writeZip([
      { name: 'Server.js', data: '' },
      { name: 'server.js', data: '' },
    ]);
    await expect(extractZip(twice, join(dir, 'c'), SMALL)).rejects.toThrow('"server.js" appears twice in the archive');
  });

  it('refuses a damaged entry by its checksum', async () => {
    const archive = writeZip([{ name: 'a.txt', data: 'hello' }]);
    archive[30 + 'a.txt'.length] = 'j'.charCodeAt(0);
    await expect(extractZip(archive, join(dir, 'out'), SMALL)).rejects.toThrow('"a.txt" fails its checksum');
  });

  it('reads manifest.json alone, bounded', async () => {
    const archive = writeZip([
      { name: 'manifest.json', data: '{"a":1}', deflate: true },
      { name: 'x/manifest.json', data: '{}' },
    ]);
    expect((await readTopLevelFile(archive, 'manifest.json', 100))?.toString()).toBe('{"a":1}');
    await expect(readTopLevelFile(archive, 'manifest.json', 3)).rejects.toThrow('manifest.json is larger than 3 bytes');
    expect(await readTopLevelFile(writeZip([{ name: 'other', data: '' }]), 'manifest.json', 100)).toBeUndefined();
  });
});
