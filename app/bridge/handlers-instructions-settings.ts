import type { Handlers } from '../../shared/contract';
import type { ServerInstructionsSetting, instructionsSettingsMethods } from '../../shared/contract/instructions-settings';
import { HostError } from '../../shared/result';
import type { EventHub } from '../events/event-hub';
import type { SettingsStore } from '../settings/settings-store';

/** The instructions-settings methods of the contract. */
export type InstructionsSettingsHandlers = Pick<Handlers, keyof typeof instructionsSettingsMethods>;

export interface InstructionsSettingsHandlerDeps {
  settings: Pick<SettingsStore, 'sendsInstructions' | 'setSendInstructions'>;
  /** The servers Berth has (the supervisor fits): a setting for any other would be forgotten by nothing. */
  servers: { list(): Array<{ name: string }>; get(name: string): unknown };
  events: Pick<EventHub, 'emit'>;
}

/**
 * The per-server switch "Send its instructions to the model". Stored in settings.json and read by
 * each model request (host-chat.ts builds the system prompt then), so a change applies from the next one.
 */
export function createInstructionsSettingsHandlers({ settings, servers, events }: InstructionsSettingsHandlerDeps): InstructionsSettingsHandlers {
  const settingOf = (server: string): ServerInstructionsSetting => ({ server, sendInstructions: settings.sendsInstructions(server) });
  return {
    'servers.instructionsSettings': async () =>
      servers
        .list()
        .map(({ name }) => settingOf(name))
        .sort((a, b) => a.server.localeCompare(b.server)),
    'servers.setSendInstructions': async ({ server, sendInstructions }) => {
      if (servers.get(server) === undefined) throw new HostError('NOT_FOUND', `No server named "${server}"`, 'server');
      // Yes is the default: settings.json lists only the servers set otherwise.
      await settings.setSendInstructions(server, sendInstructions ? undefined : false);
      const saved = settingOf(server);
      events.emit('servers.instructionsSettingChanged', saved);
      return saved;
    },
  };
}
