import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { SandboxPolicyView, SandboxServerSettingsView } from '../../shared/contract/sandbox';
import type { LogEntry } from '../../shared/domain/log';
import { deriveSandboxPolicy, describeSandboxPolicy, sandboxFitProblem } from '../../shared/domain/sandbox';
import type { SandboxDenial, SandboxPolicy, SandboxServerSettings, SandboxSupport } from '../../shared/domain/sandbox';
import type { ServerState } from '../../shared/domain/server';
import { ServerStartError } from '../../shared/domain/server-start-error';
import { errorMessage } from '../../shared/error-message';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import type { BerthPaths } from '../config/paths';
import type { EventHub } from '../events/event-hub';
import type { LogSink } from '../logs/log-sink';
import type { PrepareLaunch, ServerLaunch } from '../servers/server-launch';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import { sandboxError } from '../../shared/domain/sandbox-errors';
import {
  berthEntriesIn,
  domainAllowProblem,
  folderAllowProblem,
  folderRefusal,
  ownPortProblem,
} from './sandbox-allow-check';
import type { BerthPlaces } from './sandbox-allow-check';
import { RecentDenials, parseDenial, parseNetworkViolation } from './sandbox-denials';
import type { DeniedAccess } from './sandbox-denials';
import { ensureServerFolders, moveServerFolders, removeServerFolders, serverFolders } from './sandbox-folders';
import { sandboxedLaunch } from './sandbox-launch';
import { PlaceholderLedger, placeholderLedgerFile } from './sandbox-placeholders';
import type { LiveRun } from './sandbox-placeholders';
import { runtimePolicy } from './sandbox-writable';
import { watchToolErrors } from './sandbox-tool-errors';
import type { OpenConnection } from '../servers/connection-options';
import { acquireSandboxRuntime, sandboxSupport } from './sandbox-runtime';
import type { SandboxRuntime } from './sandbox-runtime';
import type { SandboxSettingsStore } from './sandbox-settings-store';
import { WrapTurns } from './wrap-turns';

/** The supervisor as the sandbox uses it (ServerSupervisor fits). */
export interface SandboxServers {
  list(): ServerState[];
  get(name: string): ServerState | undefined;
  restart(name: string): Promise<unknown>;
}

/** Options for {@linkcode SandboxService}. */
export interface SandboxServiceOptions {
  paths: Pick<BerthPaths, 'configDir' | 'secretsFile' | 'bundlesDir' | 'stateDir'>;
  settings: SandboxSettingsStore;
  servers: SandboxServers;
  /** The folders of the roots a server was given (exposed to it, allowed by the person, present on disk). */
  rootsOf(server: string): string[];
  events: Pick<EventHub, 'emit'>;
  logs: LogSink;
  reportError(what: string, error: unknown): void;
  /** Loopback ports Berth itself listens on now (browser mode's bridge, the apps' sandbox proxy): never open to a server. */
  ownPorts?: () => readonly number[];
  /** Test seams. */
  home?: string;
  support?: () => Promise<SandboxSupport>;
  runtime?: () => Promise<SandboxRuntime>;
}

/** One sandboxed start of a server. */
interface Run {
  commandId: string;
  /** The policy as the runtime got it: writable folders opened around home and closed paths (sandbox-writable.ts). */
  policy: SandboxPolicy;
  /** Its placeholders' record in the ledger. */
  ledgerKey: string;
  /** The ledger noted what the runtime created (at its first ready). */
  settled?: boolean;
  roots: string;
  release(): void;
  /** (kind, target) already reported in this run: a retry loop reports once. */
  reported: Set<string>;
  /** A restart for a new policy is on its way: further changes wait for the new run. */
  restarting?: boolean;
}

const LIVE = new Set<ServerState['status']>(['starting', 'ready', 'restarting']);

/**
 * The OS sandbox of local servers, behind one seam: {@linkcode wrap} turns
 * the host's launch preparer into one that runs sandboxed servers under
 * `@anthropic-ai/sandbox-runtime` with the policy derived from their roots,
 * own folders and the person's extra folders and domains. It also recognises
 * denials (stderr lines and the proxies' refusals), restarts sandboxed
 * servers whose policy changed, and serves the `sandbox.*` methods.
 */
