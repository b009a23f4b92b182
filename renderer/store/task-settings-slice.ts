import { perServerSettingActions, settingOf } from './per-server-setting';
import type { SliceCreator, TaskSettingsSlice } from './types';

/** Whether a server's optional task tools run as tasks: the host's default (yes) until it says otherwise. */
export function optionalToolsAsTasksOf(
  state: Pick<TaskSettingsSlice, 'optionalToolsAsTasks'>,
  server: string,
): boolean {
  return settingOf(state, 'optionalToolsAsTasks', server, true);
}

export const createTaskSettingsSlice: SliceCreator<TaskSettingsSlice> = (transport) => (set, get) => {
  const setting = perServerSettingActions(
    {
      field: 'optionalToolsAsTasks',
      fallback: true,
      list: () => transport.call('tasks.serverSettings', {}),
      write: (input) => transport.call('tasks.setServerSettings', input),
      loadFailure: 'servers.toast.taskSettingsReadFailed',
      writeFailure: 'servers.toast.taskSettingWriteFailed',
    },
    set,
    get,
  );
  return {
    optionalToolsAsTasks: {},
    applyTaskServerSettings: setting.apply,
    loadTaskServerSettings: setting.load,
    setOptionalToolsAsTasks: setting.write,
  };
};
