import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compileCatalog,
  LOCALES_DIR,
  pseudoText,
  readCatalog,
  readCatalogFiles,
  SOURCE_LOCALE,
} from '../scripts/i18n-catalogs.mjs';
import { LANGUAGES } from '../shared/domain/language';
import { CATALOG_FILES } from '../renderer/i18n/message-ids';

// The checks every catalog change runs: no locale misses a message or has one English lacks, every
// translation keeps English's arguments (names, plural/select, markup tags), and every message is
// valid ICU MessageFormat. English is the source; the other locales translate it.

const TRANSLATIONS = LANGUAGES.filter((locale) => locale !== SOURCE_LOCALE);
const english = readCatalog(SOURCE_LOCALE);

type Compiled = string | readonly unknown[] | Record<string, unknown>;

/** What a translation must keep of a message: each argument with its kind, each select's cases, each markup tag. */
function signature(compiled: Compiled): string[] {
  const found = new Set<string>();
  // A compiled message is a list of tokens: text, or an argument [name, kind?, format?] whose
  // plural/select format holds a list of tokens per case.
  const list = (tokens: unknown): void => {
    if (typeof tokens === 'string') return text(tokens);
    if (!Array.isArray(tokens)) return;
    for (const token of tokens) {
      if (typeof token === 'string') text(token);
      else if (Array.isArray(token)) argument(token);
    }
  };
  const text = (value: string) => {
    for (const match of value.matchAll(/<\/?([\w.-]+)\s*\/?>/g)) found.add(`tag ${match[1]}`);
  };
  const argument = ([name, kind, format]: unknown[]) => {
    found.add(`{${String(name)}${typeof kind === 'string' ? `, ${kind}` : ''}}`);
    if (typeof format !== 'object' || format === null) return;
    for (const [key, value] of Object.entries(format)) {
      if (key === 'offset') continue;
      if (kind === 'select') found.add(`{${String(name)}} case ${key}`);
      list(value);
    }
  };
  list(compiled);
  return [...found].sort();
}

describe('the message catalogs', () => {
  it('has one English file per catalog file message-ids.ts types, and each locale has the same files', () => {
    const englishFiles = readCatalogFiles(SOURCE_LOCALE).map((f) => f.file);
    expect([...englishFiles].sort()).toEqual([...CATALOG_FILES].sort());
    expect(readdirSync(LOCALES_DIR).sort()).toEqual([...LANGUAGES].sort());
    for (const locale of TRANSLATIONS) {
      expect(
        readCatalogFiles(locale).map((f) => f.file),
        `files of ${locale}`,
      ).toEqual(englishFiles);
    }
  });

  it('keeps each id in the file named by its prefix', () => {
    for (const locale of LANGUAGES) {
      for (const { file, path, messages } of readCatalogFiles(locale)) {
        const strays = Object.keys(messages).filter((id) => !id.startsWith(`${file}.`));
        expect(strays, `${path}: ids must start with "${file}."`).toEqual([]);
      }
    }
  });

  it.each(TRANSLATIONS)('has every English message in %s, and none English lacks', (locale) => {
    const translated = readCatalog(locale);
    const missing = Object.keys(english).filter((id) => !(id in translated));
    const extra = Object.keys(translated).filter((id) => !(id in english));
    expect(missing, `missing in ${join(LOCALES_DIR, locale)}`).toEqual([]);
    expect(extra, `in ${join(LOCALES_DIR, locale)} but not in English`).toEqual([]);
  });

  it('parses every message of every locale as ICU MessageFormat', () => {
    for (const locale of LANGUAGES) expect(() => compileCatalog(readCatalog(locale)), locale).not.toThrow();
  });

  it.each(TRANSLATIONS)("keeps English's arguments, plurals, selects and tags in %s", (locale) => {
    const source = compileCatalog(english) as Record<string, Compiled>;
    const translated = compileCatalog(readCatalog(locale)) as Record<string, Compiled>;
    const differing = Object.keys(source)
      .filter((id) => translated[id] !== undefined)
      .filter((id) => JSON.stringify(signature(source[id] ?? '')) !== JSON.stringify(signature(translated[id] ?? '')))
      .map(
        (id) =>
          `${id}: English has ${signature(source[id] ?? '').join(' ')}; ${locale} has ${signature(translated[id] ?? '').join(' ')}`,
      );
    expect(differing).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('refuses a message that is not ICU, naming it', () => {
    expect(() => compileCatalog({ 'x.broken': 'You have {count, plural, one {# file}' })).toThrow(/"x\.broken"/);
  });

  it('tells a dropped argument, a changed select and a lost tag apart from a faithful translation', () => {
    const sig = (message: string) => signature(compileCatalog({ id: message }).id as Compiled);
    const source = sig(
      '{count, plural, one {# tool} other {# tools}} on <link>{server}</link>, {kind, select, a {A} other {B}}',
    );
    expect(
      sig('<link>{server}</link>上的 {count, plural, other {# 个工具}}，{kind, select, a {甲} other {乙}}'),
    ).toEqual(source);
    expect(sig('{count, plural, other {# 个工具}}，{kind, select, a {甲} other {乙}}')).not.toEqual(source);
    expect(sig('<link>{server}</link> {count} {kind, select, a {甲} other {乙}}')).not.toEqual(source);
    expect(sig('<link>{server}</link> {count, plural, other {#}} {kind, select, b {甲} other {乙}}')).not.toEqual(
      source,
    );
    expect(sig('{server} {count, plural, other {#}} {kind, select, a {甲} other {乙}}')).not.toEqual(source);
  });

  it('makes the pseudo-locale accented and longer, keeping markup tags', () => {
    const text = 'Add a server to <link>start</link>';
    const pseudo = pseudoText(text);
    expect(pseudo).toContain('<link>');
    expect(pseudo).toContain('</link>');
    expect(pseudo.replace(/<\/?link>/g, '')).not.toMatch(/[a-z]/i);
    const withoutTags = (value: string) => value.replace(/<\/?link>/g, '');
    expect(withoutTags(pseudo).length).toBeGreaterThanOrEqual(Math.ceil(withoutTags(text).length * 1.4));
  });

  it('leaves names a translation keeps in the pseudo-locale as written: variables, files, options, paths', () => {
    const pseudo = pseudoText('Set ANTHROPIC_API_KEY or add it to PATH, then save settings.json (--stdio, $HOME).');
    for (const name of ['ANTHROPIC_API_KEY', 'PATH,', 'settings.json', '(--stdio,', '$HOME).'])
      expect(pseudo).toContain(` ${name}`);
    expect(pseudo.startsWith('Šééţ ')).toBe(true);
    expect(pseudo).not.toContain(' or ');
    expect(pseudoText('snake_case at http://127.0.0.1:8080/mcp')).toMatch(
      /^snake_case ààţ http:\/\/127\.0\.0\.1:8080\/mcp·+$/,
    );
  });

  it('keeps placeholders and tags of a whole message as they are in the pseudo-locale', () => {
    const [compiled] = Object.values(
      compileCatalog(
        { 'x.y': 'Set <code>{name}</code> in PATH for {count, plural, one {# server} other {# servers}}' },
        { pseudo: true },
      ),
    );
    const text = JSON.stringify(compiled);
    expect(text).toContain('"name"');
    expect(text).toContain('"count"');
    expect(text).toContain(' PATH ');
    expect(text).toContain('code');
  });
});
