import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { HostError } from '../../shared/result';
import { RootsFileSchema } from '../../shared/domain/roots';
import type { Root, RootConsent, RootExposure, RootsChange, RootsFile, RootView } from '../../shared/domain/roots';
import { atomicWriteFile } from '../config/atomic-write';
import { loadStateFile } from '../config/state-file';
import { normalizeRootPath } from './file-uri';
import { checkName, defaultName } from './root-names';
import { broadFolderWarning, checkRootFolder, probeFolder, realFolder } from './root-folders';
import { rootError } from '../../shared/domain/root-errors';
import type { FolderCheck, UnusableFolder } from './root-folders';
import { errorMessage } from '../../shared/error-message';

/** Options for {@linkcode RootsStore.open}. */
export interface RootsStoreOptions {
  /** `roots.json` lives here. */
  stateDir: string;
  /** A message for the person (corrupt file moved aside, unusable entry dropped). */
  warn: (text: string) => void;
  /** Which path flavour roots use (default `process.platform`). */
  platform?: NodeJS.Platform;
  /** Servers to consider when working out whose visible roots changed (e.g. every configured server). */
  knownServers?: () => Iterable<string>;
  /** The person's home folder (default `os.homedir()`): sharing it, or a folder holding it, needs `confirmBroad`. */
  home?: string;
  now?: () => number;
  newId?: () => string;
}

const EMPTY: RootsFile = { version: 1, roots: [], exposure: {}, consent: {} };

/**
 * The person's roots, which server may see which, and what they answered when
 * asked. Every change is saved atomically to `<stateDir>/roots.json` before it
 * takes effect, and listeners hear which servers' visible roots changed so the
 * host can send `notifications/roots/list_changed` to exactly those.
 */
export class RootsStore {
  readonly filePath: string;
  private file: RootsFile = EMPTY;
  /** Root id → why it is unusable (and where its link leads now, if that changed); absent = fine at the last check. */
  private readonly problems = new Map<string, Extract<FolderCheck, { ok: false }>>();
  /** Servers that asked for their roots; they care about changes even if not configured here. */
  private readonly seenServers = new Set<string>();
  private readonly listeners = new Set<(change: RootsChange) => void>();
  private readonly platform: NodeJS.Platform;
  private readonly now: () => number;
  private readonly newId: () => string;
  private queue: Promise<unknown> = Promise.resolve();
  private saveBlocked: string | undefined;
  /** Roots removed since start-up, with where they were listed, so Undo brings back exposure and answers too. */
  private readonly removedRoots = new Map<
    string,
    { root: Root; index: number; exposedTo: string[]; allowedBy: string[]; deniedBy: string[] }
  >();

  private constructor(private readonly options: RootsStoreOptions) {
    this.filePath = join(options.stateDir, 'roots.json');
    this.platform = options.platform ?? process.platform;
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
  }

  /** Read roots.json and check every folder. Never rejects for a bad file (it is moved aside and reported). */
  static async open(options: RootsStoreOptions): Promise<RootsStore> {
    const store = new RootsStore(options);
    await store.load();
    await store.probeAll();
    return store;
  }

  /** Every root, oldest first, flagged as last checked. */
  list(): RootView[] {
    return this.file.roots.map((root) => this.view(root));
  }

  get(id: string): RootView | undefined {
    const root = this.file.roots.find((r) => r.id === id);
    return root === undefined ? undefined : this.view(root);
  }

  /**
   * Add a folder, stored as its real path (links resolved; the picked path is
   * kept beside it when they differ). NOT_FOUND if it does not exist,
   * INVALID_INPUT if it is not a folder or the path is not
   * absolute/normalized, FORBIDDEN if it cannot be read, CONFLICT if it is a
   * root already, INVALID_INPUT at `confirmBroad` for `/` or the home folder
   * (see broadFolderWarning) unless `confirmBroad` is set.
   */
  add(
    path: string,
    name?: string,
    { confirmBroad = false }: { confirmBroad?: boolean | undefined } = {},
  ): Promise<RootView> {
    return this.serialize(async () => {
      const normalized = normalizeRootPath(path, this.platform);
      const finalName = checkName(name ?? defaultName(normalized));
      const probe = await probeFolder(normalized);
      if (!probe.ok) throw unusable(probe, 'root-errors.cannot-add', 'path');
      const real = (await realFolder(normalized, this.platform)) ?? normalized;
      const existing = this.file.roots.find((r) => r.path === real);
      if (existing !== undefined)
        throw HostError.coded(
          'CONFLICT',
          rootError('root-errors.already-root', { path: real, name: existing.name }),
          'path',
        );
      await this.requireBroadConfirmed(real, confirmBroad);
      const root: Root = {
        id: this.newId(),
        path: real,
        ...(real === normalized ? {} : { linkPath: normalized }),
        name: finalName,
        addedAt: this.now(),
      };
      await this.commit({ ...this.file, roots: [...this.file.roots, root] });
      return this.view(root);
    });
  }

