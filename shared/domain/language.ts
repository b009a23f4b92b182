/**
 * The languages Berth's interface speaks, and how a person's preferred languages (the OS's, or the
 * browser's) map onto them. Zod-free: the first screen picks its catalog with it before anything loads.
 */

/** The interface languages, by BCP 47 tag; English is the source every catalog is translated from. */
export const LANGUAGES = ['en', 'zh-CN', 'zh-TW', 'ko', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The Language setting: a language, or `auto` (follow the system). */
export const LANGUAGE_CHOICES = ['auto', ...LANGUAGES] as const;
export type LanguageChoice = (typeof LANGUAGE_CHOICES)[number];

/** Each language named in itself, as the best localized apps list them: a person finds their own language in any UI. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  ko: '한국어',
  ja: '日本語',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * One BCP 47 tag to a Berth language, or undefined when Berth does not speak it. Chinese goes by
 * script first (Hant → Traditional, Hans → Simplified), then by region: Taiwan, Hong Kong and Macau
 * write Traditional, everyone else Simplified.
 */
export function languageOf(tag: string): Language | undefined {
  const parts = tag.trim().replace(/_/g, '-').toLowerCase().split('-');
  const [base, ...rest] = parts;
  if (base === 'en') return 'en';
  if (base === 'ko') return 'ko';
  if (base === 'ja') return 'ja';
  if (base !== 'zh') return undefined;
  if (rest.includes('hant')) return 'zh-TW';
  if (rest.includes('hans')) return 'zh-CN';
  return rest.some((part) => part === 'tw' || part === 'hk' || part === 'mo') ? 'zh-TW' : 'zh-CN';
}

/** The first of the person's preferred languages Berth speaks; English when it speaks none of them. */
export function matchLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const language = languageOf(tag);
    if (language !== undefined) return language;
  }
  return 'en';
}

/** The language to show: the setting when it names one, else the system's. */
export function resolveLanguage(choice: LanguageChoice | undefined, system: readonly string[]): Language {
  return choice !== undefined && choice !== 'auto' ? choice : matchLanguage(system);
}
