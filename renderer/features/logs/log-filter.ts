import { LOG_LEVELS, LOG_SOURCES, type LogLevel, type LogSource } from '../../../shared/domain';
import type { LogRow } from '../../store';

/** What the log viewer shows; everything is matched in memory against the store's rows. */
export interface LogFilter {
  /** undefined = every server. */
  server?: string;
  sources: readonly LogSource[];
  /** Entries without a level (stderr, trace, host) always pass. */
  minLevel?: LogLevel;
  /** Case-insensitive substring of the line, method or logger. */
  text: string;
}

export const DEFAULT_LOG_FILTER: LogFilter = { sources: LOG_SOURCES, text: '' };

const LEVEL_RANK = new Map<string, number>(LOG_LEVELS.map((level, index) => [level, index]));

export function isFilterActive(filter: LogFilter): boolean {
  return filter.sources.length !== LOG_SOURCES.length || filter.minLevel !== undefined || filter.text.trim() !== '';
}

/**
 * Builds one predicate per filter so the per-row work is a few comparisons
 * and one `includes` on the precomputed lowercase haystack (200k rows stay
 * well under the 100 ms budget).
 */
export function logPredicate(filter: LogFilter): (row: LogRow) => boolean {
  const server = filter.server;
  const allSources = filter.sources.length >= LOG_SOURCES.length;
  const sources = new Set<string>(filter.sources);
  const minRank = filter.minLevel === undefined ? 0 : (LEVEL_RANK.get(filter.minLevel) ?? 0);
  const needle = filter.text.trim().toLowerCase();
  return (row) => {
    if (server !== undefined && row.server !== server) return false;
    if (!allSources && !sources.has(row.source)) return false;
    if (minRank > 0 && row.level !== undefined && (LEVEL_RANK.get(row.level) ?? 0) < minRank) return false;
    if (needle !== '' && !row.haystack.includes(needle)) return false;
    return true;
  };
}

export function filterLogs(rows: readonly LogRow[], filter: LogFilter): LogRow[] {
  const keep = logPredicate(filter);
  const out: LogRow[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (keep(row)) out.push(row);
  }
  return out;
}

/** The last filter result, kept so the next batch only filters the new rows. */
export interface FilterResult {
  source: readonly LogRow[];
  filter: LogFilter;
  rows: LogRow[];
}

/** Index of the first row with `seq >= seq` (rows are sorted by seq). */
function lowerBound(rows: readonly LogRow[], seq: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Filters `source`, reusing `prev` when only new rows were appended (and old
 * ones dropped by the cap) under the same filter: a flood of batches then
 * costs work proportional to the batch, not to the 200k rows already shown.
 */
export function refilter(prev: FilterResult | undefined, source: readonly LogRow[], filter: LogFilter): FilterResult {
  if (prev && prev.filter === filter) {
    if (prev.source === source) return prev;
    const old = prev.source;
    if (old.length > 0 && source.length > 0) {
      const head = lowerBound(old, source[0]!.seq);
      const kept = old.length - head;
      // Same rows in the same places: `source` is `old` minus a head plus a tail, nothing removed in between.
      if (
        head < old.length &&
        kept <= source.length &&
        source[0] === old[head] &&
        source[kept - 1] === old[old.length - 1]
      ) {
        const keep = logPredicate(filter);
        const added: LogRow[] = [];
        for (let i = kept; i < source.length; i++) if (keep(source[i]!)) added.push(source[i]!);
        const firstKept = lowerBound(prev.rows, source[0]!.seq);
        if (firstKept === 0 && added.length === 0) return { source, filter, rows: prev.rows };
        const base = firstKept > 0 ? prev.rows.slice(firstKept) : prev.rows;
        return { source, filter, rows: added.length > 0 ? base.concat(added) : base };
      }
    }
  }
  return { source, filter, rows: filterLogs(source, filter) };
}

/** How many matching rows are newer than `afterSeq` (the "N new" count while paused); walks back from the end only. */
export function countNewer(rows: readonly LogRow[], filter: LogFilter, afterSeq: number): number {
  const keep = logPredicate(filter);
  let count = 0;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.seq <= afterSeq) break;
    if (keep(row)) count++;
  }
  return count;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Local wall-clock time with milliseconds: `14:03:07.123`. */
export function formatTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

// A trace line's size, in the locale's numbers (the one formatter every size on screen uses).
export { formatBytes } from '../../i18n/format';

/** One plain-text line per row for the clipboard: time, server, source, level, text. */
export function formatLogLine(row: LogRow): string {
  const parts = [formatTime(row.time), row.server, row.source];
  if (row.level) parts.push(row.level);
  if (row.source === 'trace') {
    parts.push(row.direction === 'in' ? '<-' : '->');
    if (row.method) parts.push(row.method);
    if (row.id !== undefined) parts.push(`#${row.id}`);
  }
  parts.push(row.text);
  return parts.join('  ');
}

/** The trace body pretty-printed; bodies that are not JSON (e.g. truncated) are shown as they are. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * What a trace line says beyond the arrow, method, id and size shown as
 * separate columns (e.g. `result`, `error -32601: Method not found`).
 */
export function traceDetail(row: Pick<LogRow, 'text' | 'method' | 'id'>): string {
  let rest = row.text.trim().replace(/^[→←<>-]+\s*/, '');
  if (row.method && rest.startsWith(row.method)) rest = rest.slice(row.method.length).trimStart();
  if (row.id !== undefined && rest.startsWith(`#${row.id}`)) rest = rest.slice(`#${row.id}`.length).trimStart();
  return rest.replace(/\s*\(\d+(\.\d+)?\s*[KMG]?B\)$/, '').trim();
}
