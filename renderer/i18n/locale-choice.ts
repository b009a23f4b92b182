import { isLanguage, resolveLanguage, type LanguageChoice } from '../../shared/domain/language';
import type { UiLocale } from './i18n';

/** The query parameter that forces a locale in browser mode (`?locale=pseudo`): e2e runs use it; people use the setting. */
export const LOCALE_OVERRIDE_PARAM = 'locale';

/** A locale forced by the page address, when it names one the renderer has. */
export function localeOverride(search: string): UiLocale | undefined {
  const value = new URLSearchParams(search).get(LOCALE_OVERRIDE_PARAM);
  return value === 'pseudo' || isLanguage(value) ? value : undefined;
}

export interface LocaleSources {
  /** Forced by the address (localeOverride). */
  override?: UiLocale | undefined;
  /** The Language setting, once the host has said it. */
  setting?: LanguageChoice | undefined;
  /** The OS's preferred languages as the host read them (Electron); empty when it cannot tell. */
  systemLanguages?: readonly string[] | undefined;
  /** navigator.languages: the browser's, which browser mode goes by. */
  browserLanguages: readonly string[];
}

/** Which locale to show: a forced one, else the setting, else the OS's languages, else the browser's. */
export function chooseLocale(sources: LocaleSources): UiLocale {
  if (sources.override !== undefined) return sources.override;
  const system =
    sources.systemLanguages !== undefined && sources.systemLanguages.length > 0
      ? sources.systemLanguages
      : sources.browserLanguages;
  return resolveLanguage(sources.setting, system);
}
