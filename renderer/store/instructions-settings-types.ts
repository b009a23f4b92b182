import type { ServerInstructionsSetting } from '../../shared/contract/instructions-settings';

/** Per-server choice: whether its instructions go into the system prompt (settings.json in the host). */
export interface InstructionsSettingsSlice {
  /** Servers the host reported; a server not listed has the default (yes). */
  sendInstructions: Record<string, boolean>;
  applyInstructionsSetting(setting: ServerInstructionsSetting): void;
  loadInstructionsSettings(): Promise<void>;
  /** Shown at once; put back, with a toast, if the host refuses. */
  setSendInstructions(server: string, send: boolean): Promise<void>;
}
