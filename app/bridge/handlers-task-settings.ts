import type { Handlers } from '../../shared/contract';
import type { TaskServerSettings, taskSettingsMethods } from '../../shared/contract/task-settings';
import { HostError } from '../../shared/result';
import type { EventHub } from '../events/event-hub';
import type { SettingsStore } from '../settings/settings-store';

/** The task-settings methods of the contract. */
export type TaskSettingsHandlers = Pick<Handlers, keyof typeof taskSettingsMethods>;

export interface TaskSettingsHandlerDeps {
  settings: Pick<SettingsStore, 'tasksForOptionalTools' | 'setTasksForOptionalTools'>;
  /** The servers Berth has (the supervisor fits): a setting for any other would outlive nothing and be forgotten by nothing. */
  servers: { list(): Array<{ name: string }>; get(name: string): unknown };
  events: Pick<EventHub, 'emit'>;
}

/**
 * Per-server task settings. Stored in settings.json and read by each tool
 * call (app/tasks/task-aware-connection.ts), so a change applies from the
 * server's next call, without a restart.
 */
export function createTaskSettingsHandlers({ settings, servers, events }: TaskSettingsHandlerDeps): TaskSettingsHandlers {
  const settingsOf = (server: string): TaskServerSettings => ({ server, optionalToolsAsTasks: settings.tasksForOptionalTools(server) });
  return {
    'tasks.serverSettings': async () =>
      servers
        .list()
        .map(({ name }) => settingsOf(name))
        .sort((a, b) => a.server.localeCompare(b.server)),
    'tasks.setServerSettings': async ({ server, optionalToolsAsTasks }) => {
      if (servers.get(server) === undefined) throw new HostError('NOT_FOUND', `No server named "${server}"`, 'server');
      // Yes is the default: settings.json lists only the servers set otherwise.
      await settings.setTasksForOptionalTools(server, optionalToolsAsTasks ? undefined : false);
      const saved = settingsOf(server);
      events.emit('tasks.serverSettingsChanged', saved);
      return saved;
    },
  };
}
