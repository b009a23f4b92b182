import { setupI18n, type I18n, type Messages } from '@lingui/core';
import type { MessageId } from '../../renderer/i18n/message-ids';
import { compileCatalog, PSEUDO_LOCALE, readCatalog, SOURCE_LOCALE } from '../../scripts/i18n-catalogs.mjs';

// The words a localized spec finds its way by, read from the same catalogs the renderer is built from, so a spec
// never writes a translation twice and follows the translators' edits. The pseudo-locale is built as the build
// builds it (English, accented and longer).

/** A catalog folder under renderer/i18n/locales, or the pseudo-locale. */
export type CatalogLocale = 'en' | 'zh-CN' | 'zh-TW' | 'ko' | 'ja' | typeof PSEUDO_LOCALE;

type Values = Record<string, string | number>;

const instances = new Map<CatalogLocale, I18n>();

function catalog(locale: CatalogLocale): I18n {
  let i18n = instances.get(locale);
  if (i18n === undefined) {
    const source = locale === PSEUDO_LOCALE ? SOURCE_LOCALE : locale;
    const messages = compileCatalog(readCatalog(source), { pseudo: locale === PSEUDO_LOCALE }) as Messages;
    // Plurals and numbers are chosen by the tag the renderer gives Intl for that locale.
    i18n = setupI18n({
      locale,
      locales: [locale === PSEUDO_LOCALE ? 'en-XA' : locale],
      messages: { [locale]: messages },
    });
    instances.set(locale, i18n);
  }
  return i18n;
}

/**
 * The message `id` as the renderer shows it in `locale`, its placeholders filled from `values`. Markup tags of rich
 * messages (`<tool/>`, `<link>…</link>`) are left in: use `wordPattern` for those.
 */
export function word(locale: CatalogLocale, id: MessageId, values: Values = {}): string {
  const i18n = catalog(locale);
  if (!(id in i18n.messages)) throw new Error(`No message "${id}" in the ${locale} catalog.`);
  return i18n._(id, values);
}

const TAG = /<\/?[\w.-]+\s*\/?>/g;
const SLOT = '\u0000';

/**
 * The message as a whole-text pattern: the given values in place, every other placeholder and every self-closing
 * tag (`<tool/>`, which the renderer fills with an element) matching any text, paired tags dropped (their text
 * stays).
 */
export function wordPattern(locale: CatalogLocale, id: MessageId, values: Values = {}): RegExp {
  const source = readCatalog(locale === PSEUDO_LOCALE ? SOURCE_LOCALE : locale)[id] ?? '';
  const open = new Set([...source.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1] ?? '').filter((name) => name !== ''));
  const filled: Values = {};
  for (const name of open) filled[name] = values[name] ?? SLOT;
  const text = word(locale, id, filled)
    .replace(TAG, (tag) => (tag.endsWith('/>') ? SLOT : ''))
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${text.split(SLOT).join('.+?')}$`);
}

/**
 * The Latin-script words the translators of `locale` kept in its translated messages (product and protocol names,
 * keys, commands: "Claude Desktop", "PATH", "README"), lower-cased. Messages still the same as in English are left
 * out: a copied English message is a missing translation, not a kept name. Empty for English and the pseudo-locale.
 */
export function keptByTranslators(locale: CatalogLocale): Set<string> {
  const kept = new Set<string>();
  if (locale === SOURCE_LOCALE || locale === PSEUDO_LOCALE) return kept;
  const english = readCatalog(SOURCE_LOCALE);
  for (const [id, message] of Object.entries(readCatalog(locale))) {
    if (message === english[id]) continue;
    const text = message
      .replace(/\{\s*\w+\s*,\s*(plural|select|selectordinal|number|date|time)\s*,/g, ' ')
      .replace(/\{\s*\w+\s*\}/g, ' ')
      .replace(/(=\d+|\b(zero|one|two|few|many|other|offset|\w+))\s*\{/g, ' ')
      .replace(TAG, ' ');
    for (const found of latinWords(text)) kept.add(found.toLowerCase());
  }
  return kept;
}

/** Text like `tools/list`, `name@example.com`, `config.json` or `get_*`: code, never prose. */
const CODE_LIKE = /[A-Za-z0-9][/._@=:\\][A-Za-z0-9*]/;

/** The Latin-script words of a text, two letters or more, leaving out code-like tokens (paths, methods, addresses). */
export function latinWords(text: string): string[] {
  return text
    .split(/\s+/)
    .filter((token) => !CODE_LIKE.test(token))
    .flatMap((token) => token.match(/[A-Za-z]{2,}/g) ?? []);
}
