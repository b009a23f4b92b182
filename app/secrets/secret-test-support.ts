import type { SecretStore } from './secret-store';

/** Test-only: an in-memory SecretStore whose values a test can read (the file-backed ones have their own tests). */
export class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async set(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}
