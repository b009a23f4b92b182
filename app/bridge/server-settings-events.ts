import type { EventHub } from '../events/event-hub';
import type { SettingsStore } from '../settings/settings-store';
import { resultLimitOf } from './handlers-result-settings';

/** Tell every window a server's per-server settings as they are now (after a removal: back to the defaults). */
export function announceServerSettings(
  events: Pick<EventHub, 'emit'>,
  settings: Pick<SettingsStore, 'tasksForOptionalTools' | 'sendsInstructions' | 'resultLimit'>,
  server: string,
): void {
  events.emit('tasks.serverSettingsChanged', { server, optionalToolsAsTasks: settings.tasksForOptionalTools(server) });
  events.emit('servers.instructionsSettingChanged', { server, sendInstructions: settings.sendsInstructions(server) });
  events.emit('servers.resultLimitChanged', resultLimitOf(settings, server));
}
