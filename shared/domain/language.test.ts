import { describe, expect, it } from 'vitest';
import { languageOf, matchLanguage, resolveLanguage } from './language';

describe('languageOf', () => {
  it.each([
    ['en-US', 'en'],
    ['en_GB', 'en'],
    ['ko-KR', 'ko'],
    ['ja', 'ja'],
    ['zh', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-Hans-HK', 'zh-CN'],
    ['zh-TW', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh-Hant', 'zh-TW'],
    ['zh-Hant-CN', 'zh-TW'],
    ['zh_TW', 'zh-TW'],
  ])('%s is %s', (tag, language) => {
    expect(languageOf(tag)).toBe(language);
  });

  it('knows nothing of languages Berth does not speak', () => {
    expect(languageOf('fr-FR')).toBeUndefined();
    expect(languageOf('')).toBeUndefined();
  });
});

describe('matchLanguage', () => {
  it('takes the first preferred language Berth speaks', () => {
    expect(matchLanguage(['fr-FR', 'ko-KR', 'en-US'])).toBe('ko');
  });

  it('falls back to English', () => {
    expect(matchLanguage(['fr-FR', 'de'])).toBe('en');
    expect(matchLanguage([])).toBe('en');
  });
});

describe('resolveLanguage', () => {
  it('prefers the setting over the system', () => {
    expect(resolveLanguage('ja', ['zh-CN'])).toBe('ja');
  });

  it('follows the system on auto or with no setting', () => {
    expect(resolveLanguage('auto', ['zh-HK'])).toBe('zh-TW');
    expect(resolveLanguage(undefined, ['ko'])).toBe('ko');
  });
});
