import { FileSecretStore } from './secret-store';
import type { SecretStore } from './secret-store';

/** The part of Electron's `safeStorage` Berth uses (passed in, so app/ never imports electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** Options for {@linkcode createSafeStorageSecretStore}. */
export interface SafeStorageSecretStoreOptions {
  safeStorage: SafeStorageLike;
  /** `<configDir>/secrets.electron.json`: values encrypted by the OS keychain, base64. */
  encryptedFile: string;
  /** `<configDir>/secrets.json`: the 0600 plain file used when the OS offers no encryption. */
  fallbackFile: string;
  warn: (text: string) => void;
}

/**
 * Electron's secret store: values encrypted with `safeStorage` (Keychain,
 * DPAPI, libsecret/kwallet) and kept base64-encoded in a 0600 file. Where the
 * OS has no usable keychain (`isEncryptionAvailable()` is false, e.g. Linux
 * without a secret service) it falls back to the plain 0600 file browser mode
 * uses, and says so. Call after Electron's `ready`.
 */
export function createSafeStorageSecretStore(options: SafeStorageSecretStoreOptions): SecretStore {
  const { safeStorage, warn } = options;
  if (!safeStorage.isEncryptionAvailable()) {
    warn(
      `the OS keychain is not available, so secrets are kept unencrypted in ${options.fallbackFile} (readable only by you: mode 0600)`,
    );
    return new FileSecretStore({ filePath: options.fallbackFile, warn });
  }
  return new FileSecretStore({
    filePath: options.encryptedFile,
    warn,
    codec: {
      encode: (value) => safeStorage.encryptString(value).toString('base64'),
      decode: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
    },
  });
}
