/**
 * A command line as text that a POSIX shell reads back as exactly the same
 * argv: words with only safe characters bare, the rest in single quotes
 * (inside which nothing is special but the quote itself), and control and
 * invisible formatting characters as ANSI-C `$'\n'` escapes, so a newline,
 * an escape sequence or a right-to-left override in an argument is seen,
 * never swallowed by the display or acted on by a terminal. `$'…'` is
 * POSIX.1-2024 (bash, zsh, ksh, busybox; not yet dash 0.5.12).
 */

// Bare words need no quoting in any POSIX shell (no leading `~` or `=`: tilde and zsh's `=cmd` expansion).
const SAFE = /^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$/;
// C0 and C1 controls, DEL, and formatting characters that reorder or hide text (bidi overrides, zero-width).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\u001b': '\\e' };

function hex(byte: number): string {
  return `\\x${byte.toString(16).padStart(2, '0')}`;
}

/** One hidden character inside `$'…'`: its usual escape, else its UTF-8 bytes in hex. */
function escaped(char: string): string {
  return NAMED[char] ?? [...new TextEncoder().encode(char)].map(hex).join('');
}

/** One argument as shell text. */
export function shellWord(word: string): string {
  if (SAFE.test(word)) return word;
  if (word === '') return "''";
  let out = '';
  let plain = '';
  const flush = () => {
    if (plain !== '') out += `'${plain.replace(/'/g, `'\\''`)}'`;
    plain = '';
  };
  for (const char of word) {
    if (HIDDEN.test(char)) {
      flush();
      out += `$'${escaped(char)}'`;
    } else plain += char;
  }
  flush();
  return out;
}

/** A whole argv (program first) as one line to show and to paste into a shell. */
export function shellLine(argv: readonly string[]): string {
  return argv.map(shellWord).join(' ');
}
