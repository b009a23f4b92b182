import type { TopicName, TopicPayload } from '../../shared/contract';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import type { EventHub } from '../events/event-hub';

/** The servers Berth has (the supervisor fits): a setting for any other would be forgotten by nothing. */
export interface KnownServers {
  list(): Array<{ name: string }>;
  get(name: string): unknown;
}

/**
 * One per-server choice kept in settings.json (task, instructions, result limit), as the bridge
 * shows it: its value as the contract says it, and the topic telling every window of a change.
 */
export interface PerServerSetting<T extends TopicName> {
  changed: T;
  read(server: string): TopicPayload<T> & { server: string };
}

/** Tell every window the setting's value for `server` as it is now. */
export function announceSetting<T extends TopicName>(
  events: Pick<EventHub, 'emit'>,
  setting: PerServerSetting<T>,
  server: string,
): void {
  events.emit(setting.changed, setting.read(server));
}

/**
 * The two methods every per-server setting has: the value of each server Berth has (by name), and
 * setting one with `write` (NOT_FOUND for a server Berth does not have), which is then announced.
 * The router has checked the input against the contract before either runs.
 */
export function perServerSettingMethods<T extends TopicName, I extends { server: string }>(
  setting: PerServerSetting<T>,
  write: (input: I) => Promise<unknown>,
  servers: KnownServers,
  events: Pick<EventHub, 'emit'>,
): {
  list(): Promise<Array<TopicPayload<T> & { server: string }>>;
  set(input: I): Promise<TopicPayload<T> & { server: string }>;
} {
  return {
    list: async () =>
      servers
        .list()
        .map(({ name }) => setting.read(name))
        .sort((a, b) => a.server.localeCompare(b.server)),
    set: async (input) => {
      if (servers.get(input.server) === undefined)
        throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name: input.server }), 'server');
      await write(input);
      const saved = setting.read(input.server);
      events.emit(setting.changed, saved);
      return saved;
    },
  };
}
