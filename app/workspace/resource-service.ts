import type { Client, ReadResourceResult, Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import { MAX_RESOURCE_BLOB_BYTES, type ResourceInfo, type ResourcePart, type ResourceTemplateInfo } from '../../shared/contract/resources';
import type { ServerState } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import type { LogSink } from '../logs/log-sink';
import { describeRequestError } from './prompt-request-errors';

/** The supervisor as the resource service uses it (ServerSupervisor fits). */
export interface ResourceServers {
  get(name: string): ServerState | undefined;
  client(name: string): Client | undefined;
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
export class ResourceService {
  /** Subscribed URIs per server, whether it runs or not. */
  private readonly wanted = new Map<string, Set<string>>();
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly options: ResourceServiceOptions) {}

  /** Register the update handler on each new SDK client (supervisor clientSetup). */
  clientSetup(server: string, client: Client): void {
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      // A replaced client may still deliver a late notification: only the live session counts.
      if (this.options.servers.client(server) !== client) return;
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
    const client = this.options.servers.client(state.name);
    if (client === undefined) return;
    this.sessions.set(state.name, { readySince: state.readySince, client, live: new Map() });
    const uris = [...(this.wanted.get(state.name) ?? [])];
    if (uris.length === 0 || !this.supportsSubscribe(state)) return;
    for (const uri of uris) {
      this.subscribeLive(state.name, uri).catch((error: unknown) =>
        // Kept as wanted: the next session tries again, and the person can toggle it off.
        this.options.logs.append({
          server: state.name,
          time: Date.now(),
          source: 'host',
          level: 'warning',
          text: `could not subscribe again to ${uri} after the restart: ${error instanceof Error ? error.message : String(error)}`,
        }),
      );
    }
  }

  serverRemoved(name: string): void {
    const session = this.sessions.get(name);
    this.sessions.delete(name);
    this.wanted.delete(name);
    for (const live of session?.live.values() ?? []) {
      if (live.kind === 'listen') void live.close();
    }
  }

  subscribed(server: string): string[] {
    return [...(this.wanted.get(server) ?? [])].sort((a, b) => a.localeCompare(b));
  }

  async list(server: string, cursor: string | undefined): Promise<{ resources: ResourceInfo[]; nextCursor?: string }> {
    const { client, timeoutMs } = this.readyClient(server, 'list its resources');
    try {
      // An explicit cursor (even for page one) asks the SDK for one page instead of walking them all.
      const result = await client.listResources(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs, cacheMode: 'refresh' });
      return { resources: result.resources.map(toResourceInfo), ...(result.nextCursor !== undefined ? { nextCursor: result.nextCursor } : {}) };
    } catch (error) {
      throw describeRequestError({ server, method: 'resources/list', what: '', timeoutMs, error });
    }
  }

  async templates(server: string, cursor: string | undefined): Promise<{ resourceTemplates: ResourceTemplateInfo[]; nextCursor?: string }> {
    const { client, timeoutMs } = this.readyClient(server, 'list its resource templates');
    try {
      const result = await client.listResourceTemplates(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs, cacheMode: 'refresh' });
      return {
        resourceTemplates: result.resourceTemplates.map(toTemplateInfo),
        ...(result.nextCursor !== undefined ? { nextCursor: result.nextCursor } : {}),
      };
    } catch (error) {
      throw describeRequestError({ server, method: 'resources/templates/list', what: '', timeoutMs, error });
    }
  }

  async read(server: string, uri: string): Promise<{ contents: ResourcePart[] }> {
    const { client, timeoutMs } = this.readyClient(server, `read ${uri}`);
    let result: ReadResourceResult;
    try {
      // 'refresh': the person pressed Read or Re-read, so a cached body would be wrong.
      result = await client.readResource({ uri }, { timeout: timeoutMs, cacheMode: 'refresh' });
    } catch (error) {
      throw describeRequestError({ server, method: 'resources/read', what: uri, timeoutMs, error });
    }
    const contents = result.contents.map((part): ResourcePart => {
      const mimeType = part.mimeType !== undefined ? { mimeType: part.mimeType } : {};
      if ('text' in part && typeof part.text === 'string') return { kind: 'text', uri: part.uri, ...mimeType, text: part.text };
      if ('blob' in part && typeof part.blob === 'string') {
        const size = base64Size(part.blob);
        if (size > MAX_RESOURCE_BLOB_BYTES) {
          throw new HostError(
            'SERVER_ERROR',
            `${part.uri} on server '${server}' is ${(size / (1024 * 1024)).toFixed(1)} MB of binary data; Berth shows at most ${MAX_RESOURCE_BLOB_BYTES / (1024 * 1024)} MB`,
          );
        }
        return { kind: 'blob', uri: part.uri, ...mimeType, blob: part.blob, size };
      }
      throw new HostError('SERVER_ERROR', `server '${server}' returned a part of ${uri} with neither text nor blob`);
    });
    return { contents };
  }

  async subscribe(server: string, uri: string): Promise<{ subscribed: string[] }> {
    const state = this.readyState(server, `subscribe to ${uri}`);
    if (!this.supportsSubscribe(state)) throw new HostError('NOT_READY', `server '${server}' does not offer resource subscriptions`);
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
        const timeoutMs = this.options.servers.get(server)?.config.timeouts.requestMs;
        try {
          await session.client.unsubscribeResource({ uri }, timeoutMs !== undefined ? { timeout: timeoutMs } : {});
        } catch (error) {
          throw describeRequestError({ server, method: 'resources/unsubscribe', what: uri, timeoutMs: timeoutMs ?? 0, error });
        }
      }
    }
    return { subscribed: this.subscribed(server) };
  }

  private async subscribeLive(server: string, uri: string): Promise<void> {
    const { client, timeoutMs } = this.readyClient(server, `subscribe to ${uri}`);
    let session = this.sessions.get(server);
    if (session === undefined || session.client !== client) {
      // The state change that announces this session has not reached us yet.
      session = { readySince: this.options.servers.get(server)?.readySince, client, live: new Map() };
      this.sessions.set(server, session);
    }
    if (session.live.has(uri)) return;
    try {
      if (client.getProtocolEra() === 'modern') {
        const subscription = await client.listen({ resourceSubscriptions: [uri] }, { timeout: timeoutMs });
        if (!(subscription.honoredFilter.resourceSubscriptions ?? []).includes(uri)) {
          await subscription.close();
          throw new HostError('SERVER_ERROR', `server '${server}' did not accept a subscription to ${uri}`);
        }
        session.live.set(uri, { kind: 'listen', close: () => subscription.close() });
      } else {
        await client.subscribeResource({ uri }, { timeout: timeoutMs });
        session.live.set(uri, { kind: 'legacy' });
      }
    } catch (error) {
      throw describeRequestError({ server, method: client.getProtocolEra() === 'modern' ? 'subscriptions/listen' : 'resources/subscribe', what: uri, timeoutMs, error });
    }
  }

  private supportsSubscribe(state: ServerState): boolean {
    const resources = state.capabilities?.resources as { subscribe?: unknown } | undefined;
    return resources?.subscribe === true;
  }

  private readyState(server: string, action: string): ServerState {
    const state = this.options.servers.get(server);
    if (state === undefined) throw new HostError('NOT_FOUND', `no server named '${server}'`);
    if (state.status !== 'ready') throw new HostError('NOT_READY', `server '${server}' is ${state.status}, not ready: cannot ${action}`);
    return state;
  }

  private readyClient(server: string, action: string): { client: Client; timeoutMs: number } {
    const state = this.readyState(server, action);
    const client = this.options.servers.client(server);
    if (client === undefined) throw new HostError('NOT_READY', `server '${server}' has no connection: cannot ${action}`);
    return { client, timeoutMs: state.config.timeouts.requestMs };
  }
}
