import { describe, expect, it } from 'vitest';
import { diffLines } from './line-diff';

describe('diffLines', () => {
  it('keeps common lines and marks what was removed and added', () => {
    expect(diffLines('a\nb\nc', 'a\nx\nc\nd')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'd' },
    ]);
  });

  it('treats empty text as no lines', () => {
    expect(diffLines('', 'new')).toEqual([{ kind: 'added', text: 'new' }]);
    expect(diffLines('old', '')).toEqual([{ kind: 'removed', text: 'old' }]);
    expect(diffLines('', '')).toEqual([]);
  });

  it('shows a very large change as replaced instead of building a huge table', () => {
    const before = Array.from({ length: 600 }, (_, n) => `b${n}`).join('\n');
    const after = Array.from({ length: 600 }, (_, n) => `a${n}`).join('\n');
    const lines = diffLines(before, after);
    expect(lines).toHaveLength(1200);
    expect(lines[0]).toEqual({ kind: 'removed', text: 'b0' });
    expect(lines[600]).toEqual({ kind: 'added', text: 'a0' });
  });
});
