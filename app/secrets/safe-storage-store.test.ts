import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSafeStorageSecretStore } from './safe-storage-store';
import type { SafeStorageLike } from './safe-storage-store';

/** Reversible "encryption" that keeps the plain text out of the bytes, like the real one. */
class FakeSafeStorage implements SafeStorageLike {
  constructor(private readonly available: boolean) {}
  isEncryptionAvailable(): boolean {
    return this.available;
  }
  encryptString(plainText: string): Buffer {
    return Buffer.from([...Buffer.from(`enc:${plainText}`)].map((byte) => byte ^ 0x5a));
  }
  decryptString(encrypted: Buffer): string {
    const text = Buffer.from([...encrypted].map((byte) => byte ^ 0x5a)).toString();
    if (!text.startsWith('enc:')) throw new Error('not encrypted by this keychain');
    return text.slice(4);
  }
}

let dir: string;
let warnings: string[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-safe-'));
  warnings = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = (available: boolean) =>
  createSafeStorageSecretStore({
    safeStorage: new FakeSafeStorage(available),
    encryptedFile: join(dir, 'secrets.electron.json'),
    fallbackFile: join(dir, 'secrets.json'),
    warn: (text) => warnings.push(text),
  });

describe('createSafeStorageSecretStore', () => {
  it('keeps values encrypted (base64) in secrets.electron.json', async () => {
    await open(true).set('anthropic.apiKey', 'sk-ant-very-secret');
    const text = await readFile(join(dir, 'secrets.electron.json'), 'utf8');
    expect(text).not.toContain('sk-ant-very-secret');
    const stored = (JSON.parse(text) as { secrets: Record<string, string> }).secrets['anthropic.apiKey'] ?? '';
    expect(new FakeSafeStorage(true).decryptString(Buffer.from(stored, 'base64'))).toBe('sk-ant-very-secret');
    expect(await open(true).get('anthropic.apiKey')).toBe('sk-ant-very-secret');
    expect(warnings).toEqual([]);
  });

  it('falls back to the 0600 plain file, with a warning, when the OS has no keychain', async () => {
    await open(false).set('anthropic.apiKey', 'sk-plain');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('not available');
    expect(warnings[0]).toContain(join(dir, 'secrets.json'));
    expect(await readFile(join(dir, 'secrets.json'), 'utf8')).toContain('sk-plain');
    expect(await open(false).get('anthropic.apiKey')).toBe('sk-plain');
  });
});
