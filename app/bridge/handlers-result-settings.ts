import type { Handlers } from '../../shared/contract';
import type { ServerResultLimit, resultSettingsMethods } from '../../shared/contract/result-settings';
import { HostError } from '../../shared/result';
import type { EventHub } from '../events/event-hub';
import type { SettingsStore } from '../settings/settings-store';

/** The result-settings methods of the contract. */
export type ResultSettingsHandlers = Pick<Handlers, keyof typeof resultSettingsMethods>;

export interface ResultSettingsHandlerDeps {
  settings: Pick<SettingsStore, 'resultLimit' | 'setResultLimit'>;
  /** The servers Berth has (the supervisor fits): a setting for any other would be forgotten by nothing. */
  servers: { list(): Array<{ name: string }>; get(name: string): unknown };
  events: Pick<EventHub, 'emit'>;
}

/** One server's result limit as the contract says it (absent: the default). */
export function resultLimitOf(settings: Pick<SettingsStore, 'resultLimit'>, server: string): ServerResultLimit {
  const limitTokens = settings.resultLimit(server);
  return { server, ...(limitTokens !== undefined ? { limitTokens } : {}) };
}

/**
 * The per-server result limit. Stored in settings.json and read when a tool result arrives
 * (the limit is kept with the result, so the model keeps reading an earlier result the same way).
 */
export function createResultSettingsHandlers({ settings, servers, events }: ResultSettingsHandlerDeps): ResultSettingsHandlers {
  return {
    'servers.resultLimits': async () =>
      servers
        .list()
        .map(({ name }) => resultLimitOf(settings, name))
        .sort((a, b) => a.server.localeCompare(b.server)),
    'servers.setResultLimit': async ({ server, limitTokens }) => {
      if (servers.get(server) === undefined) throw new HostError('NOT_FOUND', `No server named "${server}"`, 'server');
      await settings.setResultLimit(server, limitTokens ?? undefined);
      const saved = resultLimitOf(settings, server);
      events.emit('servers.resultLimitChanged', saved);
      return saved;
    },
  };
}
