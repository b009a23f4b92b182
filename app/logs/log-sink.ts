import type { LogEntry } from '../../shared/domain/log';

/** An entry before the hub stamps it with a sequence number. */
export type NewLogEntry = Omit<LogEntry, 'seq'>;

/** Where server output goes; implemented by LogHub, faked nowhere (tests use the real hub). */
export interface LogSink {
  append(entry: NewLogEntry): void;
}
