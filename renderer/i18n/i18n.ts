import { setupI18n, type Messages } from '@lingui/core';
import type { Language } from '../../shared/domain/language';
import type { MessageId } from './message-ids';

/** A locale the renderer can show: a Berth language, or the pseudo-locale the layout tests use. */
export type UiLocale = Language | 'pseudo';

/** The one Lingui instance of the renderer; components reach it through useT() and <T>. */
export const i18n = setupI18n();

// One chunk per locale, built from renderer/i18n/locales/<locale>/*.json by scripts/i18n-catalogs.mjs.
const CATALOGS: Record<UiLocale, () => Promise<{ messages: Messages }>> = {
  en: () => import('virtual:berth-catalog/en'),
  'zh-CN': () => import('virtual:berth-catalog/zh-CN'),
  'zh-TW': () => import('virtual:berth-catalog/zh-TW'),
  ko: () => import('virtual:berth-catalog/ko'),
  ja: () => import('virtual:berth-catalog/ja'),
  pseudo: () => import('virtual:berth-catalog/pseudo'),
};

/**
 * The tag Intl and `<html lang>` get: the pseudo-locale formats as English (en-XA is the tag
 * pseudo-locales conventionally use), the others are their own tags.
 */
export function intlLocale(locale: UiLocale): string {
  return locale === 'pseudo' ? 'en-XA' : locale;
}

const loaded = new Set<UiLocale>();
/** The locale asked for last: a slower catalog that arrives after a newer choice does not win. */
let wanted: UiLocale | undefined;

/**
 * Loads the locale's catalog (once) and makes it the active one: every component reading messages
 * through useT()/<T> re-renders in it, and `<html lang>` follows (CJK line breaking and font
 * fallback depend on it).
 */
export async function activateLocale(locale: UiLocale): Promise<void> {
  wanted = locale;
  if (!loaded.has(locale)) {
    const { messages } = await CATALOGS[locale]();
    i18n.load(locale, messages);
    loaded.add(locale);
  }
  if (wanted !== locale || i18n.locale === locale) return;
  i18n.activate(locale, [intlLocale(locale)]);
  if (typeof document !== 'undefined') document.documentElement.lang = intlLocale(locale);
}

/** The active locale; English before any was activated. */
export function activeLocale(): UiLocale {
  return (i18n.locale || 'en') as UiLocale;
}

// Lingui's own API (i18n._, <Trans id>) takes only these ids too.
declare module '@lingui/core' {
  interface Register {
    messageIds: MessageId;
  }
}
