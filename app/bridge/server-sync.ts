import type { ConfigStatus } from '../../shared/domain/config';
import type { ServerConfig, ServerState } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { bridgeError } from '../../shared/domain/bridge-errors';
import type { EventHub } from '../events/event-hub';

/** What the sync reads from the config store. */
export interface SyncConfigSource {
  status(): ConfigStatus;
  servers(): Record<string, ServerConfig>;
}

/** What the sync drives on the supervisor. */
export interface SyncSupervisor {
  list(): ServerState[];
  sync(configs: Record<string, ServerConfig>): Promise<void>;
  remove(name: string): Promise<void>;
}

export interface ServerSyncOptions {
  config: SyncConfigSource;
  supervisor: SyncSupervisor;
  events: Pick<EventHub, 'emit'>;
  /** A removed server's process is gone: whatever was kept for it is forgotten (before `servers.removed` is announced). */
  serverRemoved(name: string): void;
  /** Background work (starting servers) failed; nobody is waiting for it. */
  onError(error: unknown): void;
}

export interface ApplyOptions {
  /** Names removed on purpose (removed or renamed by the person): never kept alive from the last good config. */
  forget?: readonly string[];
}

/**
 * Pushes the config into the supervisor. Removals are awaited (a removed
 * server's process tree is gone when `apply` resolves, and `servers.removed`
 * has been emitted); starts run in the background, since a server may take
 * its whole start-up timeout to become ready.
 *
 * The supervisor restarts a running server whose config changed, except
 * when only its `logLevel` changed or an `oauth.issuer` was pinned: those
 * are taken over live (`classifyConfigChange`).
 *
 * While the file is invalid, entries that are broken (or unreadable) keep
 * their last good config instead of being stopped: a typo in the config must
 * not take running servers down.
 */
export class ServerSync {
  private lastApplied: Record<string, ServerConfig> = {};
  private readonly removing = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(private readonly options: ServerSyncOptions) {}

  /** The config a server currently runs with, when its entry in the file is broken. */
  lastGoodConfig(name: string): ServerConfig | undefined {
    return Object.prototype.hasOwnProperty.call(this.lastApplied, name) ? this.lastApplied[name] : undefined;
  }

  async apply(options: ApplyOptions = {}): Promise<void> {
    if (this.stopped) throw HostError.coded('NOT_READY', bridgeError('bridge-errors.shutting-down', {}));
    const target = this.target(options.forget ?? []);
    const gone = this.options.supervisor
      .list()
      .map((state) => state.name)
      .filter((name) => !Object.prototype.hasOwnProperty.call(target, name));
    await Promise.all(gone.map((name) => this.remove(name)));
    if (this.stopped) return;
    this.lastApplied = target;
    // The supervisor decides synchronously; its promise settles when every start has finished.
    this.options.supervisor.sync(target).catch((error: unknown) => {
      if (!this.stopped) this.options.onError(error);
    });
    // Let the supervisor's queued starts mark their servers `starting` before callers read the state.
    await new Promise<void>((resolveTick) => setImmediate(resolveTick));
  }

  /** No more syncs: the host is shutting down. */
  stop(): void {
    this.stopped = true;
  }

  private target(forget: readonly string[]): Record<string, ServerConfig> {
    const valid = this.options.config.servers();
    const base = this.options.config.status().state === 'invalid' ? { ...this.lastApplied } : {};
    for (const name of forget) delete base[name];
    return { ...base, ...valid };
  }

  private remove(name: string): Promise<void> {
    const existing = this.removing.get(name);
    if (existing !== undefined) return existing;
    const removal = (async () => {
      try {
        await this.options.supervisor.remove(name);
      } catch (error) {
        // Someone else removed it first; they announce it.
        if (error instanceof HostError && error.code === 'NOT_FOUND') return;
        throw error;
      }
      this.options.serverRemoved(name);
      this.options.events.emit('servers.removed', { name });
    })().finally(() => this.removing.delete(name));
    this.removing.set(name, removal);
    return removal;
  }
}