export class SandboxService implements ServerLifecycleListener {
  private readonly runs = new Map<string, Run>();
  private readonly denials = new RecentDenials();
  private runtime: Promise<SandboxRuntime> | undefined;
  /** The check in flight or its answer: servers starting together share one (each costs ~15 ms of blocking spawns). */
  private supportCheck: Promise<SandboxSupport> | undefined;
  private supportSettled = false;
  private readonly wrapTurns = new WrapTurns();
  private readonly unsubscribe: Array<() => void> = [];
  private closed = false;
  private readonly placeholders: PlaceholderLedger;
  readonly home: string;

  constructor(private readonly options: SandboxServiceOptions) {
    this.home = options.home ?? homedir();
    this.placeholders = new PlaceholderLedger(placeholderLedgerFile(options.paths.stateDir), options.reportError);
    // Before any start: what the runs of a Berth that crashed left in the person's folders.
    this.placeholders.sweep();
  }

  /** Follow the roots (once they are open): a sandboxed server whose writable roots changed restarts. */
  watchRoots(subscribe: (listener: () => void) => () => void): void {
    this.unsubscribe.push(subscribe(() => this.rootsChanged()));
  }

  /** Whether this machine can sandbox; `fresh` asks again (the person may have installed what was missing). */
  supportNow(fresh = false): Promise<SandboxSupport> {
    // A fresh question joins a check still in flight: it started after whatever the person did before asking.
    if (this.supportCheck === undefined || (fresh && this.supportSettled)) {
      this.supportSettled = false;
      const check = (this.options.support ?? sandboxSupport)().finally(() => {
        if (this.supportCheck === check) this.supportSettled = true;
      });
      this.supportCheck = check;
    }
    return this.supportCheck;
  }

  /** The launch preparer with the sandbox applied to stdio servers set to run in it. */
  wrap(prepare: PrepareLaunch): PrepareLaunch {
    return async (name, config) => {
      const launch = await prepare(name, config);
      this.endRun(name);
      if (config.command === undefined || !this.options.settings.get(name).enabled) return launch;
      return this.sandboxed(name, launch);
    };
  }

  private async sandboxed(name: string, launch: ServerLaunch): Promise<ServerLaunch> {
    let support = await this.supportNow();
    // Asked again before refusing: what was missing may have been installed since.
    if (!support.available) support = await this.supportNow(true);
    if (!support.available) {
      // Never silently unsandboxed: the person set this server to run in the sandbox.
      const install = support.install === undefined ? '' : ` ${support.install}.`;
      throw new ServerStartError(
        `is set to run in the sandbox, which is unavailable here: ${support.reason ?? 'unknown reason'}.${install} It was not started without it; turn its sandbox off to run it unprotected.`,
        'config',
      );
    }
    const misfit = sandboxFitProblem(launch.config.command);
    if (misfit !== undefined)
      throw new ServerStartError(
        `is set to run in the sandbox, but ${misfit}. It was not started without it; turn its sandbox off to run it.`,
        'config',
      );
    const folders = serverFolders(this.options.paths.configDir, name);
    const roots = this.options.rootsOf(name);
    const policy = this.policyFor(name, roots);
    const ledgerKey = randomUUID();
    try {
      await ensureServerFolders(folders);
      const runPolicy = runtimePolicy(policy, this.home, this.options.paths.configDir);
      const runtime = await this.startRuntime();
      const wrapped = await this.wrapTurns.run(async () => {
        // Recorded before anything can create them: a crash after the spawn still finds them at the next start.
        this.placeholders.begin(ledgerKey, runPolicy);
        return sandboxedLaunch(runtime, launch, runPolicy, folders);
      });
      this.runs.set(name, {
        commandId: wrapped.commandId,
        policy: runPolicy,
        ledgerKey,
        roots: JSON.stringify(roots),
        release: wrapped.release,
        reported: new Set(),
      });
      this.log(
        name,
        'info',
        `runs in the sandbox: ${describeSandboxPolicy(policy, this.home, folders).network.toLowerCase()}; writes only to ${policy.allowWrite.length} folder(s)`,
      );
      for (const note of wrapped.leftOut) this.log(name, 'warning', note);
      for (const domain of this.options.settings.get(name).allowedDomains) {
        const problem = ownPortProblem(domain, this.ownPorts());
        if (problem !== undefined)
          this.log(name, 'warning', `${domain} is left out of what it may reach: ${problem.text}`);
      }
      for (const folder of this.options.settings.get(name).allowedFolders) {
        const problem = folderAllowProblem(folder, this.places);
        // Stored before Berth refused such folders, or written by hand: left out of the policy, and said.
        if (problem !== undefined)
          this.log(name, 'warning', `the folder ${folder} is left out of what it may write: ${problem}`);
        // The sandbox cannot bind what is not there: such a folder stays read-only for this run.
        else if (!existsSync(folder))
          this.log(
            name,
            'warning',
            `the folder it may write, ${folder}, does not exist: it stays read-only until it does and the server restarts`,
          );
      }
      return wrapped.launch;
    } catch (error) {
      this.placeholders.end(ledgerKey, this.liveRuns());
      if (error instanceof ServerStartError) throw error;
      throw new ServerStartError(
        `could not be put in the sandbox: ${errorMessage(error)}. It was not started without it.`,
        'config',
      );
    }
  }

