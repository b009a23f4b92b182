import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RegistryCache } from './registry-cache';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-registry-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('RegistryCache', () => {
  it('keeps each URL’s answer with its time, privately', async () => {
    const cache = new RegistryCache(join(dir, 'cache'), () => undefined);
    expect(await cache.get('https://r.example/v0.1/servers')).toBeUndefined();
    await cache.put('https://r.example/v0.1/servers', { servers: [1] }, 1234);
    await cache.put('https://r.example/v0.1/servers?search=a', { servers: [2] }, 5678);
    expect(await cache.get('https://r.example/v0.1/servers')).toEqual({ fetchedAt: 1234, body: { servers: [1] } });
    expect(await cache.get('https://r.example/v0.1/servers?search=a')).toEqual({
      fetchedAt: 5678,
      body: { servers: [2] },
    });
    const [file] = await readdir(join(dir, 'cache'));
    if (process.platform !== 'win32') expect((await stat(join(dir, 'cache', file ?? ''))).mode & 0o777).toBe(0o600);
  });

  it('ignores a damaged file or one that belongs to another URL', async () => {
    const cache = new RegistryCache(join(dir, 'cache'), () => undefined);
    await cache.put('https://r.example/a', { ok: 1 });
    const [file] = await readdir(join(dir, 'cache'));
    await writeFile(
      join(dir, 'cache', file ?? ''),
      JSON.stringify({ url: 'https://r.example/b', fetchedAt: 1, body: {} }),
    );
    expect(await cache.get('https://r.example/a')).toBeUndefined();
    await writeFile(join(dir, 'cache', file ?? ''), '{not json');
    expect(await cache.get('https://r.example/a')).toBeUndefined();
  });

  it('says so when it cannot write, and keeps working', async () => {
    const warnings: string[] = [];
    await writeFile(join(dir, 'blocker'), 'a file where the folder should be');
    const cache = new RegistryCache(join(dir, 'blocker', 'cache'), (text) => warnings.push(text));
    await cache.put('https://r.example/a', {});
    expect(warnings[0]).toMatch(/could not cache a registry answer/);
    expect(await cache.get('https://r.example/a')).toBeUndefined();
  });
});
