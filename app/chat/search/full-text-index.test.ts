import { describe, expect, it } from 'vitest';
import { FullTextIndex } from './full-text-index';

const FILE = { size: 1, mtimeMs: 2, ino: 3 };

function reload(index: FullTextIndex): FullTextIndex {
  const parsed = FullTextIndex.parse(index.serialize());
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

describe('FullTextIndex', () => {
  it('keeps every term, document and file through its file, and updates what it loaded', () => {
    const index = new FullTextIndex();
    index.set('a', new Set(['kiel', 'ferry', '数据']), FILE);
    index.set('b', new Set(['kiel', 'fern']), { size: 9, mtimeMs: 8, ino: 7 });
    index.set('c', new Set(['gone']), FILE);
    index.remove('c');
    const loaded = reload(index);
    expect(loaded.documentIds().sort()).toEqual(['a', 'b']);
    expect(loaded.fileOf('b')).toEqual({ size: 9, mtimeMs: 8, ino: 7 });
    expect(loaded.match([{ term: 'kiel', prefix: false }]).ids.sort()).toEqual(['a', 'b']);
    expect(loaded.match([{ term: 'gone', prefix: false }]).ids).toEqual([]);

    // Terms added after the load (not in the sorted run) are found whole and as prefixes, beside the loaded ones.
    loaded.set('b', new Set(['kiel', 'fermata']), FILE);
    loaded.set('d', new Set(['feral', 'zebra']), FILE);
    expect(loaded.match([{ term: 'fer', prefix: true }])).toEqual({
      ids: ['a', 'b', 'd'],
      terms: new Set(['ferry', 'fermata', 'feral']),
    });
    expect(loaded.match([{ term: 'fern', prefix: false }]).ids).toEqual([]);
    expect(loaded.match([{ term: 'zebra', prefix: false }]).ids).toEqual(['d']);
    expect(loaded.match([{ term: '据', prefix: true }]).ids).toEqual(['a']);
    expect(
      loaded.match([
        { term: 'kiel', prefix: false },
        { term: 'fer', prefix: true },
      ]).ids,
    ).toEqual(['a', 'b']);

    const again = reload(loaded);
    expect(again.match([{ term: 'fer', prefix: true }]).ids.sort()).toEqual(['a', 'b', 'd']);
    expect(again.match([{ term: 'zebra', prefix: false }]).ids).toEqual(['d']);
  });

  it('refuses a file that is not one, cut short, or naming what it does not list', () => {
    const index = new FullTextIndex();
    index.set('a', new Set(['kiel']), FILE);
    const good = index.serialize();
    expect(FullTextIndex.parse(Buffer.from('hello'))).toBe('it is too short to be a search index');
    expect(FullTextIndex.parse(good.subarray(0, good.length - 2))).toMatch(/cut short/);
    const bad = Buffer.from(good);
    bad.writeUInt32LE(5, bad.length - 4);
    expect(FullTextIndex.parse(bad)).toBe('a list names something not listed');
  });
});
