import { describe, expect, it } from 'vitest';
import { markdownTable, median, percentile, ratio, summarize } from '../bench/stats';

describe('bench stats', () => {
  it('takes nearest-rank percentiles: always a sample that happened', () => {
    const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(samples, 50)).toBe(5);
    expect(percentile(samples, 90)).toBe(9);
    expect(percentile(samples, 99)).toBe(10);
    expect(percentile(samples, 100)).toBe(10);
    expect(percentile(samples, 0)).toBe(1);
    expect(percentile([7], 99)).toBe(7);
    // 100 samples 1..100: p99 is the 99th smallest, not the max.
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => 100 - i),
        99,
      ),
    ).toBe(99);
  });

  it('refuses an empty series or a percentile out of range', () => {
    expect(() => percentile([], 50)).toThrow(/empty/);
    expect(() => percentile([1], 101)).toThrow(/0\.\.100/);
    expect(() => percentile([1], Number.NaN)).toThrow(/0\.\.100/);
    expect(() => summarize([])).toThrow(/empty/);
    expect(() => median([])).toThrow(/empty/);
  });

  it('summarizes a series without reordering the caller’s array', () => {
    const samples = [3, 1, 2, 4];
    expect(summarize(samples)).toEqual({ count: 4, meanMs: 2.5, p50Ms: 2, p95Ms: 4, p99Ms: 4, maxMs: 4 });
    expect(samples).toEqual([3, 1, 2, 4]);
    expect(median(samples)).toBe(2.5);
    expect(median([3, 1, 2])).toBe(2);
  });

  it('formats ratios and tables', () => {
    expect(ratio(850, 1000)).toBe('0.85×');
    expect(ratio(1, 0)).toBe('n/a');
    expect(markdownTable(['a', 'bb'], [['1', '2']])).toBe('| a | bb |\n| - | -- |\n| 1 | 2  |');
    expect(() => markdownTable(['a'], [['1', '2']])).toThrow(/2 cells for 1 columns/);
  });
});
