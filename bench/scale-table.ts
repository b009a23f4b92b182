import { fixed, markdownTable, median } from './stats';

/** One measured quantity of a row, with its target beside it. */
export interface Measure {
  key: string;
  label: string;
  /** Shown beside the numbers; empty when the row only reports it. */
  target: string;
  /** Judges the median; without it the measure is reported, not judged. */
  pass?: (median: number) => boolean;
  digits?: number;
}

/**
 * min / median / max over the rounds for each measure, the target and a
 * pass/miss mark on the median. A measure a round could not take (NaN, e.g.
 * no search box in this build) is reported as not measured.
 */
export function scaleTable(measures: readonly Measure[], rounds: ReadonlyArray<Record<string, number>>): string {
  return markdownTable(
    ['measure', 'min', 'median', 'max', 'target', ''],
    measures.map((measure) => {
      const values = rounds
        .map((round) => round[measure.key])
        .filter((v): v is number => v !== undefined && Number.isFinite(v));
      if (values.length === 0) return [measure.label, '—', 'not measured', '—', measure.target, ''];
      const digits = measure.digits ?? 1;
      const mid = median(values);
      const mark = measure.pass === undefined ? '' : measure.pass(mid) ? 'pass' : 'MISS';
      return [
        measure.label,
        fixed(Math.min(...values), digits),
        fixed(mid, digits),
        fixed(Math.max(...values), digits),
        measure.target,
        mark,
      ];
    }),
  );
}
