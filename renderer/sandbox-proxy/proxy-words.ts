import { PROXY_LANGUAGE_QUERY } from '../../shared/apps/app-csp';
import { isLanguage, matchLanguage, type Language } from '../../shared/domain/language';
import en from '../i18n/locales/en/apps-sandbox.json';
import zhCN from '../i18n/locales/zh-CN/apps-sandbox.json';
import zhTW from '../i18n/locales/zh-TW/apps-sandbox.json';
import ko from '../i18n/locales/ko/apps-sandbox.json';
import ja from '../i18n/locales/ja/apps-sandbox.json';

// The sandbox proxy runs on its own origin, with no bridge and no catalog runtime: the few words its own page
// shows (the app frame's name, why the page is empty) come from the catalog's apps-sandbox files, built in, in
// the language Berth's UI names in the proxy's URL (`lang`, proxyDocumentUrl) — the person's Language setting —
// else the browser's. They are plain sentences without arguments, so no ICU runtime is needed.

export type ProxyWordId = keyof typeof en;
const WORDS: Readonly<Record<Language, Readonly<Record<ProxyWordId, string>>>> = {
  en,
  'zh-CN': zhCN,
  'zh-TW': zhTW,
  ko,
  ja,
};

/** The language the page speaks: the one Berth's UI named, else the browser's preferred languages. */
export function proxyLanguage(search: string, browserLanguages: readonly string[]): Language {
  const named = new URLSearchParams(search).get(PROXY_LANGUAGE_QUERY);
  return isLanguage(named) ? named : matchLanguage(browserLanguages);
}

/** The proxy page's words in one language. */
export function proxyWords(language: Language): (id: ProxyWordId) => string {
  return (id) => WORDS[language][id];
}
