/**
 * Words for full-text search, in any language: case- and accent-insensitive
 * words for scripts that put spaces between words, and character bigrams for
 * runs of Chinese, Japanese and Korean (no spaces to split on, so "数据库"
 * is found by 数据 and 据库). Indexing and queries use the same function, so
 * a query finds exactly what was indexed; offsets are into the original text
 * (UTF-16 code units), for snippets and highlights.
 */

/** Longer runs of letters and digits are ids, hashes or base64: never searched for, and they would bloat the index. */
export const MAX_WORD_LENGTH = 64;

/** One term and where it stands in the text it came from. */
export type TokenSink = (term: string, start: number, end: number) => void;

const Kind = { Other: 0, Word: 1, Mark: 2, Cjk: 3 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
const MARKS = /\p{M}/gu;
const NON_ASCII = /[\u0080-\uffff]/;

/** Classes of the code points above ASCII seen so far: a regex test per character cost most of an index rebuild. */
const wideKinds = new Map<number, Kind>();

function kindOf(code: number): Kind {
  if (code < 128) {
    // 0-9, A-Z, a-z
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
      ? Kind.Word
      : Kind.Other;
  }
  let kind = wideKinds.get(code);
  if (kind === undefined) {
    const char = String.fromCodePoint(code);
    kind = CJK.test(char) ? Kind.Cjk : WORD.test(char) ? Kind.Word : MARK.test(char) ? Kind.Mark : Kind.Other;
    wideKinds.set(code, kind);
  }
  return kind;
}

/** Lower case without accents: "Ärger" and "arger" are one term; "ﬁ" is "fi". */
export function foldWord(word: string): string {
  return !NON_ASCII.test(word) ? word.toLowerCase() : word.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** Calls `sink` with every term of `text`, in order. */
export function tokenize(text: string, sink: TokenSink): void {
  const length = text.length;
  let index = 0;
  while (index < length) {
    const code = text.codePointAt(index)!;
    const kind = kindOf(code);
    if (kind === Kind.Word) {
      const start = index;
      index += code > 0xffff ? 2 : 1;
      while (index < length) {
        const next = text.codePointAt(index)!;
        const nextKind = kindOf(next);
        if (nextKind !== Kind.Word && nextKind !== Kind.Mark) break;
        index += next > 0xffff ? 2 : 1;
      }
      if (index - start <= MAX_WORD_LENGTH) {
        const term = foldWord(text.slice(start, index));
        if (term !== '') sink(term, start, index);
      }
    } else if (kind === Kind.Cjk) {
      index = cjkRun(text, index, sink);
    } else {
      index += code > 0xffff ? 2 : 1;
    }
  }
}

/** A run of CJK characters from `start`: its bigrams, or the one character when it stands alone. Returns where it ends. */
function cjkRun(text: string, start: number, sink: TokenSink): number {
  let previous = start;
  let index = start + (text.codePointAt(start)! > 0xffff ? 2 : 1);
  let pairs = 0;
  while (index < text.length) {
    const code = text.codePointAt(index)!;
    if (kindOf(code) !== Kind.Cjk) break;
    const end = index + (code > 0xffff ? 2 : 1);
    sink(text.slice(previous, end), previous, end);
    pairs += 1;
    previous = index;
    index = end;
  }
  if (pairs === 0) sink(text.slice(start, index), start, index);
  return index;
}

/** Whether a term is a CJK unigram or bigram (queries of one CJK character match every bigram that holds it). */
export function isCjkTerm(term: string): boolean {
  return kindOf(term.codePointAt(0)!) === Kind.Cjk;
}

/** The distinct terms of `text`, added to `into`. */
export function collectTerms(text: string, into: Set<string>): void {
  tokenize(text, (term) => into.add(term));
}
