import type { EventHub } from '../events/event-hub';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import type { SettingsStore } from '../settings/settings-store';
import { instructionsSetting } from './handlers-instructions-settings';
import { resultLimitSetting } from './handlers-result-settings';
import { taskSetting } from './handlers-task-settings';
import { announceSetting } from './per-server-setting';

/** Tell every window a server's per-server settings as they are now (after a removal: back to the defaults). */
export function announceServerSettings(
  events: Pick<EventHub, 'emit'>,
  settings: Pick<SettingsStore, 'tasksForOptionalTools' | 'sendsInstructions' | 'resultLimit'>,
  server: string,
): void {
  announceSetting(events, taskSetting(settings), server);
  announceSetting(events, instructionsSetting(settings), server);
  announceSetting(events, resultLimitSetting(settings), server);
}

/** A new server of a removed one's name starts from the defaults (a rename has moved them first: servers.update); every window is told. */
export function forgetSettingsOnRemoval(
  events: Pick<EventHub, 'emit'>,
  settings: Pick<SettingsStore, 'forgetServer' | 'tasksForOptionalTools' | 'sendsInstructions' | 'resultLimit'>,
  reportError: (what: string, error: unknown) => void,
): ServerLifecycleListener {
  return {
    serverRemoved: (name) => {
      settings
        .forgetServer(name)
        .then(() => announceServerSettings(events, settings, name))
        .catch((error: unknown) => reportError(`forgetting the settings of '${name}' failed`, error));
    },
  };
}
