import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_SANDBOX_SETTINGS, SANDBOX_LIST_MAX } from '../../shared/domain/sandbox';
import type { SandboxServerSettings } from '../../shared/domain/sandbox';
import { atomicWriteFile } from '../config/atomic-write';
import { loadStateFile } from '../config/state-file';

const ServerSettingsSchema = z
  .object({
    enabled: z.boolean(),
    allowedFolders: z.array(z.string().min(1).max(4_096)).max(SANDBOX_LIST_MAX),
    allowedDomains: z.array(z.string().min(1).max(300)).max(SANDBOX_LIST_MAX),
    offered: z.boolean(),
  })
  .strict();

const SandboxFileSchema = z
  .object({ version: z.literal(1), servers: z.record(z.string(), ServerSettingsSchema) })
  .strict();
type SandboxFile = z.infer<typeof SandboxFileSchema>;

/** Options for {@linkcode SandboxSettingsStore.open}. */
export interface SandboxSettingsStoreOptions {
  configDir: string;
  warn(text: string): void;
  now?: () => number;
}

/**
 * Per-server sandbox settings in `<configDir>/sandbox.json` (Berth's config
 * folder is itself unreadable to sandboxed servers). A server that was never
 * set is absent: off, not offered. Saves are serialized and atomic; an
 * unusable file is moved aside with a warning, and saving stays refused when
 * even that failed (the person's choices are never silently replaced).
 */
export class SandboxSettingsStore {
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly filePath: string,
    private file: SandboxFile,
    private readonly saveBlocked: string | undefined,
  ) {}

  static async open(options: SandboxSettingsStoreOptions): Promise<SandboxSettingsStore> {
    const filePath = join(options.configDir, 'sandbox.json');
    const load = await loadStateFile(filePath, SandboxFileSchema, options.now ?? Date.now);
    if (load.kind === 'loaded') return new SandboxSettingsStore(filePath, load.data, undefined);
    if (load.kind === 'unusable') options.warn(`${load.message}; every server's sandbox setting is back to off`);
    return new SandboxSettingsStore(
      filePath,
      { version: 1, servers: {} },
      load.kind === 'unusable' ? load.saveBlocked : undefined,
    );
  }

  get(server: string): SandboxServerSettings {
    const stored = this.file.servers[server];
    return stored === undefined
      ? { ...DEFAULT_SANDBOX_SETTINGS, allowedFolders: [], allowedDomains: [] }
      : { ...stored, allowedFolders: [...stored.allowedFolders], allowedDomains: [...stored.allowedDomains] };
  }

  /** Servers with a stored setting. */
  servers(): string[] {
    return Object.keys(this.file.servers);
  }

  /** Replace one server's setting; resolves once it is on disk. */
  async set(server: string, settings: SandboxServerSettings): Promise<SandboxServerSettings> {
    const next = ServerSettingsSchema.parse({
      ...settings,
      allowedFolders: unique(settings.allowedFolders),
      allowedDomains: unique(settings.allowedDomains),
    });
    await this.save({ ...this.file, servers: { ...this.file.servers, [server]: next } });
    return this.get(server);
  }

  /** The server was removed: a new one of its name starts from the default. */
  async forget(server: string): Promise<void> {
    if (this.file.servers[server] === undefined) return;
    const servers = { ...this.file.servers };
    delete servers[server];
    await this.save({ ...this.file, servers });
  }

  /** The server was renamed: its setting follows it. */
  async rename(from: string, to: string): Promise<void> {
    const moved = this.file.servers[from];
    if (moved === undefined || from === to) return;
    const servers = { ...this.file.servers, [to]: moved };
    delete servers[from];
    await this.save({ ...this.file, servers });
  }

  /** Wait for pending saves. */
  flush(): Promise<void> {
    return this.writes;
  }

  private save(next: SandboxFile): Promise<void> {
    if (this.saveBlocked !== undefined)
      return Promise.reject(new Error(`sandbox settings cannot be saved: ${this.filePath} ${this.saveBlocked}`));
    this.file = next;
    const text = `${JSON.stringify(next, null, 2)}\n`;
    const write = this.writes.then(() => atomicWriteFile(this.filePath, text));
    this.writes = write.catch(() => undefined);
    return write;
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
