// Names a server chooses (tools, titles, skills, domains) are shown in the
// dialogs where the person decides. A bidi control can reorder what follows it
// ("Allow ‮nur ot‬ …"), a line break or a control character can push text out
// of view, a zero-width character can make two names look alike. Each such
// character is shown as a visible escape instead, never silently dropped, so
// the person sees that the name holds it.

/** Ranges (inclusive) of code points that change layout or are invisible. */
const HIDDEN_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x001f], // C0 controls, line breaks and tabs included
  [0x007f, 0x009f], // DEL and C1 controls
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark
  [0x115f, 0x1160], // Hangul fillers
  [0x17b4, 0x17b5], // Khmer inherent vowels (invisible)
  [0x180e, 0x180e], // Mongolian vowel separator
  [0x200b, 0x200f], // zero-width space, non-joiner, joiner; LRM, RLM
  [0x2028, 0x202e], // line and paragraph separators; LRE, RLE, PDF, LRO, RLO
  [0x2060, 0x206f], // word joiner, invisible operators; LRI, RLI, FSI, PDI; deprecated format controls
  [0x3164, 0x3164], // Hangul filler
  [0xfeff, 0xfeff], // zero-width no-break space (BOM)
  [0xffa0, 0xffa0], // halfwidth Hangul filler
  [0xfff9, 0xfffb], // interlinear annotation controls
  [0xe0000, 0xe007f], // tag characters (invisible ASCII look-alikes)
];

/** Whether the code point would reorder, break or hide text around it. */
export function isHiddenCodePoint(codePoint: number): boolean {
  return HIDDEN_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to);
}

const escapeOf = (codePoint: number): string =>
  codePoint <= 0xffff ? `\\u${codePoint.toString(16).toUpperCase().padStart(4, '0')}` : `\\u{${codePoint.toString(16).toUpperCase()}}`;

/**
 * A server-chosen name as it may be shown in a decision: every bidi control,
 * C0/C1 control, DEL and zero-width or otherwise invisible character written as
 * a visible escape (`\u202E`, `\u000A`, `\u{E0041}`); everything else as it is.
 * Show it isolated from the text around it too: `<bdi>` in the page (so a
 * right-to-left name cannot move its neighbours), isolatedName in plain text.
 */
export function showableName(name: string): string {
  let shown = '';
  for (const character of name) {
    const codePoint = character.codePointAt(0) ?? 0;
    shown += isHiddenCodePoint(codePoint) ? escapeOf(codePoint) : character;
  }
  return shown;
}

/** Whether showableName changes the name (it holds a character shown as an escape). */
export function hasHiddenCharacters(name: string): boolean {
  for (const character of name) if (isHiddenCodePoint(character.codePointAt(0) ?? 0)) return true;
  return false;
}

/**
 * showableName between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, for
 * plain text that has no `<bdi>` (a desktop notification, the window title):
 * the name's own direction stays inside it. The name holds no bidi control of
 * its own any more, so the pair is balanced.
 */
export function isolatedName(name: string): string {
  return `\u2068${showableName(name)}\u2069`;
}
