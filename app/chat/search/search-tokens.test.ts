import { describe, expect, it } from 'vitest';
import { MAX_WORD_LENGTH, tokenize } from './search-tokens';

function tokens(text: string): [string, number, number][] {
  const found: [string, number, number][] = [];
  tokenize(text, (term, start, end) => found.push([term, start, end]));
  return found;
}

describe('search tokens', () => {
  it('splits English into lower-cased words with their offsets', () => {
    expect(tokens('The Harbour, at 6pm: search_tools!')).toEqual([
      ['the', 0, 3],
      ['harbour', 4, 11],
      ['at', 13, 15],
      ['6pm', 16, 19],
      ['search', 21, 27],
      ['tools', 28, 33],
    ]);
  });

  it('drops accents and folds case, composed or not, so café, CAFÉ and cafe are one word', () => {
    const decomposed = 'cafe\u0301';
    expect(tokens('Café CAFÉ cafe')).toEqual([
      ['cafe', 0, 4],
      ['cafe', 5, 9],
      ['cafe', 10, 14],
    ]);
    expect(tokens(decomposed)).toEqual([['cafe', 0, 5]]);
    expect(tokens('Ärger Straße ﬁle')).toEqual([
      ['arger', 0, 5],
      ['straße', 6, 12],
      ['file', 13, 16],
    ]);
  });

  it('cuts Chinese, Japanese and Korean runs into overlapping bigrams, a lone character into itself', () => {
    expect(tokens('数据库备份')).toEqual([
      ['数据', 0, 2],
      ['据库', 1, 3],
      ['库备', 2, 4],
      ['备份', 3, 5],
    ]);
    expect(tokens('見る SQL 서버를')).toEqual([
      ['見る', 0, 2],
      ['sql', 3, 6],
      ['서버', 7, 9],
      ['버를', 8, 10],
    ]);
    expect(tokens('用 Berth 连')).toEqual([
      ['用', 0, 1],
      ['berth', 2, 7],
      ['连', 8, 9],
    ]);
    // A character outside the BMP (CJK extension B) is one character, not two halves.
    expect(tokens('𠀋字')).toEqual([['𠀋字', 0, 3]]);
  });

  it('skips words too long to be words (hashes, base64)', () => {
    expect(tokens(`a ${'x'.repeat(MAX_WORD_LENGTH + 1)} b`).map(([term]) => term)).toEqual(['a', 'b']);
  });
});