  /** Remove a root; servers stop seeing it, and their answers about it are forgotten. */
  remove(id: string): Promise<void> {
    return this.serialize(async () => {
      const root = this.require(id);
      const drop = (ids: string[]) => ids.filter((x) => x !== id);
      const serversWhere = (has: (server: string) => boolean) =>
        Object.keys({ ...this.file.exposure, ...this.file.consent }).filter(has);
      const removed = {
        root,
        index: this.file.roots.indexOf(root),
        exposedTo: serversWhere((server) => this.exposedIds(server)?.includes(id) === true),
        allowedBy: serversWhere((server) => this.file.consent[server]?.allowed.includes(id) === true),
        deniedBy: serversWhere((server) => this.file.consent[server]?.denied.includes(id) === true),
      };
      const exposure = Object.fromEntries(
        Object.entries(this.file.exposure).map(([server, e]): [string, RootExposure] => [
          server,
          e === 'all' ? e : drop(e),
        ]),
      );
      const consent = Object.fromEntries(
        Object.entries(this.file.consent).map(([server, c]): [string, RootConsent] => [
          server,
          { ...c, allowed: drop(c.allowed), denied: drop(c.denied) },
        ]),
      );
      await this.commit({ ...this.file, roots: this.file.roots.filter((r) => r.id !== id), exposure, consent });
      this.problems.delete(id);
      this.removedRoots.set(id, removed);
    });
  }

  /**
   * Undo a removal made since start-up: the same id, place in the list,
   * per-server exposure and answers, so nobody is asked again. A folder gone
   * meanwhile comes back flagged. CONFLICT if its path was added again.
   */
  restore(id: string): Promise<RootView> {
    return this.serialize(async () => {
      const removed = this.removedRoots.get(id);
      if (removed === undefined) throw HostError.coded('NOT_FOUND', rootError('root-errors.not-removed', { id }), 'id');
      const clash = this.file.roots.find((r) => r.path === removed.root.path);
      if (clash !== undefined)
        throw HostError.coded(
          'CONFLICT',
          rootError('root-errors.root-again', { path: clash.path, name: clash.name }),
          'id',
        );
      const probe = await checkRootFolder(removed.root, this.platform);
      if (probe.ok) this.problems.delete(id);
      else this.problems.set(id, probe);
      const roots = [...this.file.roots];
      roots.splice(Math.min(removed.index, roots.length), 0, removed.root);
      const addTo = (ids: string[], server: string, servers: string[]) =>
        servers.includes(server) ? [...ids, id] : ids;
      const exposure = Object.fromEntries(
        Object.entries(this.file.exposure).map(([server, e]): [string, RootExposure] => [
          server,
          e === 'all' ? e : addTo(e, server, removed.exposedTo),
        ]),
      );
      const consent = Object.fromEntries(
        Object.entries(this.file.consent).map(([server, c]): [string, RootConsent] => [
          server,
          {
            ...c,
            allowed: addTo(c.allowed, server, removed.allowedBy),
            denied: addTo(c.denied, server, removed.deniedBy),
          },
        ]),
      );
      await this.commit({ ...this.file, roots, exposure, consent });
      this.removedRoots.delete(id);
      return this.view(removed.root);
    });
  }

  /**
   * The person confirmed the folder a root's link leads to now: it is shared
   * at its new real path, and servers see it again (each is told).
   */
  confirmTarget(id: string, { confirmBroad = false }: { confirmBroad?: boolean | undefined } = {}): Promise<RootView> {
    return this.serialize(async () => {
      const root = this.require(id);
      const picked = root.linkPath ?? root.path;
      const probe = await probeFolder(picked);
      if (!probe.ok) throw unusable(probe, 'root-errors.cannot-share-new', 'id');
      const real = (await realFolder(picked, this.platform)) ?? picked;
      const clash = this.file.roots.find((r) => r.path === real && r.id !== id);
      if (clash !== undefined)
        throw HostError.coded(
          'CONFLICT',
          rootError('root-errors.already-root', { path: real, name: clash.name }),
          'id',
        );
      await this.requireBroadConfirmed(real, confirmBroad);
      const next: Root = {
        id,
        path: real,
        ...(real === picked ? {} : { linkPath: picked }),
        name: root.name,
        addedAt: root.addedAt,
      };
      // Saved while still held back, then released: the servers that see it hear of the change once it is usable.
      await this.commit({ ...this.file, roots: this.file.roots.map((r) => (r.id === id ? next : r)) });
      const before = this.visibleKeys();
      this.problems.delete(id);
      this.emitChanges(before);
      return this.view(next);
    });
  }