  /**
   * Start checking the machine and loading the runtime and its proxies now
   * when some server will run sandboxed: they overlap the rest of the
   * host's start instead of delaying the first sandboxed server. Never
   * rejects (a start reports it).
   */
  warmUp(): void {
    if (!this.options.settings.servers().some((server) => this.options.settings.get(server).enabled)) return;
    void this.supportNow();
    this.startRuntime().catch(() => undefined);
  }

  private startRuntime(): Promise<SandboxRuntime> {
    this.runtime ??= (this.options.runtime ?? acquireSandboxRuntime)().then(
      (runtime) => {
        if (this.closed) return runtime;
        this.unsubscribe.push(runtime.onViolation((commandId, line) => this.violation(commandId, line)));
        return runtime;
      },
      (error: unknown) => {
        this.runtime = undefined;
        throw error;
      },
    );
    return this.runtime;
  }

  private ownPorts(): readonly number[] {
    return this.options.ownPorts?.() ?? [];
  }

  /** Home and Berth's config folder: what folders to write are checked against. */
  get places(): BerthPlaces {
    return { home: this.home, configDir: this.options.paths.configDir };
  }

  /** The policy a start of `server` gets now; a stored folder the host now refuses is left out. */
  policyFor(server: string, roots = this.options.rootsOf(server)): SandboxPolicy {
    const { paths } = this.options;
    const settings = this.options.settings.get(server);
    return deriveSandboxPolicy({
      home: this.home,
      roots,
      folders: serverFolders(paths.configDir, server),
      berthConfigDir: paths.configDir,
      berthReadable: [paths.bundlesDir],
      berthSecretFiles: [paths.secretsFile],
      berthEntries: berthEntriesIn(paths.configDir),
      settings: {
        ...settings,
        allowedFolders: settings.allowedFolders.filter(
          (folder) => folderAllowProblem(folder, this.places) === undefined,
        ),
        allowedDomains: settings.allowedDomains.filter(
          (domain) => ownPortProblem(domain, this.ownPorts()) === undefined,
        ),
      },
    });
  }

  view(server: string): SandboxServerSettingsView {
    const state = this.options.servers.get(server);
    return {
      server,
      applies: state === undefined || state.config.command !== undefined,
      ...this.options.settings.get(server),
    };
  }

  list(): SandboxServerSettingsView[] {
    return this.options.servers
      .list()
      .map((state) => this.view(state.name))
      .sort((a, b) => a.server.localeCompare(b.server));
  }

  policyView(server: string): SandboxPolicyView {
    this.requireServer(server);
    const policy = this.policyFor(server);
    return {
      server,
      settings: this.view(server),
      policy,
      words: describeSandboxPolicy(policy, this.home, serverFolders(this.options.paths.configDir, server)),
    };
  }

  /** Change what the person set; a running local server restarts when what it may do changed. */
  async update(server: string, patch: Partial<SandboxServerSettings>): Promise<SandboxServerSettingsView> {
    const state = this.requireServer(server);
    const before = this.options.settings.get(server);
    const next: SandboxServerSettings = { ...before, ...patch };
    if (patch.enabled === true && state.config.command === undefined)
      throw HostError.coded('INVALID_INPUT', sandboxError('sandbox-errors.local-only', {}), 'enabled');
    // The folders added are checked; one stored earlier and refused now is left out of the policy (policyFor), not a reason to refuse this change.
    const added = (patch.allowedFolders ?? []).filter((folder) => !before.allowedFolders.includes(folder));
    await this.refuseUnfit(next.enabled && !before.enabled, added, 'enabled', 'allowedFolders');
    this.refuseOwnPorts(
      (patch.allowedDomains ?? []).filter((domain) => !before.allowedDomains.includes(domain)),
      'allowedDomains',
    );
    const saved = await this.options.settings.set(server, next);
    const view = this.view(server);
    this.options.events.emit('sandbox.serverSettingsChanged', view);
    const changed =
      before.enabled !== saved.enabled ||
      (saved.enabled &&
        (String(before.allowedFolders) !== String(saved.allowedFolders) ||
          String(before.allowedDomains) !== String(saved.allowedDomains)));
    if (changed && state.config.command !== undefined && LIVE.has(state.status))
      this.restart(server, 'its sandbox setting changed');
    return view;
  }

