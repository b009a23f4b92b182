import { describe, expect, it } from 'vitest';
import { proxyDocumentUrl } from '../../shared/apps/app-csp';
import { proxyLanguage, proxyWords } from './proxy-words';

describe("the sandbox proxy page's own words", () => {
  it('speak the language Berth names in the proxy URL, else the browser’s, else English', () => {
    const named = new URL(proxyDocumentUrl('http://127.0.0.1:9/', undefined, 'ja')).search;
    expect(proxyLanguage(named, ['ko-KR'])).toBe('ja');
    expect(proxyLanguage('?csp=%7B%7D', ['zh-HK', 'en'])).toBe('zh-TW');
    // A language Berth does not speak (or a pseudo one) in the URL falls back to the browser's.
    expect(proxyLanguage('?lang=pseudo', ['ko'])).toBe('ko');
    expect(proxyLanguage('', ['fr'])).toBe('en');
  });

  it('come from the catalog: the English Berth always wrote, and the same note in Korean and Japanese', () => {
    expect(proxyWords('en')('apps-sandbox.navigated-away')).toBe(
      'The app navigated away from its own page, so Berth closed it.',
    );
    expect(proxyWords('ko')('apps-sandbox.navigated-away')).toBe(
      '앱이 자신의 페이지를 벗어나서 Berth가 앱을 닫았습니다.',
    );
    expect(proxyWords('ja')('apps-sandbox.frame-title')).toBe('アプリ');
  });
});
