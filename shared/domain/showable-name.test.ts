import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters, isolatedName, showableName } from './showable-name';

describe('showableName', () => {
  it('leaves ordinary names as they are, other scripts and emoji included', () => {
    for (const name of ['read_file', 'get-time.v2', 'Über Tool', 'ファイル', 'ملف', '🚀 launch']) {
      expect(showableName(name)).toBe(name);
      expect(hasHiddenCharacters(name)).toBe(false);
    }
  });

  it('shows every bidi control as a visible escape', () => {
    const bidi = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c];
    for (const codePoint of bidi) {
      const name = `a${String.fromCodePoint(codePoint)}b`;
      expect(showableName(name)).toBe(`a\\u${codePoint.toString(16).toUpperCase().padStart(4, '0')}b`);
      expect(hasHiddenCharacters(name)).toBe(true);
    }
    expect(showableName('wipe\u202Eelif_daer')).toBe('wipe\\u202Eelif_daer');
  });

  it('shows C0, DEL, C1, line separators and zero-width characters as escapes, never dropping them', () => {
    expect(showableName('read\nfile')).toBe('read\\u000Afile');
    expect(showableName('a\u0000b\tc\rd')).toBe('a\\u0000b\\u0009c\\u000Dd');
    expect(showableName('x\u007Fy\u0085z\u009F')).toBe('x\\u007Fy\\u0085z\\u009F');
    expect(showableName('re\u200Bad\u200C\u200D\u2060\uFEFF')).toBe('re\\u200Bad\\u200C\\u200D\\u2060\\uFEFF');
    expect(showableName('a\u2028b\u2029c\u00ADd')).toBe('a\\u2028b\\u2029c\\u00ADd');
  });

  it('shows invisible tag characters (outside the BMP) with their full code point', () => {
    expect(showableName('ok\u{E0041}\u{E0042}')).toBe('ok\\u{E0041}\\u{E0042}');
  });

  it('leaves no character that reorders or hides text', () => {
    const all = Array.from({ length: 0x3000 }, (_, index) => String.fromCodePoint(index)).join('');
    const left = [...showableName(all)].map((character) => character.codePointAt(0) ?? 0);
    const reorderOrHide = (c: number): boolean =>
      c <= 0x1f ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x61c ||
      (c >= 0x200b && c <= 0x200f) ||
      (c >= 0x2028 && c <= 0x202e) ||
      (c >= 0x2060 && c <= 0x2069);
    expect(left.filter(reorderOrHide)).toEqual([]);
  });
});

describe('isolatedName', () => {
  it('wraps the escaped name in one balanced isolate for plain text', () => {
    expect(isolatedName('evil\u202Etxt.exe')).toBe('\u2068evil\\u202Etxt.exe\u2069');
  });
});
