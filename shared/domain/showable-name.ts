// Names a server chooses (tools, titles, skills, domains) are shown in the
// dialogs where the person decides. A bidi control can reorder what follows it
// ("Allow ‮nur ot‬ …"), a line break or a control character can push text out
// of view, a zero-width character can make two names look alike. Each such
// character is shown as a visible escape instead, never silently dropped, so
// the person sees that the name holds it.

/**
 * Characters that change layout or are invisible: controls (C0 with line
 * breaks and tabs, DEL, C1), format characters (bidi embeddings, overrides
 * and isolates, LRM/RLM, zero-width space and joiners, soft hyphen, BOM,
 * invisible operators, tag characters), line and paragraph separators, and
 * the invisible letters and marks a look-alike name can hide (combining
 * grapheme joiner, Hangul fillers, Khmer inherent vowels; U+2065, unassigned
 * amid the isolates). One character class: the tray and notifications use it
 * on the first screen, whose JavaScript has a budget.
 */
// eslint-disable-next-line no-misleading-character-class -- the lone combining marks are the point: each is escaped, not combined
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u034f\u115f\u1160\u17b4\u17b5\u2065\u3164\uffa0]/gu;

const escapeOf = (character: string): string => {
  const hex = (character.codePointAt(0) ?? 0).toString(16).toUpperCase();
  return hex.length <= 4 ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
};

/**
 * A server-chosen name as it may be shown in a decision: every bidi control,
 * C0/C1 control, DEL and zero-width or otherwise invisible character written as
 * a visible escape (`\u202E`, `\u000A`, `\u{E0041}`); everything else as it is.
 * Show it isolated from the text around it too: `<bdi>` in the page (so a
 * right-to-left name cannot move its neighbours), isolatedName in plain text.
 */
export function showableName(name: string): string {
  return name.replace(HIDDEN, escapeOf);
}

/** Whether showableName changes the name (it holds a character shown as an escape). */
export function hasHiddenCharacters(name: string): boolean {
  return showableName(name) !== name;
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
