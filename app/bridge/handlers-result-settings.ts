import type { Handlers, MethodInput } from '../../shared/contract';
import type { resultSettingsMethods } from '../../shared/contract/result-settings';
import type { EventHub } from '../events/event-hub';
import type { SettingsStore } from '../settings/settings-store';
import { perServerSettingMethods, type KnownServers, type PerServerSetting } from './per-server-setting';

/** The result-settings methods of the contract. */
export type ResultSettingsHandlers = Pick<Handlers, keyof typeof resultSettingsMethods>;

export interface ResultSettingsHandlerDeps {
  settings: Pick<SettingsStore, 'resultLimit' | 'setResultLimit'>;
  servers: KnownServers;
  events: Pick<EventHub, 'emit'>;
}

/** How much of one of a server's tool results reaches the model (absent: the default). */
export function resultLimitSetting(
  settings: Pick<SettingsStore, 'resultLimit'>,
): PerServerSetting<'servers.resultLimitChanged'> {
  return {
    changed: 'servers.resultLimitChanged',
    read: (server) => {
      const limitTokens = settings.resultLimit(server);
      return { server, ...(limitTokens !== undefined ? { limitTokens } : {}) };
    },
  };
}

/**
 * The per-server result limit. Stored in settings.json and read when a tool result arrives
 * (the limit is kept with the result, so the model keeps reading an earlier result the same way).
 */
export function createResultSettingsHandlers({
  settings,
  servers,
  events,
}: ResultSettingsHandlerDeps): ResultSettingsHandlers {
  const write = ({ server, limitTokens }: MethodInput<'servers.setResultLimit'>): Promise<unknown> =>
    settings.setResultLimit(server, limitTokens ?? undefined);
  const methods = perServerSettingMethods(resultLimitSetting(settings), write, servers, events);
  return { 'servers.resultLimits': methods.list, 'servers.setResultLimit': methods.set };
}