  rename(id: string, name: string): Promise<RootView> {
    return this.serialize(async () => {
      this.require(id);
      const finalName = checkName(name);
      const roots = this.file.roots.map((r) => (r.id === id ? { ...r, name: finalName } : r));
      await this.commit({ ...this.file, roots });
      return this.view(this.require(id));
    });
  }

  /** Which roots `server` may see (default `'all'`). */
  exposure(server: string): RootExposure {
    const ids = this.exposedIds(server);
    return ids === undefined ? 'all' : [...ids];
  }

  /** Let `server` see every root, or only the listed ones (NOT_FOUND for an unknown id). */
  setExposure(server: string, exposure: RootExposure): Promise<void> {
    return this.serialize(async () => {
      if (server === '')
        throw HostError.coded('INVALID_INPUT', rootError('root-errors.server-name-missing', {}), 'server');
      const next = { ...this.file.exposure };
      if (exposure === 'all') delete next[server];
      else {
        for (const id of exposure) this.require(id);
        next[server] = [...new Set(exposure)];
      }
      await this.commit({ ...this.file, exposure: next });
    });
  }

  /** The roots `server` may see, flagged roots included (callers that hand roots out skip `missing`). */
  rootsFor(server: string): RootView[] {
    this.seenServers.add(server);
    const ids = this.exposedIds(server);
    const roots = ids === undefined ? this.file.roots : this.file.roots.filter((r) => ids.includes(r.id));
    return roots.map((root) => this.view(root));
  }

  /** Look at every root folder again; roots whose folder disappeared (or came back) are re-flagged and listeners told. */
  check(): Promise<RootView[]> {
    return this.serialize(async () => {
      const before = this.visibleKeys();
      const flagsBefore = JSON.stringify([...this.problems].sort());
      await this.probeAll();
      // roots/list runs a check each time; stay quiet unless a flag actually changed.
      if (JSON.stringify([...this.problems].sort()) !== flagsBefore) this.emitChanges(before);
      return this.list();
    });
  }

  /** What the person answered about `server` seeing roots. */
  consentFor(server: string): RootConsent {
    const c = this.file.consent[server];
    return {
      allowed: [...(c?.allowed ?? [])],
      denied: [...(c?.denied ?? [])],
      ...(c?.identity !== undefined ? { identity: c.identity } : {}),
    };
  }

  /** Remember answers: a later one about a root replaces an earlier one, unknown ids are ignored, answers to another server identity dropped. */
  recordConsent(server: string, answer: RootConsent): Promise<void> {
    return this.serialize(async () => {
      const known = new Set(this.file.roots.map((r) => r.id));
      const answered = new Set([...answer.allowed, ...answer.denied]);
      const stored = this.consentFor(server);
      const current = stored.identity === answer.identity ? stored : { allowed: [], denied: [] };
      const keep = (ids: string[]) => ids.filter((id) => !answered.has(id));
      const next: RootConsent = {
        allowed: [...keep(current.allowed), ...answer.allowed.filter((id) => known.has(id))],
        denied: [
          ...keep(current.denied),
          ...answer.denied.filter((id) => known.has(id) && !answer.allowed.includes(id)),
        ],
        ...(answer.identity !== undefined ? { identity: answer.identity } : {}),
      };
      await this.commit({ ...this.file, consent: { ...this.file.consent, [server]: next } });
    });
  }

  /**
   * Forget the person's answers for `server` (all, or only about `rootIds`) so
   * it is asked again; listeners hear that this server's roots changed so it
   * re-lists them (and the question comes up).
   */
  resetConsent(server: string, rootIds?: string[]): Promise<void> {
    return this.serialize(async () => {
      const current = this.consentFor(server);
      const forget = (ids: string[]) => (rootIds === undefined ? [] : ids.filter((id) => !rootIds.includes(id)));
      const consent = {
        ...this.file.consent,
        [server]: { ...current, allowed: forget(current.allowed), denied: forget(current.denied) },
      };
      await this.commit({ ...this.file, consent }, [server]);
    });
  }

  /** The server was removed from the config: drop its exposure and answers. */
  forgetServer(server: string): Promise<void> {
    return this.serialize(async () => {
      this.seenServers.delete(server);
      // Most servers have nothing stored: no write then (removing a server should not touch roots.json needlessly).
      if (!(server in this.file.exposure) && !(server in this.file.consent)) return;
      const exposure = { ...this.file.exposure };
      const consent = { ...this.file.consent };
      delete exposure[server];
      delete consent[server];
      await this.commit({ ...this.file, exposure, consent });
    });
  }

  /** Resolves once every change asked for so far is saved (or has failed); for a clean shutdown. */
  async flush(): Promise<void> {
    await this.queue;
  }

