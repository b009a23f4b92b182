import type { InstructionsSettingsSlice } from './instructions-settings-types';
import type { SliceCreator } from './types';

/** Whether a server's instructions go to the model: the host's default (yes) until it says otherwise. */
export function sendsInstructionsOf(state: Pick<InstructionsSettingsSlice, 'sendInstructions'>, server: string): boolean {
  return state.sendInstructions[server] ?? true;
}

export const createInstructionsSettingsSlice: SliceCreator<InstructionsSettingsSlice> = (transport) => (set, get) => ({
  sendInstructions: {},

  applyInstructionsSetting({ server, sendInstructions }) {
    set((s) => ({ sendInstructions: { ...s.sendInstructions, [server]: sendInstructions } }));
  },
  async loadInstructionsSettings() {
    const result = await transport.call('servers.instructionsSettings', {});
    if (!result.ok) {
      get().toastFailure('Could not read which servers’ instructions go to the model', result);
      return;
    }
    set({ sendInstructions: Object.fromEntries(result.value.map((s) => [s.server, s.sendInstructions])) });
  },
  async setSendInstructions(server, send) {
    const before = sendsInstructionsOf(get(), server);
    // Shown at once (the switch answers the key press); put back if the host refuses.
    get().applyInstructionsSetting({ server, sendInstructions: send });
    const result = await transport.call('servers.setSendInstructions', { server, sendInstructions: send });
    if (result.ok) {
      get().applyInstructionsSetting(result.value);
      return;
    }
    get().applyInstructionsSetting({ server, sendInstructions: before });
    get().toastFailure(`Could not change whether the model gets the instructions of “${server}”`, result);
  },
});
