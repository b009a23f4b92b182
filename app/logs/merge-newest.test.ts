import { describe, expect, it } from 'vitest';
import { mergeNewest } from './merge-newest';

const desc = (...seqs: number[]) => seqs.map((seq) => ({ seq }));

describe('mergeNewest', () => {
  it('returns the newest N across lists, oldest first', () => {
    const lists = [desc(9, 5, 1), desc(8, 7, 2), desc(), desc(6, 4, 3)];
    expect(mergeNewest(lists, 100).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(mergeNewest(lists, 4).map((e) => e.seq)).toEqual([6, 7, 8, 9]);
    expect(mergeNewest([], 4)).toEqual([]);
  });

  it('agrees with a sort on random input', () => {
    let state = 7;
    const random = () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
    const all = Array.from({ length: 2_000 }, (_, i) => i);
    const lists: { seq: number }[][] = Array.from({ length: 13 }, () => []);
    for (const seq of all) lists[Math.floor(random() * 13)]?.push({ seq });
    for (const list of lists) list.reverse();
    expect(mergeNewest(lists, 777).map((e) => e.seq)).toEqual(all.slice(-777));
  });
});
