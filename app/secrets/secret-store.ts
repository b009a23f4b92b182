import { z } from 'zod';
import { atomicWriteFile } from '../config/atomic-write';
import { loadStateFile } from '../config/state-file';
import { errorMessage } from '../../shared/error-message';

/**
 * Where Berth keeps secrets (the Anthropic API key, servers' secret values, OAuth tokens):
 * Electron's safeStorage, or a 0600 file in browser mode. Values never leave
 * the host process.
 */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** How values are stored on disk: as they are, or encrypted (safeStorage) and base64-encoded. */
export interface SecretCodec {
  encode(value: string): string;
  decode(stored: string): string;
}

const PLAIN: SecretCodec = { encode: (value) => value, decode: (stored) => stored };

const SecretsFileSchema = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.string()) }).strict();

/** Options for {@linkcode FileSecretStore}. */
export interface FileSecretStoreOptions {
  filePath: string;
  /** A problem the person should know about (corrupt file moved aside, unreadable file). Never carries a secret. */
  warn: (text: string) => void;
  codec?: SecretCodec;
  now?: () => number;
}

/**
 * Secrets in one JSON file, mode 0600, written atomically and one write at a
 * time. A file that cannot be parsed is moved aside (`.corrupt-<time>`) with a
 * message, never silently replaced; a file that cannot be read at all is left
 * alone and every write is refused, so nothing is overwritten blindly.
 */
export class FileSecretStore implements SecretStore {
  private values: Map<string, string> | undefined;
  private loading: Promise<Map<string, string>> | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly codec: SecretCodec;
  private readonly now: () => number;
  private blocked: string | undefined;

  constructor(private readonly options: FileSecretStoreOptions) {
    this.codec = options.codec ?? PLAIN;
    this.now = options.now ?? Date.now;
  }

  get filePath(): string {
    return this.options.filePath;
  }

  async get(key: string): Promise<string | undefined> {
    const values = await this.load();
    const stored = values.get(key);
    if (stored === undefined) return undefined;
    try {
      return this.codec.decode(stored);
    } catch (error) {
      // A value encrypted by another user account or machine: unusable, but the person must know why.
      this.options.warn(
        `the secret '${key}' in ${this.filePath} cannot be decrypted (${errorMessage(error)}); enter it again`,
      );
      return undefined;
    }
  }

  set(key: string, value: string): Promise<void> {
    return this.change((values) => values.set(key, this.codec.encode(value)));
  }

  delete(key: string): Promise<void> {
    return this.change((values) => values.delete(key));
  }

  private change(apply: (values: Map<string, string>) => void): Promise<void> {
    const run = this.chain.then(async () => {
      const values = await this.load();
      if (this.blocked !== undefined) throw new Error(`cannot save secrets: ${this.blocked}`);
      const next = new Map(values);
      apply(next);
      const text = `${JSON.stringify({ version: 1, secrets: Object.fromEntries(next) }, null, 2)}\n`;
      await atomicWriteFile(this.filePath, text, 0o600);
      this.values = next;
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  private load(): Promise<Map<string, string>> {
    if (this.values !== undefined) return Promise.resolve(this.values);
    this.loading ??= this.read().then((values) => {
      this.values = values;
      return values;
    });
    return this.loading;
  }

  private async read(): Promise<Map<string, string>> {
    const loaded = await loadStateFile(this.filePath, SecretsFileSchema, this.now, { quoteParseError: false });
    if (loaded.kind === 'missing') return new Map();
    if (loaded.kind === 'loaded') return new Map(Object.entries(loaded.data.secrets));
    if (loaded.movedTo !== undefined) {
      this.options.warn(
        `${this.filePath} is corrupt (${loaded.problem}); moved it to ${loaded.movedTo}. Enter your API key (Settings) and the servers' secret values (each server's settings) again`,
      );
    } else {
      // Left in place (unreadable, or could not be moved aside): every write is refused so it is never overwritten blindly.
      this.blocked = loaded.message;
      this.options.warn(`${this.blocked}; stored secrets are unavailable until it can be read`);
    }
    return new Map();
  }
}
