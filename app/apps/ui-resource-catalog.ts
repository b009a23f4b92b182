import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { AppUiResource } from '../../shared/domain/app-ui';
import type { ServerState } from '../../shared/domain/server';
import { errorMessage } from '../../shared/error-message';
import { appsError } from '../../shared/domain/apps-errors';
import { HostError } from '../../shared/result';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import type { ServerRequest } from '../servers/supervised-server';
import { listedUiMeta, parseUiResourceMeta, parseUiResourceRead } from './ui-resource';
import type { UiResourceMeta } from './ui-resource';

/** The supervisor as the catalog uses it (ServerSupervisor fits). */
export interface UiResourceServers {
  get(name: string): ServerState | undefined;
  request<T>(name: string, request: ServerRequest, send: (client: Client, timeoutMs: number) => Promise<T>): Promise<T>;
}

export interface UiResourceCatalogOptions {
  servers: UiResourceServers;
  /** What was cached for a server is gone (its lists changed, it restarted, it left): cards read their UI again. */
  onChanged(server: string): void;
  /** A problem that does not stop the app from showing (its list entry could not be read): the server's log. */
  warn(server: string, text: string): void;
  now?: () => number;
  /** Resources kept in all (oldest dropped first; default 32). */
  maxEntries?: number;
}

/** Any JSON object: the checks are ours (ui-resource.ts), so a junk answer gets Berth's words, not a schema dump. */
const AnyObject = z.looseObject({});
/** resources/list pages followed to find a resource's entry; a server that keeps sending cursors is cut off. */
const MAX_LIST_PAGES = 10;

interface Cached {
  server: string;
  /** Settles to the resource, or rejects (then it is no longer cached). */
  resource: Promise<AppUiResource>;
}

/**
 * The UI resources (MCP Apps) of the running servers, read with
 * resources/read on first use and cached per server and URI: a card that
 * re-renders, or ten cards of one tool, cost one read. The cache of a server
 * is dropped when its resources or tools list changes, when it restarts or
 * stops, and when it is removed; `onChanged` then tells the renderer.
 * A read that fails is not cached: the next card asks again.
 */
export class UiResourceCatalog implements ServerLifecycleListener {
  /** Key: JSON of [server, uri]. Insertion order = age. */
  private readonly cache = new Map<string, Cached>();
  /** Per server: bumped by every drop, so a read that was on its way during one is not cached. */
  private readonly generations = new Map<string, number>();
  /** The readySince of the session each server's entries came from. */
  private readonly sessions = new Map<string, number | undefined>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  readonly listChanged = {
    resources: (server: string): void => this.drop(server, true),
    // A tool may now name another resource, or the same one with new content.
    tools: (server: string): void => this.drop(server, true),
  };

  constructor(private readonly options: UiResourceCatalogOptions) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 32;
  }

  /** The UI resource `uri` of `server`: NOT_FOUND for an unknown server, NOT_READY while it is not running, SERVER_ERROR for junk. */
  read(server: string, uri: string): Promise<AppUiResource> {
    const state = this.options.servers.get(server);
    if (state === undefined)
      return Promise.reject(HostError.coded('NOT_FOUND', appsError('apps-errors.no-server', { server })));
    if (state.status !== 'ready') {
      return Promise.reject(
        HostError.coded('NOT_READY', appsError('apps-errors.ui-not-running', { server, status: state.status })),
      );
    }
    const key = JSON.stringify([server, uri]);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached.resource;
    const generation = this.generations.get(server) ?? 0;
    this.sessions.set(server, state.readySince);
    const resource = this.fetch(server, uri);
    const entry: Cached = { server, resource };
    this.cache.set(key, entry);
    this.evictOldest();
    resource.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    // A drop while it was on its way: the caller gets this answer, later ones read again.
    void resource.then(
      () => {
        if ((this.generations.get(server) ?? 0) !== generation && this.cache.get(key) === entry) this.cache.delete(key);
      },
      () => undefined,
    );
    return resource;
  }

  serverChanged(state: ServerState): void {
    if (!this.sessions.has(state.name)) return;
    // Stopped, crashed or restarted: the new process may serve other HTML.
    if (state.status !== 'ready' || state.readySince !== this.sessions.get(state.name)) this.drop(state.name, true);
  }

  serverRemoved(server: string): void {
    this.drop(server, true);
    this.generations.delete(server);
  }

  /** How many resources are cached (for tests and diagnostics). */
  get size(): number {
    return this.cache.size;
  }

  private drop(server: string, announce: boolean): void {
    this.generations.set(server, (this.generations.get(server) ?? 0) + 1);
    this.sessions.delete(server);
    for (const [key, entry] of this.cache) if (entry.server === server) this.cache.delete(key);
    if (announce) this.options.onChanged(server);
  }

  private evictOldest(): void {
    while (this.cache.size > this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) return;
      this.cache.delete(oldest);
    }
  }

  private async fetch(server: string, uri: string): Promise<AppUiResource> {
    const raw = await this.send(
      server,
      { method: 'resources/read', what: uri, action: `read the app UI ${uri}` },
      { uri },
    );
    const content = parseUiResourceRead(server, uri, raw);
    const meta = content.meta ?? (await this.listedMeta(server, uri));
    return {
      server,
      uri,
      html: content.html,
      csp: meta?.csp ?? {},
      permissions: meta?.permissions ?? [],
      ...(meta?.prefersBorder !== undefined ? { prefersBorder: meta.prefersBorder } : {}),
      fetchedAt: this.now(),
    };
  }

  /** The resource's `_meta.ui` from its resources/list entry (the spec's fallback); none when the list cannot be read. */
  private async listedMeta(server: string, uri: string): Promise<UiResourceMeta | undefined> {
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
        const result = await this.send(
          server,
          { method: 'resources/list', what: '', action: 'list its resources' },
          cursor === undefined ? {} : { cursor },
        );
        const meta = listedUiMeta(result, uri);
        if (meta !== undefined) return parseUiResourceMeta(server, uri, meta);
        cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
        if (cursor === undefined) return undefined;
      }
    } catch (error) {
      // A malformed _meta.ui in the list is refused like one in the read.
      if (error instanceof HostError && error.code === 'SERVER_ERROR' && error.message.includes(uri)) throw error;
      // Without the list entry the app still runs, with the defaults: no network, no permissions.
      this.options.warn(
        server,
        `could not read the resource list for the settings of the app UI ${uri} (it runs with no network and no permissions): ${errorMessage(error)}`,
      );
    }
    return undefined;
  }

  private async send(
    server: string,
    request: ServerRequest,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    try {
      return await this.options.servers.request(server, request, (client, timeoutMs) =>
        client.request({ method: request.method, params } as Parameters<Client['request']>[0], AnyObject, {
          timeout: timeoutMs,
        }),
      );
    } catch (error) {
      if (error instanceof HostError) throw error;
      const detail = errorMessage(error);
      throw HostError.coded(
        'SERVER_ERROR',
        request.method === 'resources/read'
          ? appsError('apps-errors.read-ui-failed', { server, uri: request.what, detail })
          : appsError('apps-errors.list-failed', { server, detail }),
      );
    }
  }
}
