import type { EventHub } from '../events/event-hub';
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
