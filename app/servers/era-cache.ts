import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../shared/domain/server';
import type { LogSink } from '../logs/log-sink';
import { atomicWriteFile } from '../config/atomic-write';
import { loadStateFile } from '../config/state-file';
import { errorMessage } from '../../shared/error-message';

/**
 * A stale legacy verdict would hide a server's upgrade forever (an upgraded
 * server still answers `initialize`), so legacy verdicts are re-checked weekly.
 * A stale modern verdict fails loudly at connect and is cleared then.
 */
export const LEGACY_VERDICT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

const FILE_NAME = 'eras.json';

const EntrySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('modern'),
    fingerprint: z.string(),
    savedAt: z.number(),
    // Kept loose on purpose: the SDK validates a prior before adopting it, and
    // a DiscoverResult from a newer SDK may carry fields this one does not know.
    discover: z.looseObject({
      supportedVersions: z.array(z.string()),
      capabilities: z.record(z.string(), z.unknown()),
    }),
  }),
  z.object({ kind: z.literal('legacy'), fingerprint: z.string(), savedAt: z.number() }),
]);
type Entry = z.infer<typeof EntrySchema>;

const FileSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), EntrySchema) });

/** A verdict as the connection reports it after a successful negotiation. */
export type EraVerdict = { kind: 'modern'; discover: DiscoverResult } | { kind: 'legacy' };

/** Options for {@linkcode EraCache}. */
export interface EraCacheOptions {
  stateDir: string;
  logs: LogSink;
  now?: () => number;
  legacyMaxAgeMs?: number;
}

/**
 * Identifies "the same server" across runs: anything that could change which
 * program answers (command, args, cwd, which env keys are set). Env values are
 * left out so no secret ever reaches the state file.
 */
export function eraFingerprint(
  config: Pick<ServerConfig, 'command' | 'args' | 'cwd' | 'env' | 'url' | 'type'>,
): string {
  const material =
    config.url !== undefined
      ? JSON.stringify(['url', config.url, config.type ?? null])
      : JSON.stringify([config.command, config.args, config.cwd ?? null, Object.keys(config.env).sort()]);
  return createHash('sha256').update(material).digest('hex').slice(0, 32);
}

/**
 * Remembers each server's negotiated protocol era in `<stateDir>/eras.json`,
 * so a server is not probed again on every start. A corrupt file is moved
 * aside (never silently replaced) and the cache starts empty.
 */
export class EraCache {
  private entries = new Map<string, Entry>();
  private loading: Promise<void> | undefined;
  /** Writes are chained so two saves never interleave their renames. */
  private writing: Promise<void> = Promise.resolve();
  /** The write that has not started yet; saves asked for meanwhile join it. */
  private nextWrite: Promise<void> | undefined;
  /** Why the file on disk must not be written over (it could not be read or moved aside). */
  private saveBlocked: string | undefined;
  private readonly path: string;
  private readonly now: () => number;
  private readonly legacyMaxAgeMs: number;

  constructor(private readonly options: EraCacheOptions) {
    this.path = join(options.stateDir, FILE_NAME);
    this.now = options.now ?? Date.now;
    this.legacyMaxAgeMs = options.legacyMaxAgeMs ?? LEGACY_VERDICT_MAX_AGE_MS;
  }

  /** The file this cache persists to. */
  get filePath(): string {
    return this.path;
  }

  /** Read the file once; later calls return the same promise. Never rejects. */
  load(): Promise<void> {
    this.loading ??= this.readFromDisk();
    return this.loading;
  }

  /** The remembered verdict for this server and config, as a `connect({ prior })` value. */
  async get(name: string, config: ServerConfig): Promise<PriorDiscovery | undefined> {
    await this.load();
    const entry = this.entries.get(name);
    if (entry === undefined || entry.fingerprint !== eraFingerprint(config)) return undefined;
    if (entry.kind === 'legacy') {
      return this.now() - entry.savedAt > this.legacyMaxAgeMs ? undefined : { kind: 'legacy' };
    }
    return { kind: 'modern', discover: entry.discover as DiscoverResult };
  }

  /** Store the verdict of a full negotiation. */
  async remember(name: string, config: ServerConfig, verdict: EraVerdict): Promise<void> {
    await this.load();
    const fingerprint = eraFingerprint(config);
    const savedAt = this.now();
    const entry: Entry =
      verdict.kind === 'modern'
        ? {
            kind: 'modern',
            fingerprint,
            savedAt,
            discover: verdict.discover as Extract<Entry, { kind: 'modern' }>['discover'],
          }
        : { kind: 'legacy', fingerprint, savedAt };
    this.entries.set(name, entry);
    await this.save();
  }

  /**
   * Resolves once every save asked for so far is on disk (or reported as
   * failed). Servers are reported ready without waiting for their verdict's
   * write, so the host waits here before it exits.
   */
  async flush(): Promise<void> {
    // After the load, like `remember`: a save asked for just before has been queued by then.
    await this.load();
    await (this.nextWrite ?? this.writing);
  }

  /** Drop a server's verdict (it failed, or the server was removed). */
  async forget(name: string): Promise<void> {
    await this.load();
    if (!this.entries.delete(name)) return;
    await this.save();
  }

  private async readFromDisk(): Promise<void> {
    const loaded = await loadStateFile(this.path, FileSchema, this.now);
    if (loaded.kind === 'missing') return;
    if (loaded.kind === 'loaded') {
      this.entries = new Map(Object.entries(loaded.data.servers));
      return;
    }
    // Losing the cache only costs a probe per server, so even an unreadable file is no reason to stop;
    // but a file that stayed in place is never written over.
    this.saveBlocked = loaded.saveBlocked;
    if (loaded.movedTo !== undefined) {
      this.warn(
        `${this.path} is corrupt (${loaded.problem}); moved it to ${loaded.movedTo} and starting with an empty era cache`,
      );
    } else {
      this.warn(`${loaded.message}; protocol eras will be negotiated again and not saved until it is fixed`);
    }
  }

  /**
   * Writes the entries once the write under way (if any) is done. Saves asked
   * for while a write waits to start share it: it snapshots the entries when
   * it starts, so it carries every change made meanwhile. Fifty servers
   * becoming ready together cost two writes, not fifty in a row (each with two
   * fsyncs), which had kept the last of them from being ready for a while.
   */
  private save(): Promise<void> {
    if (this.saveBlocked !== undefined) return this.writing;
    if (this.nextWrite !== undefined) return this.nextWrite;
    const write = this.writing.then(() => {
      this.nextWrite = undefined;
      const snapshot = JSON.stringify({ version: 1, servers: Object.fromEntries(this.entries) }, null, 2);
      return atomicWriteFile(this.path, `${snapshot}\n`);
    });
    // A failed write only costs a probe on the next start: report it, keep going.
    this.writing = write.catch((error: unknown) => {
      this.warn(`could not save ${this.path}: ${errorMessage(error)}`);
    });
    this.nextWrite = this.writing;
    return this.writing;
  }

  private warn(text: string): void {
    this.options.logs.append({
      server: '',
      time: Date.now(),
      source: 'host',
      level: 'warning',
      text: `era cache: ${text}`,
    });
  }
}
