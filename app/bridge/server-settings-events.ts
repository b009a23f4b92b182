import type { EventHub } from '../events/event-hub';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import type { SettingsStore } from '../settings/settings-store';

/** Tell every window a server's per-server settings as they are now (after a removal: back to the defaults). */
export function announceServerSettings(
  events: Pick<EventHub, 'emit'>,
  settings: Pick<SettingsStore, 'tasksForOptionalTools' | 'sendsInstructions'>,
  server: string,
): void {
  events.emit('tasks.serverSettingsChanged', { server, optionalToolsAsTasks: settings.tasksForOptionalTools(server) });
  events.emit('servers.instructionsSettingChanged', { server, sendInstructions: settings.sendsInstructions(server) });
}

/** A new server of a removed one's name starts from the defaults (a rename has moved them first: servers.update); every window is told. */
export function forgetSettingsOnRemoval(
  events: Pick<EventHub, 'emit'>,
  settings: Pick<SettingsStore, 'forgetServer' | 'tasksForOptionalTools' | 'sendsInstructions'>,
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