  /**
   * The choice of an add or install review, stored before the server exists
   * (it is added right after). Refused like an update: unavailable, or a
   * folder that would defeat the sandbox, or a remote server (`local` false).
   */
  async preset(
    server: string,
    choice: { enabled: boolean; allowedFolders?: string[] | undefined; allowedDomains?: string[] | undefined },
    local = true,
  ): Promise<void> {
    if (choice.enabled && !local)
      throw HostError.coded('INVALID_INPUT', sandboxError('sandbox-errors.local-only', {}), 'sandbox');
    const allowedFolders = choice.allowedFolders ?? [];
    await this.refuseUnfit(choice.enabled, allowedFolders, 'sandbox', 'sandbox');
    this.refuseOwnPorts(choice.allowedDomains ?? [], 'sandbox');
    await this.options.settings.set(server, {
      enabled: choice.enabled,
      allowedFolders,
      allowedDomains: choice.allowedDomains ?? [],
      offered: true,
    });
    this.options.events.emit('sandbox.serverSettingsChanged', {
      server,
      applies: true,
      ...this.options.settings.get(server),
    });
  }

  /** The add that followed a preset failed: nothing of it stays. */
  async forgetPreset(server: string): Promise<void> {
    await this.options.settings.forget(server);
  }

  /**
   * One click from a denial: allow that folder or domain. Checked as every
   * folder is, and never this computer, a private network or a metadata
   * service (a denial may be forged by the server to ask for exactly that).
   */
  async allow(server: string, item: { folder: string } | { domain: string }): Promise<SandboxServerSettingsView> {
    const current = this.options.settings.get(server);
    if ('domain' in item) {
      const problem = domainAllowProblem(item.domain);
      if (problem !== undefined) throw HostError.coded('FORBIDDEN', problem, 'domain');
      return this.update(server, { allowedDomains: [...current.allowedDomains, item.domain] });
    }
    const refused = folderRefusal(item.folder, this.places);
    if (refused !== undefined) throw HostError.coded('FORBIDDEN', refused, 'folder');
    return this.update(server, { allowedFolders: [...current.allowedFolders, item.folder] });
  }

  recentDenials(server: string): SandboxDenial[] {
    return this.denials.recent(server);
  }

  /** Connections whose failed tool calls are read for denials (servers that answer the error instead of logging it). */
  watchConnections(open: OpenConnection): OpenConnection {
    return watchToolErrors(open, (server, text) => this.sawText(server, text));
  }

  private sawText(server: string, text: string): void {
    const run = this.runs.get(server);
    if (run === undefined) return;
    for (const line of text.split('\n')) {
      const access = parseDenial(line, run.policy);
      if (access !== undefined) this.denied(server, run, access);
    }
  }

  /** Log batches: stderr lines of sandboxed servers are read for denials. */
  sawLogs(entries: ReadonlyArray<Pick<LogEntry, 'server' | 'source' | 'text'>>): void {
    for (const entry of entries) {
      if (entry.source === 'stderr') this.sawText(entry.server, entry.text);
    }
  }

  serverChanged(state: ServerState): void {
    const run = this.runs.get(state.name);
    if (run !== undefined && state.status === 'ready' && run.settled !== true) {
      // bubblewrap has made its mount points by now: note which exist, so a file made there later is never taken for one.
      run.settled = true;
      this.placeholders.started(run.ledgerKey);
    }
    // A failed start's reason may be the denial itself (it exited saying so).
    if (run !== undefined && (state.status === 'error' || state.status === 'crashed')) {
      const access = parseDenial(state.reason, run.policy);
      if (access !== undefined) this.denied(state.name, run, access);
    }
    if (state.status === 'stopped' || state.status === 'error') this.endRun(state.name);
  }

