import type { InstructionsSettingsSlice } from './instructions-settings-types';
import { perServerSettingActions, settingOf } from './per-server-setting';
import type { SliceCreator } from './types';

/** Whether a server's instructions go to the model: the host's default (yes) until it says otherwise. */
export function sendsInstructionsOf(
  state: Pick<InstructionsSettingsSlice, 'sendInstructions'>,
  server: string,
): boolean {
  return settingOf(state, 'sendInstructions', server, true);
}

export const createInstructionsSettingsSlice: SliceCreator<InstructionsSettingsSlice> = (transport) => (set, get) => {
  const setting = perServerSettingActions(
    {
      field: 'sendInstructions',
      fallback: true,
      list: () => transport.call('servers.instructionsSettings', {}),
      write: (input) => transport.call('servers.setSendInstructions', input),
      loadFailure: 'servers.toast.instructionsReadFailed',
      writeFailure: 'servers.toast.instructionsWriteFailed',
    },
    set,
    get,
  );
  return {
    sendInstructions: {},
    applyInstructionsSetting: setting.apply,
    loadInstructionsSettings: setting.load,
    setSendInstructions: setting.write,
  };
};
