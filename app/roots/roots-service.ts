import type { Client } from '@modelcontextprotocol/client';
import type { FolderListing, RootsView } from '../../shared/contract/roots';
import type { PendingWithdrawal } from '../../shared/domain/pending';
import type { RootConsentResponse, RootsChange, RootView } from '../../shared/domain/roots';
import type { ServerState } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import { rootError } from '../../shared/domain/root-errors';
import type { EventHub } from '../events/event-hub';
import { readableSignal } from '../servers/readable-signal';
import type { LogSink } from '../logs/log-sink';
import type { PendingRequests } from '../pending/pending-requests';
import { listFolders } from './folder-browser';
import type { FolderBrowserOptions } from './folder-browser';
import { RootsConsent } from './roots-consent';
import { serverIdentity } from '../consent/approval-fingerprint';
import type { ServerEdit } from '../consent/consent-broker';
import { createRootsListHandler } from './roots-handler';
import { RootsStore } from './roots-store';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import { errorMessage } from '../../shared/error-message';
import { pendingError } from '../../shared/domain/pending-errors';

/** How often root folders are looked at again, so one deleted meanwhile is flagged (and its servers told). */
export const DEFAULT_ROOTS_CHECK_MS = 30_000;

/** The supervisor as roots use it (ServerSupervisor fits). */
export interface RootsServers {
  list(): ServerState[];
  get(name: string): ServerState | undefined;
  /** Whether `client` belongs to the server's live connection (one restarted or stopped meanwhile does not). */
  isCurrentClient(name: string, client: Client): boolean;
  /** Tell a ready server its roots changed; undefined (nothing sent) when it is not ready. */
  notifyRootsChanged(name: string): Promise<void> | undefined;
  /** Used to take a root away from a server that may ignore an empty list (see {@linkcode RootsService}). */
  restart(name: string): Promise<unknown>;
}

/** Options for {@linkcode RootsService.open}. */
export interface RootsServiceOptions {
  stateDir: string;
  shell: 'electron' | 'browser';
  servers: RootsServers;
  /** Servers in the config, whether running or not: their visible roots are tracked for change notices. */
  knownServers: () => Iterable<string>;
  /** Where "may this server see these roots?" waits for the person. */
  pending: PendingRequests;
  events: Pick<EventHub, 'emit'>;
  logs: LogSink;
  /** The system folder dialog (Electron); absent in browser mode. */
  pickFolder?: () => Promise<string | null>;
  /** Milliseconds between disk checks (default {@linkcode DEFAULT_ROOTS_CHECK_MS}); 0 turns them off. */
  checkIntervalMs?: number;
  /** Options for the folder browser (tests point `home` somewhere known). */
  browser?: FolderBrowserOptions;
  /** A message for the person about the roots file. */
  warn(text: string): void;
  /** Background work failed with nobody waiting for it. */
  reportError(what: string, error: unknown): void;
}

/**
 * Roots in the host: the store (state/roots.json), asking the person before a
 * server first sees a root (a 'root-consent' pending request), answering each
 * server's `roots/list`, and telling exactly the servers whose roots changed
 * with `notifications/roots/list_changed`.
 *
 * Taking the LAST root away from a server is not left to the notice alone:
 * servers may keep the folders they had when the list they get back is empty
 * (server-filesystem does, treating it as "no valid roots"), so a server whose
 * answer goes from some roots to none is restarted, and starts with nothing.
 */
export class RootsService implements ServerLifecycleListener {
  readonly consent: RootsConsent;
  private readonly listRoots: ReturnType<typeof createRootsListHandler>;
  private readonly timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** How many roots each live client was last given: going from some to none means a restart. */
  private readonly given = new WeakMap<Client, number>();

  private constructor(
    readonly store: RootsStore,
    private readonly options: RootsServiceOptions,
  ) {
    this.consent = new RootsConsent(store, (server) => {
      const state = options.servers.get(server);
      return state === undefined ? undefined : serverIdentity(state.config);
    });
    this.listRoots = createRootsListHandler({
      store,
      consent: this.consent,
      ask: (server, roots, signal) => this.ask(server, roots, signal),
    });
    store.onChange((change) => this.changed(change));
    const interval = options.checkIntervalMs ?? DEFAULT_ROOTS_CHECK_MS;
    if (interval > 0) {
      this.timer = setInterval(() => {
        store.check().catch((error: unknown) => options.reportError('checking the root folders failed', error));
      }, interval);
      this.timer.unref();
    }
  }

  /** Read roots.json and look at every root folder. */
  static async open(options: RootsServiceOptions): Promise<RootsService> {
    const store = await RootsStore.open({
      stateDir: options.stateDir,
      warn: options.warn,
      knownServers: options.knownServers,
    });
    return new RootsService(store, options);
  }

