import type { Handlers } from '../../shared/contract';
import type { LogQuery, logMethods } from '../../shared/contract/logs';
import type { LogEntry } from '../../shared/domain/log';
import type { EventHub } from '../events/event-hub';

/** The log methods of the contract. */
export type LogHandlers = Pick<Handlers, keyof typeof logMethods>;

/** The log hub as the handlers use it (LogHub fits). */
export interface HandlerLogs {
  query(query: LogQuery): { entries: LogEntry[]; dropped: number };
  /** Deliver trace entries live for `forMs` from now (LogHub.followTrace). */
  followTrace(forMs: number): void;
  clear(server?: string): number;
}

/**
 * How long one `logs.followTrace` keeps the trace live. The Logs view renews
 * it well within this; a window closed or reloaded without saying so stops
 * the live trace within this time, with no per-window state in the host.
 */
export const TRACE_FOLLOW_MS = 15_000;

/** Read and clear the servers' and the host's logs. */
export function createLogHandlers(logs: HandlerLogs, events: Pick<EventHub, 'emit'>): LogHandlers {
  return {
    'logs.query': async (query) => logs.query(query),

    'logs.followTrace': async () => {
      logs.followTrace(TRACE_FOLLOW_MS);
      return { followingForMs: TRACE_FOLLOW_MS };
    },

    'logs.clear': async ({ server }) => {
      const cleared = logs.clear(server);
      events.emit('logs.cleared', server === undefined ? {} : { server });
      return { cleared };
    },
  };
}
