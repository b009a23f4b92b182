import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxSettingsStore } from './sandbox-settings-store';

describe('SandboxSettingsStore', () => {
  let dir: string;
  const warnings: string[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-sandbox-settings-'));
    warnings.length = 0;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const open = () => SandboxSettingsStore.open({ configDir: dir, warn: (text) => warnings.push(text), now: () => 42 });

  it('gives the default to a server never set, and keeps what was set across opens', async () => {
    const store = await open();
    expect(store.get('fs')).toEqual({ enabled: false, allowedFolders: [], allowedDomains: [], offered: false });
    await store.set('fs', {
      enabled: true,
      allowedFolders: ['/srv', '/srv'],
      allowedDomains: ['api.github.com'],
      offered: true,
    });
    const again = await open();
    expect(again.get('fs')).toEqual({
      enabled: true,
      allowedFolders: ['/srv'],
      allowedDomains: ['api.github.com'],
      offered: true,
    });
  });

  it('follows a rename and forgets a removed server', async () => {
    const store = await open();
    await store.set('fs', { enabled: true, allowedFolders: [], allowedDomains: [], offered: true });
    await store.rename('fs', 'files');
    expect(store.get('files').enabled).toBe(true);
    expect(store.get('fs').enabled).toBe(false);
    await store.forget('files');
    expect(JSON.parse(await readFile(join(dir, 'sandbox.json'), 'utf8'))).toEqual({ version: 1, servers: {} });
  });

  it('moves an unusable file aside with a warning instead of overwriting it', async () => {
    await writeFile(join(dir, 'sandbox.json'), '{"version":1,"servers":{"fs":{"enabled":"yes"}}}');
    const store = await open();
    expect(store.get('fs').enabled).toBe(false);
    expect(warnings[0]).toMatch(/sandbox.json is invalid .*moved it to .*corrupt-42.*back to off/);
    expect(await readdir(dir)).toContain('sandbox.json.corrupt-42');
  });
});
