import type { LogEntry } from '../../shared/domain';
import type { LogRow, LogsSlice, SliceCreator } from './types';
import { words } from '../i18n/words';

/** The renderer keeps at most this many entries (newest win). */
export const LOG_CAP = 200_000;

export function toLogRow(entry: LogEntry): LogRow {
  const parts = [entry.text];
  if (entry.method) parts.push(entry.method);
  if (entry.logger) parts.push(entry.logger);
  return { ...entry, haystack: parts.join('\n').toLowerCase() };
}

/** Appends rows (already in seq order), dropping duplicates and the oldest beyond `cap`. */
export function appendCapped(current: LogRow[], incoming: LogEntry[], cap = LOG_CAP): LogRow[] {
  const lastSeq = current.length > 0 ? current[current.length - 1]!.seq : -Infinity;
  const fresh: LogRow[] = [];
  for (const entry of incoming) {
    // Seq is monotonic per run: anything not newer is a replay (snapshot/event overlap).
    if (entry.seq > lastSeq) fresh.push(toLogRow(entry));
  }
  if (fresh.length === 0) return current;
  if (fresh.length >= cap) return fresh.slice(fresh.length - cap);
  const overflow = current.length + fresh.length - cap;
  const kept = overflow > 0 ? current.slice(overflow) : current;
  return kept.concat(fresh);
}

/**
 * `current` with `incoming` merged in (both in seq order): entries it already
 * has are skipped, the oldest beyond `cap` dropped. For the trace entries the
 * host kept while nobody followed the trace: they fall between rows already
 * shown, so appending would put them out of order.
 */
export function mergeBySeq(current: LogRow[], incoming: LogEntry[], cap = LOG_CAP): LogRow[] {
  if (incoming.length === 0) return current;
  const merged: LogRow[] = [];
  let i = 0;
  let j = 0;
  while (i < current.length || j < incoming.length) {
    const mine = current[i];
    const theirs = incoming[j];
    if (theirs === undefined || (mine !== undefined && mine.seq < theirs.seq)) {
      merged.push(mine as LogRow);
      i += 1;
    } else if (mine !== undefined && mine.seq === theirs.seq) {
      merged.push(mine);
      i += 1;
      j += 1;
    } else {
      merged.push(toLogRow(theirs));
      j += 1;
    }
  }
  if (merged.length === current.length) return current;
  return merged.length > cap ? merged.slice(merged.length - cap) : merged;
}

export const createLogsSlice: SliceCreator<LogsSlice> = (transport) => (set, get) => ({
  logs: [],
  logsLoaded: false,
  logsDropped: 0,
  applyLogsSnapshot(entries, dropped) {
    set((s) => {
      const rows = appendCapped([], entries);
      // Batches that arrived while the query was in flight are newer than the snapshot: keep them.
      const lastSeq = rows.length > 0 ? rows[rows.length - 1]!.seq : -Infinity;
      const newer = s.logs.filter((row) => row.seq > lastSeq);
      return { logs: appendCapped(rows, newer), logsLoaded: true, logsDropped: dropped };
    });
  },
  applyLogsAppended(entries) {
    if (entries.length === 0) return;
    set((s) => {
      const logs = appendCapped(s.logs, entries);
      return logs === s.logs ? {} : { logs };
    });
  },
  applyLogsCleared(server) {
    set((s) => ({ logs: server === undefined ? [] : s.logs.filter((row) => row.server !== server) }));
  },
  async loadLogs() {
    const result = await transport.call('logs.query', { limit: LOG_CAP });
    if (result.ok) get().applyLogsSnapshot(result.value.entries, result.value.dropped);
    else get().toastFailure(words('logs.toast.loadFailed'), result);
  },
  async followTrace() {
    const result = await transport.call('logs.followTrace', {});
    if (result.ok) return result.value.followingForMs;
    get().toastFailure(words('logs.toast.followTraceFailed'), result);
    return undefined;
  },
  async loadTrace() {
    const result = await transport.call('logs.query', { sources: ['trace'], limit: LOG_CAP });
    if (result.ok) set((s) => ({ logs: mergeBySeq(s.logs, result.value.entries) }));
    else get().toastFailure(words('logs.toast.loadTraceFailed'), result);
  },
  async clearLogs(server) {
    const result = await transport.call('logs.clear', server === undefined ? {} : { server });
    if (result.ok) get().applyLogsCleared(server);
    else get().toastFailure(words('logs.toast.clearFailed'), result);
  },
});
