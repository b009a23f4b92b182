import type { Handlers, MethodInput } from '../../shared/contract';
import type { taskSettingsMethods } from '../../shared/contract/task-settings';
import type { EventHub } from '../events/event-hub';
import type { SettingsStore } from '../settings/settings-store';
import { perServerSettingMethods, type KnownServers, type PerServerSetting } from './per-server-setting';

/** The task-settings methods of the contract. */
export type TaskSettingsHandlers = Pick<Handlers, keyof typeof taskSettingsMethods>;

export interface TaskSettingsHandlerDeps {
  settings: Pick<SettingsStore, 'tasksForOptionalTools' | 'setTasksForOptionalTools'>;
  servers: KnownServers;
  events: Pick<EventHub, 'emit'>;
}

/** Whether a server's tools that may run as an MCP task do. */
export function taskSetting(
  settings: Pick<SettingsStore, 'tasksForOptionalTools'>,
): PerServerSetting<'tasks.serverSettingsChanged'> {
  return {
    changed: 'tasks.serverSettingsChanged',
    read: (server) => ({ server, optionalToolsAsTasks: settings.tasksForOptionalTools(server) }),
  };
}

/**
 * Per-server task settings. Stored in settings.json and read by each tool
 * call (app/tasks/task-aware-connection.ts), so a change applies from the
 * server's next call, without a restart.
 */
export function createTaskSettingsHandlers({
  settings,
  servers,
  events,
}: TaskSettingsHandlerDeps): TaskSettingsHandlers {
  // Yes is the default: settings.json lists only the servers set otherwise.
  const write = ({ server, optionalToolsAsTasks }: MethodInput<'tasks.setServerSettings'>): Promise<unknown> =>
    settings.setTasksForOptionalTools(server, optionalToolsAsTasks ? undefined : false);
  const methods = perServerSettingMethods(taskSetting(settings), write, servers, events);
  return { 'tasks.serverSettings': methods.list, 'tasks.setServerSettings': methods.set };
}
