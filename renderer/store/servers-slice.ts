import type { MethodName } from '../../shared/contract';
import type { ServerState } from '../../shared/domain';
import { words } from '../i18n/words';
import type { BerthState, ServersSlice, SliceCreator } from './types';

type ByName = { name: string };

export const createServersSlice: SliceCreator<ServersSlice> = (transport) => (set, get) => {
  /** Lifecycle actions: the new state arrives as a `servers.changed` event; failures become toasts. */
  async function lifecycle(
    method: MethodName & `servers.${'start' | 'stop' | 'restart'}`,
    input: ByName,
    failed: 'servers.toast.startFailed' | 'servers.toast.stopFailed' | 'servers.toast.restartFailed',
  ) {
    const result = await transport.call(method, input);
    if (!result.ok) get().toastFailure(words(failed, { server: input.name }), result);
  }

  return {
    servers: {},
    serversLoaded: false,
    applyServersSnapshot(list) {
      const servers: Record<string, ServerState> = {};
      for (const state of list) servers[state.name] = state;
      set({ servers, serversLoaded: true });
    },
    applyServerChanged(state) {
      set((s) => ({ servers: { ...s.servers, [state.name]: state } }));
    },
    applyServerRemoved(name) {
      set((s) => {
        if (!(name in s.servers)) return {};
        const servers = { ...s.servers };
        delete servers[name];
        return {
          servers,
          selectedServer: s.selectedServer === name ? undefined : s.selectedServer,
          logServer: s.logServer === name ? undefined : s.logServer,
        } satisfies Partial<BerthState>;
      });
    },
    async loadServers() {
      const result = await transport.call('servers.list', {});
      if (result.ok) get().applyServersSnapshot(result.value);
      else get().toastFailure(words('servers.toast.loadFailed'), result);
    },
    startServer: (name) => lifecycle('servers.start', { name }, 'servers.toast.startFailed'),
    stopServer: (name) => lifecycle('servers.stop', { name }, 'servers.toast.stopFailed'),
    restartServer: (name) => lifecycle('servers.restart', { name }, 'servers.toast.restartFailed'),
    async signInServer(name) {
      const result = await transport.call('servers.signIn', { name });
      if (!result.ok) get().toastFailure(words('servers.toast.signInFailed', { server: name }), result);
      return result;
    },
    async signOutServer(name) {
      const result = await transport.call('servers.signOut', { name });
      if (result.ok)
        get().pushToast({
          tone: 'success',
          title: words('servers.toast.signedOut', { server: name }),
          message: words('servers.toast.signedOutDetail'),
        });
      else get().toastFailure(words('servers.toast.signOutFailed', { server: name }), result);
    },
    async setServerEnabled(name, enabled) {
      const result = await transport.call('servers.setEnabled', { name, enabled });
      if (!result.ok)
        get().toastFailure(
          words(enabled ? 'servers.toast.enableFailed' : 'servers.toast.disableFailed', { server: name }),
          result,
        );
    },
    async setServerLogLevel(name, level) {
      const result = await transport.call('servers.setLogLevel', { name, level });
      if (!result.ok) get().toastFailure(words('servers.toast.logLevelFailed', { server: name }), result);
    },
    async addServer(name, config) {
      const result = await transport.call('servers.add', { name, config });
      // The event normally arrives first; this covers a host that answers before it publishes.
      if (result.ok && !(result.value.name in get().servers)) get().applyServerChanged(result.value);
      return result;
    },
    async updateServer(name, newName, config, approvals) {
      const result = await transport.call('servers.update', {
        name,
        config,
        ...(newName !== undefined ? { newName } : {}),
        ...(approvals !== undefined ? { approvals } : {}),
      });
      if (result.ok && result.value.name !== name) {
        // A rename: the old name is gone whether or not the host also sends `servers.removed`.
        get().applyServerRemoved(name);
        if (!(result.value.name in get().servers)) get().applyServerChanged(result.value);
        if (get().selectedServer === undefined) get().selectServer(result.value.name);
      }
      return result;
    },
    async removeServer(name) {
      const result = await transport.call('servers.remove', { name });
      if (result.ok) get().applyServerRemoved(name);
      return result;
    },
  };
};

/** Servers in display order: case-insensitive by name, so the list does not jump around. */
export function sortServers(servers: Record<string, ServerState>): ServerState[] {
  return Object.values(servers).sort((a, b) =>
    a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }),
  );
}
