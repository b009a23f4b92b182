import type { LogEntry } from '../../shared/domain/log';
import type { NewTraceRecord } from './trace-record';

/** An entry before the hub stamps it with a sequence number. */
export type NewLogEntry = Omit<LogEntry, 'seq'>;

/** Where server output goes; implemented by LogHub, faked nowhere (tests use the real hub). */
export interface LogSink {
  append(entry: NewLogEntry): void;
  /**
   * A traced JSON-RPC message, for a sink that keeps it without making its
   * entry first (LogHub). A sink without it gets the whole entry by `append`.
   */
  appendTrace?(record: NewTraceRecord): void;
}
