import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from './secret-store';

let dir: string;
let warnings: string[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-secrets-'));
  warnings = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const store = (file = join(dir, 'secrets.json')) =>
  new FileSecretStore({ filePath: file, warn: (text) => warnings.push(text), now: () => 1234 });

describe('FileSecretStore', () => {
  it('stores, reads back in a new instance, and deletes; the file is 0600', async () => {
    const first = store();
    expect(await first.get('anthropic.apiKey')).toBeUndefined();
    await first.set('anthropic.apiKey', 'sk-ant-secret-1');
    await first.set('other', 'x');
    expect(await first.get('anthropic.apiKey')).toBe('sk-ant-secret-1');
    if (process.platform !== 'win32') expect((await stat(join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
    const second = store();
    expect(await second.get('anthropic.apiKey')).toBe('sk-ant-secret-1');
    await second.delete('anthropic.apiKey');
    expect(await store().get('anthropic.apiKey')).toBeUndefined();
    expect(await store().get('other')).toBe('x');
    expect(warnings).toEqual([]);
  });

  it('serializes concurrent writes so none is lost', async () => {
    const s = store();
    await Promise.all(Array.from({ length: 10 }, (_, i) => s.set(`k${i}`, `v${i}`)));
    const again = store();
    for (let i = 0; i < 10; i += 1) expect(await again.get(`k${i}`)).toBe(`v${i}`);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('moves a corrupt file aside with a message that never quotes its content', async () => {
    await writeFile(join(dir, 'secrets.json'), '{"version":1,"secrets":{"anthropic.apiKey":"sk-leaky-value"');
    const s = store();
    expect(await s.get('anthropic.apiKey')).toBeUndefined();
    expect(await readFile(join(dir, 'secrets.json.corrupt-1234'), 'utf8')).toContain('sk-leaky-value');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('moved it to');
    expect(warnings[0]).not.toContain('sk-leaky');
    await s.set('anthropic.apiKey', 'new-key-123');
    expect(await store().get('anthropic.apiKey')).toBe('new-key-123');
  });

  it('refuses to write over a file it could not read', async () => {
    // A directory where the file should be: reading fails with EISDIR, not ENOENT.
    const blocked = join(dir, 'dir-secrets');
    await mkdir(blocked);
    const s = store(blocked);
    expect(await s.get('a')).toBeUndefined();
    await expect(s.set('a', 'b')).rejects.toThrow(/cannot save secrets/);
    expect(warnings[0]).toContain('could not be read');
  });

  it('reports a value its codec cannot decode instead of failing', async () => {
    const s = new FileSecretStore({
      filePath: join(dir, 'enc.json'),
      warn: (text) => warnings.push(text),
      codec: {
        encode: (value) => Buffer.from(value).toString('base64'),
        decode: () => {
          throw new Error('wrong keychain');
        },
      },
    });
    await s.set('k', 'value');
    expect(await s.get('k')).toBeUndefined();
    expect(warnings[0]).toContain('cannot be decrypted (wrong keychain)');
  });
});
