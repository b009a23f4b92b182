import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as atomicWrite from '../config/atomic-write';
import type { DiscoverResult } from '@modelcontextprotocol/client';
import { EraCache, LEGACY_VERDICT_MAX_AGE_MS, eraFingerprint } from './era-cache';
import { LogCollector, serverConfig, tempDir } from './test-support';

const discover = {
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  instructions: 'hi',
} as unknown as DiscoverResult;
const config = serverConfig({ command: 'node', args: ['server.js'], env: { TOKEN: 'secret-value' } });

describe('EraCache', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let logs: LogCollector;
  let now: number;
  const make = () => new EraCache({ stateDir: dir.path, logs, now: () => now });

  beforeEach(async () => {
    dir = await tempDir('berth-era-');
    logs = new LogCollector();
    now = 1_700_000_000_000;
  });
  afterEach(() => dir.cleanup());

  it('persists a modern DiscoverResult and hands it back as a prior', async () => {
    await make().remember('a', config, { kind: 'modern', discover });
    const text = await readFile(join(dir.path, 'eras.json'), 'utf8');
    expect(text).not.toContain('secret-value');
    expect(await make().get('a', config)).toEqual({ kind: 'modern', discover });
  });

  it('writes the verdicts of many servers that become ready together in one or two writes, losing none', async () => {
    const writes = vi.spyOn(atomicWrite, 'atomicWriteFile');
    try {
      const cache = make();
      const names = Array.from({ length: 30 }, (_, index) => `server-${index}`);
      await Promise.all(names.map((name) => cache.remember(name, config, { kind: 'modern', discover })));
      expect(writes.mock.calls.length).toBeLessThanOrEqual(2);
      const again = make();
      for (const name of names) expect(await again.get(name, config)).toEqual({ kind: 'modern', discover });
      // A change after those writes is written too.
      await cache.forget('server-0');
      expect(await make().get('server-0', config)).toBeUndefined();
      expect(await make().get('server-1', config)).toEqual({ kind: 'modern', discover });
    } finally {
      writes.mockRestore();
    }
  });

  it('flush resolves once a save asked for just before is on disk', async () => {
    const cache = make();
    // Not awaited, as ServerConnection asks for it before reporting a server ready.
    void cache.remember('a', config, { kind: 'legacy' });
    void cache.remember('b', config, { kind: 'modern', discover });
    await cache.flush();
    const saved = JSON.parse(await readFile(join(dir.path, 'eras.json'), 'utf8')) as {
      servers: Record<string, unknown>;
    };
    expect(Object.keys(saved.servers).sort()).toEqual(['a', 'b']);
    // With nothing to save it resolves at once.
    await make().flush();
  });

  it('expires legacy verdicts after 7 days', async () => {
    await make().remember('a', config, { kind: 'legacy' });
    now += LEGACY_VERDICT_MAX_AGE_MS - 1;
    expect(await make().get('a', config)).toEqual({ kind: 'legacy' });
    now += 2;
    expect(await make().get('a', config)).toBeUndefined();
  });

  it('ignores an entry whose command, args, cwd or env keys changed', async () => {
    const cache = make();
    await cache.remember('a', config, { kind: 'modern', discover });
    expect(await cache.get('a', { ...config, args: ['other.js'] })).toBeUndefined();
    expect(await cache.get('a', { ...config, cwd: '/tmp' })).toBeUndefined();
    expect(await cache.get('a', { ...config, env: { TOKEN: 'x', EXTRA: 'y' } })).toBeUndefined();
    // A changed env VALUE is the same server (e.g. a rotated token).
    expect(await cache.get('a', { ...config, env: { TOKEN: 'rotated' } })).toEqual({ kind: 'modern', discover });
    expect(eraFingerprint(config)).toBe(eraFingerprint({ ...config }));
  });

  it('forgets entries on disk', async () => {
    await make().remember('a', config, { kind: 'legacy' });
    await make().forget('a');
    expect(await make().get('a', config)).toBeUndefined();
  });

  it('moves a corrupt file aside, says so in the log, and starts empty', async () => {
    await writeFile(join(dir.path, 'eras.json'), '{ not json');
    const cache = make();
    expect(await cache.get('a', config)).toBeUndefined();
    const files = await readdir(dir.path);
    expect(files).toContain(`eras.json.corrupt-${now}`);
    expect(files).not.toContain('eras.json');
    expect(logs.entries).toHaveLength(1);
    expect(logs.entries[0]).toMatchObject({ server: '', source: 'host', level: 'warning' });
    expect(logs.entries[0]?.text).toMatch(/eras\.json is corrupt \(not valid JSON.*moved it to .*eras\.json\.corrupt-/);
    // The cache still works after that.
    await cache.remember('a', config, { kind: 'legacy' });
    expect(await make().get('a', config)).toEqual({ kind: 'legacy' });
  });

  it('treats valid JSON of the wrong shape as corrupt too', async () => {
    await writeFile(join(dir.path, 'eras.json'), JSON.stringify({ version: 1, servers: { a: { kind: 'weird' } } }));
    expect(await make().get('a', config)).toBeUndefined();
    expect(logs.entries[0]?.text).toMatch(/is corrupt \(servers\.a\.kind/);
  });

  it('leaves a file it cannot read in place and never saves over it', async () => {
    // A directory where the file should be: unreadable, and cannot be replaced by a rename either way.
    await mkdir(join(dir.path, 'eras.json', 'keep'), { recursive: true });
    const cache = make();
    await cache.remember('a', config, { kind: 'legacy' });
    expect(logs.entries.map((entry) => entry.text)).toEqual([
      expect.stringMatching(/eras\.json could not be read .*not saved until it is fixed/),
    ]);
    expect(await readdir(join(dir.path, 'eras.json'))).toEqual(['keep']);
    // The verdict still serves this run.
    expect(await cache.get('a', config)).toEqual({ kind: 'legacy' });
  });
});
