import type { Client, Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import {
  MAX_RESOURCE_BLOB_BYTES,
  type ResourceInfo,
  type ResourcePart,
  type ResourceTemplateInfo,
} from '../../shared/contract/resources';
import type { ServerState } from '../../shared/domain/server';
import { workspaceError } from '../../shared/domain/workspace-errors';
import { HostError } from '../../shared/result';
import type { LogSink } from '../logs/log-sink';
import type { ServerRequest } from '../servers/supervised-server';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import { errorMessage } from '../../shared/error-message';

/** The supervisor as the resource service uses it (ServerSupervisor fits). */
export interface ResourceServers {
  get(name: string): ServerState | undefined;
  /** Whether `client` belongs to the server's live connection (a replaced one may still deliver a late message). */
  isCurrentClient(name: string, client: Client): boolean;
  /** Waits out a reconnect and resends a request a lost HTTP session never ran. */
  request<T>(name: string, request: ServerRequest, send: (client: Client, timeoutMs: number) => Promise<T>): Promise<T>;
}

export interface ResourceServiceOptions {
  servers: ResourceServers;
  /** A subscribed resource changed. */
  onUpdated: (server: string, uri: string) => void;
  /** Where a failed re-subscription after a restart is written (the server's own log), as nobody is waiting for it. */
  logs: LogSink;
}

/** How one URI is subscribed on the live session: legacy resources/subscribe, or its own modern listen stream. */
type LiveSubscription = { kind: 'legacy' } | { kind: 'listen'; close: () => Promise<void> };

/** What is subscribed on one server's current ready session. */
interface Session {
  readySince: number | undefined;
  client: Client;
  live: Map<string, LiveSubscription>;
}

function toResourceInfo(resource: Resource): ResourceInfo {
  return {
    uri: resource.uri,
    name: resource.name,
    ...(resource.title !== undefined ? { title: resource.title } : {}),
    ...(resource.description !== undefined ? { description: resource.description } : {}),
    ...(resource.mimeType !== undefined ? { mimeType: resource.mimeType } : {}),
    ...(resource.size !== undefined ? { size: resource.size } : {}),
  };
}

function toTemplateInfo(template: ResourceTemplate): ResourceTemplateInfo {
  return {
    uriTemplate: template.uriTemplate,
    name: template.name,
    ...(template.title !== undefined ? { title: template.title } : {}),
    ...(template.description !== undefined ? { description: template.description } : {}),
    ...(template.mimeType !== undefined ? { mimeType: template.mimeType } : {}),
  };
}

function supportsSubscribe(capabilities: Record<string, unknown> | undefined): boolean {
  const resources = capabilities?.resources as { subscribe?: unknown } | undefined;
  return resources?.subscribe === true;
}

/** Bytes a base64 string decodes to, without decoding it. */
export function base64Size(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/**
 * Browsing, reading and subscribing to the resources of ready servers. The
 * person sees one Subscribe control; underneath, a 2025-era session uses
 * resources/subscribe and a 2026-07-28 session opens one subscriptions/listen
 * stream per URI. Subscriptions are the person's choice, so they outlive the
 * session: when a server becomes ready again (restart, crash recovery) every
 * subscribed URI is subscribed again on the new session.
 */
export class ResourceService implements ServerLifecycleListener {
  /** Subscribed URIs per server, whether it runs or not. */
  private readonly wanted = new Map<string, Set<string>>();
  private readonly sessions = new Map<string, Session>();
  /** The client each server's latest connection was set up with: the live one once that server is ready. */
  private readonly lastSetUp = new Map<string, Client>();

  constructor(private readonly options: ResourceServiceOptions) {}

  /** Register the update handler on each new SDK client (the server lifecycle's clientSetup). */
  clientSetup(server: string, client: Client): void {
    this.lastSetUp.set(server, client);
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      // A replaced client may still deliver a late notification: only the live session counts.
      if (!this.options.servers.isCurrentClient(server, client)) return;
      const uri = notification.params.uri;
      if (this.wanted.get(server)?.has(uri) === true) this.options.onUpdated(server, uri);
    });
  }

  /** Call with every server state change. */
  serverChanged(state: ServerState): void {
    const session = this.sessions.get(state.name);
    if (state.status !== 'ready') {
      // The process is gone or going: its subscriptions went with it.
      if (session !== undefined) this.sessions.delete(state.name);
      return;
    }
    if (session !== undefined && session.readySince === state.readySince) return;
    const client = this.lastSetUp.get(state.name);
    if (client === undefined || !this.options.servers.isCurrentClient(state.name, client)) return;
    this.sessions.set(state.name, { readySince: state.readySince, client, live: new Map() });
    const uris = [...(this.wanted.get(state.name) ?? [])];
    if (uris.length === 0 || !supportsSubscribe(state.capabilities)) return;
    for (const uri of uris) {
      this.subscribeLive(state.name, uri).catch((error: unknown) =>
        // Kept as wanted: the next session tries again, and the person can toggle it off.
        this.options.logs.append({
          server: state.name,
          time: Date.now(),
          source: 'host',
          level: 'warning',
          text: `could not subscribe again to ${uri} after the restart: ${errorMessage(error)}`,
        }),
      );
    }
  }

  serverRemoved(name: string): void {
    const session = this.sessions.get(name);
    this.sessions.delete(name);
    this.lastSetUp.delete(name);
    this.wanted.delete(name);
    for (const live of session?.live.values() ?? []) {
      if (live.kind === 'listen') void live.close();
    }
  }

  subscribed(server: string): string[] {
    return [...(this.wanted.get(server) ?? [])].sort((a, b) => a.localeCompare(b));
  }

  async list(server: string, cursor: string | undefined): Promise<{ resources: ResourceInfo[]; nextCursor?: string }> {
    const request = { method: 'resources/list', what: '', action: 'list its resources' };
    // An explicit cursor (even for page one) asks the SDK for one page instead of walking them all.
    const result = await this.options.servers.request(server, request, (client, timeoutMs) =>
      client.listResources(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs, cacheMode: 'refresh' }),
    );
    return {
      resources: result.resources.map(toResourceInfo),
      ...(result.nextCursor !== undefined ? { nextCursor: result.nextCursor } : {}),
    };
  }

  async templates(
    server: string,
    cursor: string | undefined,
  ): Promise<{ resourceTemplates: ResourceTemplateInfo[]; nextCursor?: string }> {
    const request = { method: 'resources/templates/list', what: '', action: 'list its resource templates' };
    const result = await this.options.servers.request(server, request, (client, timeoutMs) =>
      client.listResourceTemplates(cursor === undefined ? {} : { cursor }, {
        timeout: timeoutMs,
        cacheMode: 'refresh',
      }),
    );
    return {
      resourceTemplates: result.resourceTemplates.map(toTemplateInfo),
      ...(result.nextCursor !== undefined ? { nextCursor: result.nextCursor } : {}),
    };
  }

  async read(server: string, uri: string): Promise<{ contents: ResourcePart[] }> {
    const request = { method: 'resources/read', what: uri, action: `read ${uri}` };
    // 'refresh': the person pressed Read or Re-read, so a cached body would be wrong.
    const result = await this.options.servers.request(server, request, (client, timeoutMs) =>
      client.readResource({ uri }, { timeout: timeoutMs, cacheMode: 'refresh' }),
    );
    const contents = result.contents.map((part): ResourcePart => {
      const mimeType = part.mimeType !== undefined ? { mimeType: part.mimeType } : {};
      if ('text' in part && typeof part.text === 'string')
        return { kind: 'text', uri: part.uri, ...mimeType, text: part.text };
      if ('blob' in part && typeof part.blob === 'string') {
        const size = base64Size(part.blob);
        if (size > MAX_RESOURCE_BLOB_BYTES) {
          throw HostError.coded(
            'SERVER_ERROR',
            workspaceError('workspace-errors.resource-too-large', {
              uri: part.uri,
              server,
              size: (size / (1024 * 1024)).toFixed(1),
              max: MAX_RESOURCE_BLOB_BYTES / (1024 * 1024),
            }),
          );
        }
        return { kind: 'blob', uri: part.uri, ...mimeType, blob: part.blob, size };
      }
      throw HostError.coded('SERVER_ERROR', workspaceError('workspace-errors.resource-part-empty', { server, uri }));
    });
    return { contents };
  }

  async subscribe(server: string, uri: string): Promise<{ subscribed: string[] }> {
    await this.subscribeLive(server, uri);
    const wanted = this.wanted.get(server) ?? new Set<string>();
    wanted.add(uri);
    this.wanted.set(server, wanted);
    return { subscribed: this.subscribed(server) };
  }

  async unsubscribe(server: string, uri: string): Promise<{ subscribed: string[] }> {
    // Forgotten first: even if the server cannot be told, the person no longer wants updates.
    this.wanted.get(server)?.delete(uri);
    const session = this.sessions.get(server);
    const live = session?.live.get(uri);
    if (session !== undefined && live !== undefined) {
      session.live.delete(uri);
      if (live.kind === 'listen') {
        await live.close();
      } else {
        await this.options.servers.request(
          server,
          { method: 'resources/unsubscribe', what: uri, action: `unsubscribe from ${uri}` },
          async (client, timeoutMs) => {
            // Only the session that holds the subscription can drop it; a newer one (after a reconnect) never had it.
            if (client === session.client) await client.unsubscribeResource({ uri }, { timeout: timeoutMs });
          },
        );
      }
    }
    return { subscribed: this.subscribed(server) };
  }

  private async subscribeLive(server: string, uri: string): Promise<void> {
    const state = this.options.servers.get(server);
    const modern = state?.status === 'ready' && state.era === 'modern';
    const request = {
      method: modern ? 'subscriptions/listen' : 'resources/subscribe',
      what: uri,
      action: `subscribe to ${uri}`,
    };
    await this.options.servers.request(server, request, async (client, timeoutMs) => {
      let session = this.sessions.get(server);
      if (session === undefined || session.client !== client) {
        // The state change that announces this session has not reached us yet.
        const live = this.options.servers.get(server);
        session = { readySince: live?.status === 'ready' ? live.readySince : undefined, client, live: new Map() };
        this.sessions.set(server, session);
      }
      if (session.live.has(uri)) return;
      // Asked of the client, not a state read earlier: a reconnect may have come in between.
      if (!supportsSubscribe(client.getServerCapabilities()))
        throw HostError.coded('NOT_READY', workspaceError('workspace-errors.no-subscriptions', { server }));
      if (client.getProtocolEra() === 'modern') {
        const subscription = await client.listen({ resourceSubscriptions: [uri] }, { timeout: timeoutMs });
        if (!(subscription.honoredFilter.resourceSubscriptions ?? []).includes(uri)) {
          await subscription.close();
          throw HostError.coded(
            'SERVER_ERROR',
            workspaceError('workspace-errors.subscription-refused', { server, uri }),
          );
        }
        session.live.set(uri, { kind: 'listen', close: () => subscription.close() });
      } else {
        await client.subscribeResource({ uri }, { timeout: timeoutMs });
        session.live.set(uri, { kind: 'legacy' });
      }
    });
  }
}
