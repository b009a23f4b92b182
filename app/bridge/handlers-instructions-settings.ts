import type { Handlers, MethodInput } from '../../shared/contract';
import type { instructionsSettingsMethods } from '../../shared/contract/instructions-settings';
import type { EventHub } from '../events/event-hub';
import type { SettingsStore } from '../settings/settings-store';
import { perServerSettingMethods, type KnownServers, type PerServerSetting } from './per-server-setting';

/** The instructions-settings methods of the contract. */
export type InstructionsSettingsHandlers = Pick<Handlers, keyof typeof instructionsSettingsMethods>;

export interface InstructionsSettingsHandlerDeps {
  settings: Pick<SettingsStore, 'sendsInstructions' | 'setSendInstructions'>;
  servers: KnownServers;
  events: Pick<EventHub, 'emit'>;
}

/** Whether a server's instructions go into the system prompt. */
export function instructionsSetting(
  settings: Pick<SettingsStore, 'sendsInstructions'>,
): PerServerSetting<'servers.instructionsSettingChanged'> {
  return {
    changed: 'servers.instructionsSettingChanged',
    read: (server) => ({ server, sendInstructions: settings.sendsInstructions(server) }),
  };
}

/**
 * The per-server switch "Send its instructions to the model". Stored in settings.json and read by
 * each model request (ChatService builds the system prompt then), so a change applies from the next one.
 */
export function createInstructionsSettingsHandlers({
  settings,
  servers,
  events,
}: InstructionsSettingsHandlerDeps): InstructionsSettingsHandlers {
  // Yes is the default: settings.json lists only the servers set otherwise.
  const write = ({ server, sendInstructions }: MethodInput<'servers.setSendInstructions'>): Promise<unknown> =>
    settings.setSendInstructions(server, sendInstructions ? undefined : false);
  const methods = perServerSettingMethods(instructionsSetting(settings), write, servers, events);
  return { 'servers.instructionsSettings': methods.list, 'servers.setSendInstructions': methods.set };
}