  serverRemoved(server: string): void {
    this.endRun(server);
    this.denials.forget(server);
    this.options.settings
      .forget(server)
      .then(() => removeServerFolders(serverFolders(this.options.paths.configDir, server)))
      .then(() =>
        this.options.events.emit('sandbox.serverSettingsChanged', {
          server,
          applies: true,
          ...this.options.settings.get(server),
        }),
      )
      .catch((error: unknown) =>
        this.options.reportError(`forgetting the sandbox setting of '${server}' failed`, error),
      );
  }

  /** A rename: the setting and the folders follow the server. */
  async renameServer(from: string, to: string): Promise<void> {
    await this.options.settings.rename(from, to);
    await moveServerFolders(
      serverFolders(this.options.paths.configDir, from),
      serverFolders(this.options.paths.configDir, to),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const dispose of this.unsubscribe.splice(0)) dispose();
    for (const name of [...this.runs.keys()]) this.endRun(name);
    const runtime = this.runtime;
    this.runtime = undefined;
    await this.options.settings.flush();
    if (runtime !== undefined) await (await runtime.catch(() => undefined))?.release();
  }

  /** Refuses turning the sandbox on where it is unavailable, and any folder that would defeat it; `*Path` name the failing field. */
  private async refuseUnfit(
    turningOn: boolean,
    allowedFolders: readonly string[],
    enabledPath: string,
    foldersPath: string,
  ): Promise<void> {
    if (turningOn) {
      const support = await this.supportNow(true);
      if (!support.available)
        throw HostError.coded(
          'FORBIDDEN',
          support.install === undefined
            ? sandboxError('sandbox-errors.unavailable', { reason: support.reason ?? 'unknown reason' })
            : sandboxError('sandbox-errors.unavailable-install', {
                reason: support.reason ?? 'unknown reason',
                install: support.install,
              }),
          enabledPath,
        );
    }
    for (const folder of allowedFolders) {
      const refused = folderRefusal(folder, this.places);
      if (refused !== undefined) throw HostError.coded('INVALID_INPUT', refused, foldersPath);
    }
  }

  /** Refuses a domain that names a port Berth listens on; `path` names the failing field. */
  private refuseOwnPorts(domains: readonly string[], path: string): void {
    for (const domain of domains) {
      const problem = ownPortProblem(domain, this.ownPorts());
      if (problem !== undefined) throw HostError.coded('FORBIDDEN', problem, path);
    }
  }

  private requireServer(server: string): ServerState {
    const state = this.options.servers.get(server);
    if (state === undefined)
      throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name: server }), 'server');
    return state;
  }

  private endRun(server: string): void {
    const run = this.runs.get(server);
    if (run === undefined) return;
    this.runs.delete(server);
    run.release();
    this.placeholders.end(run.ledgerKey, this.liveRuns());
  }

  private liveRuns(): LiveRun[] {
    return [...this.runs.values()].map((run) => ({ key: run.ledgerKey, allowWrite: run.policy.allowWrite }));
  }

  private violation(commandId: string | undefined, line: string): void {
    if (commandId === undefined) return;
    for (const [server, run] of this.runs) {
      if (run.commandId !== commandId) continue;
      const access = parseNetworkViolation(line);
      if (access !== undefined) this.denied(server, run, access);
      return;
    }
  }

  private denied(server: string, run: Run, access: DeniedAccess): void {
    const key = `${access.kind} ${access.target}`;
    if (run.reported.has(key)) return;
    run.reported.add(key);
    const denial = this.denials.record(server, access, this.places);
    this.log(server, 'warning', denial.message);
    this.options.events.emit('sandbox.denied', denial);
  }

  /** Roots changed: a sandboxed server whose writable roots are no longer what it started with restarts. */
  private rootsChanged(): void {
    if (this.closed) return;
    for (const [server, run] of this.runs) {
      if (run.restarting === true || JSON.stringify(this.options.rootsOf(server)) === run.roots) continue;
      run.restarting = true;
      this.restart(server, 'the folders it was given changed');
    }
  }

  private restart(server: string, why: string): void {
    this.log(server, 'info', `restarting it in the sandbox: ${why}`);
    // After the current event (a roots answer on its way out, a settings reply): the restart must not cut it off.
    setTimeout(() => {
      if (this.closed) return;
      this.options.servers
        .restart(server)
        .catch((error: unknown) => this.options.reportError(`restarting '${server}' for its sandbox failed`, error));
    }, 50);
  }

  private log(server: string, level: 'info' | 'warning', text: string): void {
    this.options.logs.append({ server, time: Date.now(), source: 'host', level, text });
  }
}
