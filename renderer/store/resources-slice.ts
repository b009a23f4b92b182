import type { MethodInput, MethodOutput } from '../../shared/contract';
import type { Result } from '../../shared/result';
import type { SliceCreator } from './types';

/** Key of one resource of one server in the maps below. */
export function resourceKey(server: string, uri: string): string {
  return `${server}\n${uri}`;
}

/**
 * The resource browser's shared state: what is subscribed, which subscribed
 * resources changed since they were last read, and which resource another
 * view asked the browser to open. Pages and previews live in the components:
 * they are the person's browsing, not host state.
 */
export interface ResourcesSlice {
  /** Subscribed URIs per server, as the host last said. */
  resourceSubscriptions: Record<string, string[]>;
  /** resources.updated notifications not yet followed by a read, per resourceKey. */
  resourceUpdates: Record<string, number>;
  /** Bumped when a server says its resource list changed, so an open browser reloads. */
  resourceListVersions: Record<string, number>;
  /** A resource to open in the browser (set by "Open in resource browser"). */
  resourceFocus: { server: string; uri: string } | undefined;
  listResources(input: MethodInput<'resources.list'>): Promise<Result<MethodOutput<'resources.list'>>>;
  listResourceTemplates(input: MethodInput<'resources.templates'>): Promise<Result<MethodOutput<'resources.templates'>>>;
  /** Reading clears the resource's "updated" mark. */
  readResource(input: MethodInput<'resources.read'>): Promise<Result<MethodOutput<'resources.read'>>>;
  loadResourceSubscriptions(server: string): Promise<void>;
  setResourceSubscribed(server: string, uri: string, subscribed: boolean): Promise<Result<MethodOutput<'resources.subscribe'>>>;
  applyResourceUpdated(server: string, uri: string): void;
  applyResourceListChanged(server: string): void;
  openResourceInBrowser(server: string, uri: string): void;
  clearResourceFocus(): void;
}

export const createResourcesSlice: SliceCreator<ResourcesSlice> = (transport) => (set, get) => ({
  resourceSubscriptions: {},
  resourceUpdates: {},
  resourceListVersions: {},
  resourceFocus: undefined,

  listResources: (input) => transport.call('resources.list', input),
  listResourceTemplates: (input) => transport.call('resources.templates', input),
  async readResource(input) {
    const result = await transport.call('resources.read', input);
    if (result.ok) {
      const key = resourceKey(input.server, input.uri);
      set((s) => {
        if (!(key in s.resourceUpdates)) return {};
        const resourceUpdates = { ...s.resourceUpdates };
        delete resourceUpdates[key];
        return { resourceUpdates };
      });
    }
    return result;
  },
  async loadResourceSubscriptions(server) {
    const result = await transport.call('resources.subscriptions', { server });
    if (result.ok) set((s) => ({ resourceSubscriptions: { ...s.resourceSubscriptions, [server]: result.value.subscribed } }));
  },
  async setResourceSubscribed(server, uri, subscribed) {
    const result = await transport.call(subscribed ? 'resources.subscribe' : 'resources.unsubscribe', { server, uri });
    if (result.ok) set((s) => ({ resourceSubscriptions: { ...s.resourceSubscriptions, [server]: result.value.subscribed } }));
    else await get().loadResourceSubscriptions(server);
    return result;
  },
  applyResourceUpdated(server, uri) {
    const key = resourceKey(server, uri);
    set((s) => ({ resourceUpdates: { ...s.resourceUpdates, [key]: (s.resourceUpdates[key] ?? 0) + 1 } }));
  },
  applyResourceListChanged(server) {
    set((s) => ({ resourceListVersions: { ...s.resourceListVersions, [server]: (s.resourceListVersions[server] ?? 0) + 1 } }));
  },
  openResourceInBrowser(server, uri) {
    set({ resourceFocus: { server, uri }, selectedServer: server, view: 'servers' });
  },
  clearResourceFocus() {
    set({ resourceFocus: undefined });
  },
});
