import type { SearchText, SearchTextRole } from './search-text';
import { tokenize } from './search-tokens';

/** A stretch of a message around the first hit, with where the matches are in it. */
export interface SearchSnippet {
  /** A stretch of the message's text (the renderer adds "…" where it was cut). */
  text: string;
  /** Whether the message goes on before and after the stretch. */
  cutStart: boolean;
  cutEnd: boolean;
  role: SearchTextRole;
  messageId: string;
  /** The matches in `text` (UTF-16 offsets, end exclusive), in order, not overlapping; the first is the first hit. */
  highlights: { start: number; end: number }[];
}

/** Characters shown before the first hit, and after it. */
const BEFORE = 40;
const AFTER = 120;

function isLowSurrogate(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The snippet of the first text (in message order) holding one of `terms`, or undefined when none does (a title-only hit). */
export function findSnippet(texts: readonly SearchText[], terms: ReadonlySet<string>): SearchSnippet | undefined {
  for (const { text, role, messageId } of texts) {
    const hits: { start: number; end: number }[] = [];
    let limit = Infinity;
    tokenize(text, (term, start, end) => {
      if (start > limit || !terms.has(term)) return;
      if (hits.length === 0) limit = start + BEFORE + AFTER;
      hits.push({ start, end });
    });
    const first = hits[0];
    if (first === undefined) continue;
    let from = Math.max(0, first.start - BEFORE);
    // Begin at a word where there is one near: "…the harbour" rather than "…e harbour".
    const space = text.indexOf(' ', from);
    if (from > 0 && space >= 0 && space < first.start && space - from < 20) from = space + 1;
    if (isLowSurrogate(text, from)) from += 1;
    let to = Math.min(text.length, first.end + AFTER);
    const lastSpace = text.lastIndexOf(' ', to);
    if (to < text.length && lastSpace > first.end + AFTER / 2) to = lastSpace;
    if (isLowSurrogate(text, to)) to -= 1;
    const highlights: { start: number; end: number }[] = [];
    for (const hit of hits) {
      if (hit.start < from || hit.end > to) continue;
      const start = hit.start - from;
      const end = hit.end - from;
      const last = highlights.at(-1);
      // CJK bigrams overlap (数据, 据库): one highlight for 数据库.
      if (last !== undefined && start <= last.end) last.end = Math.max(last.end, end);
      else highlights.push({ start, end });
    }
    return { text: text.slice(from, to), cutStart: from > 0, cutEnd: to < text.length, role, messageId, highlights };
  }
  return undefined;
}
