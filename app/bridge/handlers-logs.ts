import type { Handlers } from '../../shared/contract';
import type { LogQuery, logMethods } from '../../shared/contract/logs';
import type { LogEntry } from '../../shared/domain/log';
import type { EventHub } from '../events/event-hub';

/** The log methods of the contract. */
export type LogHandlers = Pick<Handlers, keyof typeof logMethods>;

/** The log hub as the handlers use it (LogHub fits). */
export interface HandlerLogs {
  query(query: LogQuery): { entries: LogEntry[]; dropped: number };
  clear(server?: string): number;
}

/** Read and clear the servers' and the host's logs. */
export function createLogHandlers(logs: HandlerLogs, events: Pick<EventHub, 'emit'>): LogHandlers {
  return {
    'logs.query': async (query) => logs.query(query),

    'logs.clear': async ({ server }) => {
      const cleared = logs.clear(server);
      events.emit('logs.cleared', server === undefined ? {} : { server });
      return { cleared };
    },
  };
}
