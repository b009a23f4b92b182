import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../shared/domain';
import { appendCapped } from '../../store/logs-slice';
import {
  countNewer,
  DEFAULT_LOG_FILTER,
  filterLogs,
  formatLogLine,
  isFilterActive,
  prettyBody,
  refilter,
  traceDetail,
  type LogFilter,
} from './log-filter';

function rows(entries: Partial<LogEntry>[]) {
  return appendCapped(
    [],
    entries.map((e, i) => ({ seq: i + 1, server: 'a', time: 0, source: 'stderr' as const, text: '', ...e })),
  );
}

const sample = rows([
  { server: 'a', source: 'stderr', text: 'Starting server' },
  { server: 'b', source: 'notification', level: 'debug', text: 'cache warm' },
  { server: 'a', source: 'notification', level: 'error', text: 'Database DOWN', logger: 'db' },
  { server: 'a', source: 'trace', direction: 'out', method: 'tools/call', id: 3, text: '→ tools/call #3 (80 B)' },
  { server: 'b', source: 'host', level: 'info', text: 'spawned pid 42' },
]);

const f = (overrides: Partial<LogFilter>): LogFilter => ({ ...DEFAULT_LOG_FILTER, ...overrides });
const seqs = (filter: LogFilter) => filterLogs(sample, filter).map((r) => r.seq);

describe('filterLogs', () => {
  it('shows everything with the default filter', () => {
    expect(seqs(DEFAULT_LOG_FILTER)).toEqual([1, 2, 3, 4, 5]);
    expect(isFilterActive(DEFAULT_LOG_FILTER)).toBe(false);
  });

  it('filters by server and by source', () => {
    expect(seqs(f({ server: 'b' }))).toEqual([2, 5]);
    expect(seqs(f({ sources: ['trace', 'stderr'] }))).toEqual([1, 4]);
  });

  it('applies the minimum level to levelled entries only', () => {
    expect(seqs(f({ minLevel: 'warning' }))).toEqual([1, 3, 4]);
    expect(seqs(f({ minLevel: 'info' }))).toEqual([1, 3, 4, 5]);
  });

  it('searches text, method and logger case-insensitively, ignoring surrounding spaces', () => {
    expect(seqs(f({ text: 'down' }))).toEqual([3]);
    expect(seqs(f({ text: '  TOOLS/CALL ' }))).toEqual([4]);
    expect(seqs(f({ text: 'db' }))).toEqual([3]);
    expect(seqs(f({ text: 'nothing like this' }))).toEqual([]);
  });

  it('combines every criterion', () => {
    expect(seqs(f({ server: 'a', sources: ['notification'], minLevel: 'error', text: 'data' }))).toEqual([3]);
  });

  it('filters 200k rows in one pass and keeps order', () => {
    const big = rows(
      Array.from({ length: 200_000 }, (_, i) => ({ text: i % 1000 === 0 ? `needle ${i}` : `hay ${i}` })),
    );
    const found = filterLogs(big, f({ text: 'NEEDLE' }));
    expect(found).toHaveLength(200);
    expect(found[1]!.text).toBe('needle 1000');
  });
});

describe('countNewer', () => {
  it('counts matching rows after a seq, walking back from the end', () => {
    expect(countNewer(sample, DEFAULT_LOG_FILTER, 2)).toBe(3);
    expect(countNewer(sample, f({ server: 'b' }), 2)).toBe(1);
    expect(countNewer(sample, DEFAULT_LOG_FILTER, 5)).toBe(0);
  });
});

describe('formatting', () => {
  it('formats a trace line for the clipboard with direction, method and id', () => {
    expect(formatLogLine(sample[3]!)).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} {2}a {2}trace {2}-> {2}tools\/call {2}#3 {2}→ tools\/call #3 \(80 B\)$/,
    );
  });

  it('pretty-prints JSON bodies and leaves truncated ones alone', () => {
    expect(prettyBody('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyBody('{"a":1, "trunc')).toBe('{"a":1, "trunc');
  });

  it('keeps only what a trace summary adds beyond method, id and size', () => {
    expect(traceDetail({ text: '← initialize #0 result (2.0 KB)', method: 'initialize', id: 0 })).toBe('result');
    expect(traceDetail({ text: '→ notifications/initialized (54 B)', method: 'notifications/initialized' })).toBe('');
    expect(traceDetail({ text: 'something else entirely', method: 'x' })).toBe('something else entirely');
  });
});

describe('refilter', () => {
  const make = (from: number, to: number) =>
    appendCapped(
      [],
      Array.from({ length: to - from + 1 }, (_, i) => ({
        seq: from + i,
        server: (from + i) % 2 ? 'odd' : 'even',
        time: 0,
        source: 'stderr' as const,
        text: `n${from + i}`,
      })),
    );
  const odd = f({ server: 'odd' });

  it('filters only the appended rows and drops rows the cap evicted', () => {
    const first = make(1, 10);
    const prev = refilter(undefined, first, odd);
    expect(prev.rows.map((r) => r.seq)).toEqual([1, 3, 5, 7, 9]);
    // Same row objects, head evicted, tail appended: what appendCapped produces.
    const next = appendCapped(
      first,
      make(11, 14).map(({ haystack: _h, ...e }) => e),
      12,
    );
    const result = refilter(prev, next, odd);
    expect(result.rows.map((r) => r.seq)).toEqual([3, 5, 7, 9, 11, 13]);
    expect(result.rows).toEqual(filterLogs(next, odd));
  });

  it('recomputes from scratch when rows were removed from the middle or the filter changed', () => {
    const first = make(1, 10);
    const prev = refilter(undefined, first, DEFAULT_LOG_FILTER);
    const cleared = first.filter((r) => r.server !== 'even');
    expect(refilter(prev, cleared, DEFAULT_LOG_FILTER).rows).toEqual(cleared);
    expect(refilter(prev, first, odd).rows.map((r) => r.seq)).toEqual([1, 3, 5, 7, 9]);
  });

  it('returns the same result when nothing changed', () => {
    const first = make(1, 4);
    const prev = refilter(undefined, first, odd);
    expect(refilter(prev, first, odd)).toBe(prev);
  });
});
