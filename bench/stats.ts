/**
 * Small statistics and table helpers for the benchmarks. Pure functions, so
 * they can be unit-tested (test/bench-stats.test.ts) without running a bench.
 */

/** Latency summary of one series, in milliseconds. */
export interface LatencySummary {
  count: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * The p-th percentile (0..100) by the nearest-rank method: the smallest sample
 * with at least p% of the samples at or below it. Nearest-rank never invents a
 * value between samples, so a p99 is always a latency that really happened.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile of an empty series');
  if (!Number.isFinite(p) || p < 0 || p > 100) throw new Error(`percentile must be within 0..100, not ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  if (samples.length === 0) throw new Error('cannot summarize an empty series');
  const sum = samples.reduce((total, value) => total + value, 0);
  return {
    count: samples.length,
    meanMs: sum / samples.length,
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
    p99Ms: percentile(samples, 99),
    maxMs: Math.max(...samples),
  };
}

/** The middle value (mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of an empty series');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** `value / baseline` as "0.93×"; a zero baseline has no ratio. */
export function ratio(value: number, baseline: number): string {
  if (baseline === 0 || !Number.isFinite(value / baseline)) return 'n/a';
  return `${(value / baseline).toFixed(2)}×`;
}

export function fixed(value: number, digits = 2): string {
  return value.toFixed(digits);
}

/** A GitHub-flavoured Markdown table, which also reads fine on a terminal. */
export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  for (const row of rows) {
    if (row.length !== headers.length)
      throw new Error(`a table row has ${row.length} cells for ${headers.length} columns`);
  }
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] as string).length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] as number)).join(' | ')} |`;
  return [line(headers), `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`, ...rows.map(line)].join('\n');
}
