import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter';

function collect(maxLineBytes: number, overflow: 'discard' | 'truncate') {
  const lines: { text: string; truncated: boolean }[] = [];
  const overflows: number[] = [];
  const splitter = new LineSplitter({
    maxLineBytes,
    overflow,
    onLine: (line, truncated) => lines.push({ text: line.toString('utf8'), truncated }),
    onOverflow: (bytes) => overflows.push(bytes),
  });
  return { splitter, lines, overflows };
}

describe('LineSplitter', () => {
  it('joins lines split across chunks and strips CR', () => {
    const { splitter, lines } = collect(100, 'discard');
    splitter.push(Buffer.from('hel'));
    splitter.push(Buffer.from('lo\r\nwor'));
    splitter.push(Buffer.from('ld\n\nlast'));
    expect(lines.map((l) => l.text)).toEqual(['hello', 'world', '']);
    splitter.flush();
    expect(lines.map((l) => l.text)).toEqual(['hello', 'world', '', 'last']);
  });

  it('discards an over-long line up to its newline and keeps what follows', () => {
    const { splitter, lines, overflows } = collect(8, 'discard');
    splitter.push(Buffer.from('ok\n0123'));
    splitter.push(Buffer.from('456789'));
    expect(overflows).toEqual([10]);
    expect(splitter.bufferedBytes).toBe(0);
    splitter.push(Buffer.from('more junk'));
    splitter.push(Buffer.from('junk\nnext\n'));
    expect(lines.map((l) => l.text)).toEqual(['ok', 'next']);
    expect(overflows).toEqual([10]);
  });

  it('truncates an over-long line and marks it, skipping the rest of it', () => {
    const { splitter, lines } = collect(4, 'truncate');
    splitter.push(Buffer.from('abcdefgh\nij\n'));
    expect(lines).toEqual([
      { text: 'abcd', truncated: true },
      { text: 'ij', truncated: false },
    ]);
  });

  it('never buffers more than the limit while a line grows', () => {
    const { splitter } = collect(1_000, 'discard');
    for (let i = 0; i < 100; i++) {
      splitter.push(Buffer.alloc(100, 0x61));
      expect(splitter.bufferedBytes).toBeLessThanOrEqual(1_000);
    }
  });
});
