import { describe, expect, it } from 'vitest';
import { parseRangeInput, readRange } from './result-range';

const text = Array.from({ length: 1_000 }, (_, index) => `line ${index + 1}`).join('\n');

function ok(answer: ReturnType<typeof readRange>): string {
  if (!answer.ok) throw new Error(answer.message);
  return answer.text;
}

describe('readRange', () => {
  it('reads characters by offset and length, saying which they are and where the next part starts', () => {
    const answer = ok(readRange(text, { kind: 'chars', offset: 7, length: 13 }, 1_000));
    expect(answer).toBe(
      `[Offsets 7–20 of ${text.length.toLocaleString('en-US')} characters, lines 2–3 of 1,000. More follows: next offset 20.]\nline 2\nline 3`,
    );
  });

  it('reads lines, 1-based and inclusive', () => {
    const answer = ok(readRange(text, { kind: 'lines', startLine: 998, endLine: 1_000 }, 1_000));
    expect(answer.split('\n').slice(1)).toEqual(['line 998', 'line 999', 'line 1000']);
    expect(answer).toContain('This is the end of the result.');
  });

  it('never returns more than the bound per call, and says so', () => {
    const answer = ok(readRange(text, { kind: 'chars', offset: 0, length: 5_000 }, 100));
    expect(answer.split('\n').slice(1).join('\n')).toHaveLength(100);
    expect(answer).toContain('next offset 100 (at most 100 characters a call)');
    const lines = ok(readRange(text, { kind: 'lines', startLine: 1 }, 50));
    expect(lines.split('\n').slice(1).join('\n')).toHaveLength(50);
  });

  it('clamps a length past the end to the end', () => {
    const answer = ok(readRange('abcdef', { kind: 'chars', offset: 4, length: 100 }, 1_000));
    expect(answer).toBe('[Offsets 4–6 of 6 characters, lines 1–1 of 1. This is the end of the result.]\nef');
  });

  it('refuses an offset or a line past the end, in words', () => {
    expect(readRange('abc', { kind: 'chars', offset: 3 }, 10)).toEqual({
      ok: false,
      message: 'offset 3 is past the end: the result has 3 characters (offsets 0–3)',
    });
    expect(readRange(text, { kind: 'lines', startLine: 1_001 }, 10)).toEqual({
      ok: false,
      message: 'start_line 1,001 is past the end: the result has 1,000 lines',
    });
  });

  it('never hands out half of a surrogate pair at either end', () => {
    const emoji = 'a😀😀😀b';
    const from = ok(readRange(emoji, { kind: 'chars', offset: 2, length: 2 }, 100));
    expect(from.split('\n')[1]).toBe('😀');
    const to = ok(readRange(emoji, { kind: 'chars', offset: 1, length: 3 }, 100));
    expect(to.split('\n')[1]).toBe('😀');
  });
});

describe('parseRangeInput', () => {
  it('reads offset/length, or lines, and defaults to the start', () => {
    expect(parseRangeInput({})).toEqual({ kind: 'chars', offset: 0 });
    expect(parseRangeInput({ offset: 10, length: 5 })).toEqual({ kind: 'chars', offset: 10, length: 5 });
    expect(parseRangeInput({ start_line: 3, end_line: 9 })).toEqual({ kind: 'lines', startLine: 3, endLine: 9 });
  });

  it('says what is wrong with bad input', () => {
    expect(parseRangeInput({ offset: -1 })).toEqual({ problem: 'offset must be a whole number of at least 0' });
    expect(parseRangeInput({ length: 1.5 })).toEqual({ problem: 'length must be a whole number of at least 1' });
    expect(parseRangeInput({ offset: '10' })).toEqual({ problem: 'offset must be a whole number of at least 0' });
    expect(parseRangeInput({ offset: 1, start_line: 2 })).toEqual({
      problem: 'give either offset and length, or start_line and end_line, not both',
    });
    expect(parseRangeInput({ end_line: 2 })).toEqual({ problem: 'start_line is missing' });
    expect(parseRangeInput({ start_line: 5, end_line: 2 })).toEqual({
      problem: 'end_line (2) is before start_line (5)',
    });
  });
});
