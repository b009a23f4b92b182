// @ts-check
// Berth's message catalogs at build and test time: renderer/i18n/locales/<locale>/<file>.json, one
// file per feature per locale (so people converting different features never edit the same file),
// merged into one catalog per locale and compiled to Lingui's message format here, ahead of time, so
// no ICU parser ships to the renderer. The Vite plugin serves each locale as a module of its own
// (`virtual:berth-catalog/<locale>`), which the renderer imports on demand: one chunk per locale.
// `pseudo` is English made accented and ~40% longer between brackets, to spot text that breaks a
// layout (it is built from English, never kept as files, and not offered in the Language setting).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';

export const LOCALES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer', 'i18n', 'locales');
export const SOURCE_LOCALE = 'en';
export const PSEUDO_LOCALE = 'pseudo';

const VIRTUAL_PREFIX = 'virtual:berth-catalog/';
const RESOLVED_PREFIX = '\0berth-catalog:';

/** The locales with a folder of catalog files (the source first), then the pseudo-locale. */
export function catalogLocales(dir = LOCALES_DIR) {
  const found = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return [SOURCE_LOCALE, ...found.filter((name) => name !== SOURCE_LOCALE), PSEUDO_LOCALE];
}

/**
 * One locale's catalog files, each as its file name (without `.json`) and its messages.
 * @param {string} locale
 * @returns {Array<{ file: string, path: string, messages: Record<string, string> }>}
 */
export function readCatalogFiles(locale, dir = LOCALES_DIR) {
  const folder = join(dir, locale);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const path = join(folder, name);
      /** @type {unknown} */
      let parsed;
      try {
        parsed = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new Error(`${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`, {
          cause: error,
        });
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error(`${path} must hold one JSON object of message id → ICU message.`);
      for (const [id, message] of Object.entries(parsed)) {
        if (typeof message !== 'string')
          throw new Error(`${path}: the message "${id}" must be a string (an ICU message), not ${typeof message}.`);
      }
      return { file: name.slice(0, -'.json'.length), path, messages: /** @type {Record<string, string>} */ (parsed) };
    });
}

/**
 * A locale's messages from all its files; an id in two files is refused (each file owns its prefix).
 * @param {string} locale
 * @returns {Record<string, string>}
 */
export function readCatalog(locale, dir = LOCALES_DIR) {
  if (locale === PSEUDO_LOCALE) return readCatalog(SOURCE_LOCALE, dir);
  /** @type {Record<string, string>} */
  const merged = {};
  /** @type {Map<string, string>} */
  const owner = new Map();
  for (const { path, messages } of readCatalogFiles(locale, dir)) {
    for (const [id, message] of Object.entries(messages)) {
      const first = owner.get(id);
      if (first !== undefined)
        throw new Error(`The message id "${id}" is in both ${first} and ${path}: keep it in one.`);
      owner.set(id, path);
      merged[id] = message;
    }
  }
  return merged;
}

const ACCENTED = /** @type {Record<string, string>} */ ({
  a: 'à',
  b: 'ƀ',
  c: 'ç',
  d: 'ḋ',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'î',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ṁ',
  n: 'ñ',
  o: 'ô',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'û',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'À',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ḋ',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Î',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ô',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Û',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
});
const VOWEL = /[aeiouyAEIOUY]/;

// Names a translation keeps as written, so the pseudo-locale keeps them too: ALL_CAPS names
// (ANTHROPIC_API_KEY, PATH), words with an underscore or a slash (snake_case, paths, URLs), file names
// (settings.json), options (--stdio) and shell variables ($HOME). Punctuation around them is text.
const CODE_LIKE =
  /^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*|[A-Z0-9_]*_[A-Z0-9_]*|\S*[_/\\]\S*|\S+\.[A-Za-z]\w*|--?[a-z][\w-]*|\$\w+)$/;
const AROUND = /^([([“‘"'«]*)(.*?)([)\].,:;!?”’"'»…]*)$/s;

/**
 * A run of text accented, every vowel doubled; code-like names (CODE_LIKE) stay as they are.
 * @param {string} part
 */
function accented(part) {
  return part
    .split(/(\s+)/)
    .map((token) => {
      const [, before = '', core = '', after = ''] = AROUND.exec(token) ?? [];
      if (core.length > 1 && CODE_LIKE.test(core)) return before + core + after;
      return [...token]
        .map((char) => (VOWEL.test(char) ? (ACCENTED[char] ?? char).repeat(2) : (ACCENTED[char] ?? char)))
        .join('');
    })
    .join('');
}

/**
 * Text made accented and 40% longer: every vowel doubled, so words stay words and still wrap where
 * they would, then dots to the length. Tags of rich messages (`<link>…</link>`) and code-like names
 * (an environment variable, a file) are kept as they are; `{placeholders}` never reach here.
 * @param {string} text
 */
export function pseudoText(text) {
  const parts = text.split(/(<\/?[\w.-]+\s*\/?>)/);
  const words = parts.map((part, index) => (index % 2 === 1 ? part : accented(part)));
  // Doubled vowels make text ~30% longer; a tail of dots brings it to the 40% translations often need.
  const plain = parts.filter((_, index) => index % 2 === 0).join('');
  const grown = words.filter((_, index) => index % 2 === 0).join('');
  const missing = Math.ceil(plain.trim().length * 1.4) - grown.trim().length;
  return words.join('') + (missing > 0 ? '·'.repeat(missing) : '');
}

/**
 * The catalog compiled to Lingui's runtime format; a message that is not valid ICU fails with its id.
 * @param {Record<string, string>} messages
 * @param {{ pseudo?: boolean }} [options]
 * @returns {Record<string, unknown>}
 */
export function compileCatalog(messages, options = {}) {
  /** @type {Record<string, unknown>} */
  const compiled = {};
  for (const [id, message] of Object.entries(messages)) {
    try {
      const tokens = compileMessageOrThrow(message, options.pseudo ? pseudoText : undefined);
      compiled[id] = options.pseudo ? ['⟦', ...tokens, '⟧'] : tokens;
    } catch (error) {
      throw new Error(
        `The message "${id}" is not valid ICU MessageFormat: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  return compiled;
}

/**
 * The Vite plugin serving `virtual:berth-catalog/<locale>` as `export const messages = {…}`, compiled.
 * @returns {import('vite').Plugin}
 */
export function berthCatalogs(dir = LOCALES_DIR) {
  return {
    name: 'berth-catalogs',
    resolveId(id) {
      return id.startsWith(VIRTUAL_PREFIX) ? RESOLVED_PREFIX + id.slice(VIRTUAL_PREFIX.length) : undefined;
    },
    load(id) {
      if (!id.startsWith(RESOLVED_PREFIX)) return undefined;
      const locale = id.slice(RESOLVED_PREFIX.length);
      if (!catalogLocales(dir).includes(locale))
        throw new Error(`No message catalog for "${locale}": add the folder ${join(dir, locale)}.`);
      const source = locale === PSEUDO_LOCALE ? SOURCE_LOCALE : locale;
      for (const { path } of readCatalogFiles(source, dir)) this.addWatchFile(path);
      const compiled = compileCatalog(readCatalog(source, dir), { pseudo: locale === PSEUDO_LOCALE });
      // JSON.parse of a string literal: faster to start than an object literal of this size.
      return `export const messages = JSON.parse(${JSON.stringify(JSON.stringify(compiled))});\n`;
    },
  };
}
