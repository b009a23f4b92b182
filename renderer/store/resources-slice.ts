import type { ResourcesSlice, SliceCreator } from './types';

/** Key of one resource of one server in the maps below. */
export function resourceKey(server: string, uri: string): string {
  return `${server}\n${uri}`;
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
    if (result.ok)
      set((s) => ({ resourceSubscriptions: { ...s.resourceSubscriptions, [server]: result.value.subscribed } }));
  },
  async setResourceSubscribed(server, uri, subscribed) {
    const result = await transport.call(subscribed ? 'resources.subscribe' : 'resources.unsubscribe', { server, uri });
    if (result.ok)
      set((s) => ({ resourceSubscriptions: { ...s.resourceSubscriptions, [server]: result.value.subscribed } }));
    else await get().loadResourceSubscriptions(server);
    return result;
  },
  applyResourceUpdated(server, uri) {
    const key = resourceKey(server, uri);
    set((s) => ({ resourceUpdates: { ...s.resourceUpdates, [key]: (s.resourceUpdates[key] ?? 0) + 1 } }));
  },
  applyResourceListChanged(server) {
    set((s) => ({
      resourceListVersions: { ...s.resourceListVersions, [server]: (s.resourceListVersions[server] ?? 0) + 1 },
    }));
  },
  openResourceInBrowser(server, uri) {
    set({ resourceFocus: { server, uri }, selectedServer: server, view: 'servers' });
  },
  clearResourceFocus() {
    set({ resourceFocus: undefined });
  },
});