  /** What the roots screen shows. */
  view(): RootsView {
    const servers = new Set([...this.options.knownServers(), ...this.options.servers.list().map((s) => s.name)]);
    const exposure: RootsView['exposure'] = {};
    const consent: RootsView['consent'] = {};
    for (const server of [...servers].sort()) {
      const limited = this.store.exposure(server);
      if (limited !== 'all') exposure[server] = limited;
      const answers = this.consent.answersFor(server);
      if (answers.allowed.length > 0 || answers.denied.length > 0) consent[server] = answers;
    }
    return { roots: this.store.list(), exposure, consent };
  }

  /** NOT_FOUND unless `name` is a configured (or still running) server: a typo must not leave an invisible setting behind. */
  requireServer(name: string): void {
    const known = [...this.options.knownServers()].includes(name) || this.options.servers.get(name) !== undefined;
    if (!known) throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name }), 'server');
  }

  /** Look at the disk again, then the view (a deleted folder comes back flagged). */
  async refresh(): Promise<RootsView> {
    await this.store.check();
    return this.view();
  }

  browse(path: string | undefined): Promise<FolderListing> {
    return listFolders(path, this.options.browser);
  }

  /** The system folder dialog; null when the person cancelled. */
  async pickFolder(): Promise<string | null> {
    const { pickFolder, shell } = this.options;
    if (pickFolder === undefined) {
      throw HostError.coded(
        'NOT_READY',
        rootError('root-errors.no-folder-dialog', { shell: shell === 'browser' ? 'browser' : 'window' }),
      );
    }
    return pickFolder();
  }

  /** Part of the supervisor's `clientSetup`: declare roots (with change notices) and answer `roots/list`. */
  readonly clientSetup = (server: string, client: Client): void => {
    client.registerCapabilities({ roots: { listChanged: true } });
    client.setRequestHandler('roots/list', async (_request, ctx) => {
      const answer = await this.listRoots(server, readableSignal(server, ctx.mcpReq.signal));
      const before = this.given.get(client) ?? 0;
      this.given.set(client, answer.roots.length);
      if (before > 0 && answer.roots.length === 0) this.revokeByRestart(server, client);
      return answer;
    });
  };

  /** The server left the config: its exposure and answers go with it. */
  serverRemoved(name: string): void {
    this.store
      .forgetServer(name)
      .catch((error: unknown) => this.options.reportError(`forgetting the roots answers of '${name}' failed`, error));
  }

  /**
   * The person edited a server's command or address in Berth and kept its
   * approvals: its answers now belong to the new one. (A rename is a removal
   * for roots: the new name is asked again.)
   */
  async serverEdited(edit: ServerEdit): Promise<void> {
    if (edit.keep && edit.from === edit.to && edit.fromIdentity !== edit.toIdentity)
      await this.consent.rebind(edit.from, edit.fromIdentity, edit.toIdentity);
  }

  /** Stop checking the disk and wait for pending saves of roots.json. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.store.flush();
  }

  private ask(
    server: string,
    roots: RootView[],
    signal?: AbortSignal,
  ): Promise<RootConsentResponse | PendingWithdrawal> {
    const asked = new Set(roots.map((r) => r.id));
    this.log(
      server,
      'info',
      `asks for its roots; asking the person about ${roots.length === 1 ? `'${roots[0]?.name}'` : `${roots.length} roots`}`,
    );
    return this.options.pending.open(
      'root-consent',
      server,
      { roots: roots.map(({ id, name, path }) => ({ id, name, path })) },
      {
        ...(signal !== undefined ? { signal } : {}),
        validate: (answer) => {
          const unknown = answer.allow.filter((id) => !asked.has(id));
          return unknown.length === 0
            ? undefined
            : pendingError('pending-errors.roots-not-asked', { ids: unknown.join(', ') });
        },
      },
    );
  }

  private changed(change: RootsChange): void {
    if (this.closed) return;
    this.options.events.emit('roots.changed', this.view());
    for (const server of change.servers) {
      // The 2026-07-28 revision has no roots notice: such a server asks in each input_required round, so it always gets the current list.
      const state = this.options.servers.get(server);
      if (state?.status === 'ready' && state.era === 'modern') continue;
      // Undefined: the server is not running, and asks for its roots when it next starts.
      this.options.servers.notifyRootsChanged(server)?.then(
        () => this.log(server, 'info', 'told that its roots changed'),
        (error: unknown) =>
          this.log(server, 'warning', `could not be told that its roots changed: ${errorMessage(error)}`),
      );
    }
  }

  /** After the empty answer has gone out: a fresh process knows no folders at all. */
  private revokeByRestart(server: string, client: Client): void {
    this.log(
      server,
      'warning',
      'no longer sees any root; restarting it so it cannot keep folders it was given before (servers may ignore an empty roots list)',
    );
    setImmediate(() => {
      // Already replaced (restarted or stopped meanwhile): nothing left to revoke.
      if (this.closed || !this.options.servers.isCurrentClient(server, client)) return;
      this.options.servers
        .restart(server)
        .catch((error: unknown) =>
          this.options.reportError(`restarting '${server}' to take its roots away failed`, error),
        );
    });
  }

  private log(server: string, level: 'info' | 'warning', text: string): void {
    this.options.logs.append({ server, time: Date.now(), source: 'host', level, text });
  }
}
