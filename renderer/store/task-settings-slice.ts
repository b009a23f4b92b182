import type { SliceCreator, TaskSettingsSlice } from './types';

/** Whether a server's optional task tools run as tasks: the host's default (yes) until it says otherwise. */
export function optionalToolsAsTasksOf(state: Pick<TaskSettingsSlice, 'optionalToolsAsTasks'>, server: string): boolean {
  return state.optionalToolsAsTasks[server] ?? true;
}

export const createTaskSettingsSlice: SliceCreator<TaskSettingsSlice> = (transport) => (set, get) => ({
  optionalToolsAsTasks: {},

  applyTaskServerSettings({ server, optionalToolsAsTasks }) {
    set((s) => ({ optionalToolsAsTasks: { ...s.optionalToolsAsTasks, [server]: optionalToolsAsTasks } }));
  },
  async loadTaskServerSettings() {
    const result = await transport.call('tasks.serverSettings', {});
    if (!result.ok) {
      get().toastFailure('Could not read the task settings of the servers', result);
      return;
    }
    set({ optionalToolsAsTasks: Object.fromEntries(result.value.map((s) => [s.server, s.optionalToolsAsTasks])) });
  },
  async setOptionalToolsAsTasks(server, asTasks) {
    const before = optionalToolsAsTasksOf(get(), server);
    // Shown at once (the switch answers the key press); put back if the host refuses.
    get().applyTaskServerSettings({ server, optionalToolsAsTasks: asTasks });
    const result = await transport.call('tasks.setServerSettings', { server, optionalToolsAsTasks: asTasks });
    if (result.ok) {
      get().applyTaskServerSettings(result.value);
      return;
    }
    get().applyTaskServerSettings({ server, optionalToolsAsTasks: before });
    get().toastFailure(`Could not change how “${server}” runs long tool calls`, result);
  },
});