  /** Hear every change, with the servers whose visible roots changed. Returns an unsubscribe function. */
  onChange(listener: (change: RootsChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The root ids `server` is limited to; undefined = every root. */
  private exposedIds(server: string): string[] | undefined {
    const value = this.file.exposure[server];
    return value === undefined || value === 'all' ? undefined : value;
  }

  private require(id: string): Root {
    const root = this.file.roots.find((r) => r.id === id);
    if (root === undefined) throw HostError.coded('NOT_FOUND', rootError('root-errors.not-found', { id }), 'id');
    return root;
  }

  private view(root: Root): RootView {
    const found = this.problems.get(root.id);
    if (found === undefined) return { ...root, missing: false };
    return {
      ...root,
      missing: true,
      problem: found.problem,
      problemMessage: found.problemMessage,
      ...('retarget' in found ? { retarget: found.retarget } : {}),
    };
  }

  /** `/`, the home folder or a folder holding it is shared only on an explicit yes (the renderer asks, then sends `confirmBroad`). */
  private async requireBroadConfirmed(real: string, confirmed: boolean): Promise<void> {
    if (confirmed) return;
    const warning = await broadFolderWarning(real, this.platform, this.options.home);
    if (warning !== undefined) throw HostError.coded('INVALID_INPUT', warning, 'confirmBroad');
  }

  /** Mutations run one at a time so that each saves on top of the last. */
  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Save `next`, then adopt it and tell listeners; on a failed save nothing changes. */
  private async commit(next: RootsFile, alsoChanged: string[] = []): Promise<void> {
    if (this.saveBlocked !== undefined)
      throw HostError.coded(
        'IO_ERROR',
        rootError('root-errors.save-blocked', { file: this.filePath, detail: this.saveBlocked }),
      );
    const before = this.visibleKeys();
    try {
      await atomicWriteFile(this.filePath, `${JSON.stringify(next, null, 2)}\n`);
    } catch (error) {
      throw HostError.coded(
        'IO_ERROR',
        rootError('root-errors.save-failed', { file: this.filePath, detail: errorMessage(error) }),
      );
    }
    this.file = next;
    this.emitChanges(before, alsoChanged);
  }

  /** Per server, a fingerprint of what `roots/list` could hand it (before consent), to spot real changes. */
  private visibleKeys(): Map<string, string> {
    const servers = new Set([
      ...(this.options.knownServers?.() ?? []),
      ...this.seenServers,
      ...Object.keys(this.file.exposure),
      ...Object.keys(this.file.consent),
    ]);
    const keys = new Map<string, string>();
    for (const server of servers) {
      const ids = this.exposedIds(server);
      const visible = this.file.roots.filter(
        (r) => !this.problems.has(r.id) && (ids === undefined || ids.includes(r.id)),
      );
      keys.set(server, JSON.stringify(visible.map((r) => [r.id, r.name, r.path])));
    }
    return keys;
  }

  private emitChanges(before: Map<string, string>, alsoChanged: string[] = []): void {
    const after = this.visibleKeys();
    const servers = new Set(alsoChanged);
    for (const [server, key] of after) if (before.get(server) !== key) servers.add(server);
    for (const server of before.keys()) if (!after.has(server)) servers.add(server);
    const change: RootsChange = { roots: this.list(), servers: [...servers].sort() };
    for (const listener of [...this.listeners]) listener(change);
  }

  private async probeAll(): Promise<void> {
    const results = await Promise.all(
      this.file.roots.map(async (root) => [root.id, await checkRootFolder(root, this.platform)] as const),
    );
    for (const [id, probe] of results) {
      if (probe.ok) this.problems.delete(id);
      else this.problems.set(id, probe);
    }
  }

  private async load(): Promise<void> {
    const loaded = await loadStateFile(this.filePath, RootsFileSchema, this.now);
    if (loaded.kind === 'missing') return;
    if (loaded.kind === 'unusable') {
      if (loaded.saveBlocked !== undefined) this.saveBlocked = loaded.saveBlocked;
      this.options.warn(`${loaded.message}; starting with no roots`);
      return;
    }
    this.file = this.dropUnusable(loaded.data);
  }

  /** A hand-edited file may hold paths this platform cannot use; say so and leave them out. */
  private dropUnusable(file: RootsFile): RootsFile {
    const roots: Root[] = [];
    for (const root of file.roots) {
      try {
        roots.push({ ...root, path: normalizeRootPath(root.path, this.platform) });
      } catch (error) {
        this.options.warn(`${this.filePath}: root '${root.name}' was left out: ${errorMessage(error)}`);
      }
    }
    return { ...file, roots };
  }
}

/** A folder probeFolder found unusable, as the failure of adding or re-sharing it. */
function unusable(
  probe: UnusableFolder,
  code: 'root-errors.cannot-add' | 'root-errors.cannot-share-new',
  path: string,
): HostError {
  return HostError.coded(probe.code, rootError(code, probe.found), path);
}
