import { describe, expect, it } from 'vitest';
import { activateLocale } from '../../i18n/i18n';
import { translate } from '../../i18n/use-t';
import { cspRefusalText } from './csp-refusal';

describe("an app's CSP refusal on its card, from the proxy's facts", () => {
  it('says in English what was stopped and where it came from or went', async () => {
    await activateLocale('en');
    expect(cspRefusalText(translate, { directive: 'worker-src', blocked: 'data' })).toBe(
      "The app's security policy (worker-src) stopped it trying to start a worker from data.",
    );
    expect(cspRefusalText(translate, { directive: 'connect-src', blocked: 'https://api.example.com' })).toBe(
      "The app's security policy (connect-src) stopped it trying to connect to https://api.example.com.",
    );
    expect(cspRefusalText(translate, { directive: 'script-src', blocked: 'eval' })).toBe(
      "The app's security policy (script-src) stopped it trying to run a script from code built at run time (eval).",
    );
    expect(cspRefusalText(translate, { directive: 'made-up', blocked: '' })).toBe(
      "The app's security policy (made-up) stopped it trying to do something.",
    );
  });

  it("words it in the person's language, the directive and the address as the app gave them", async () => {
    await activateLocale('ko');
    expect(cspRefusalText(translate, { directive: 'connect-src', blocked: 'https://api.example.com' })).toBe(
      '앱의 보안 정책(connect-src)이 https://api.example.com(으)로의 연결을(를) 막았습니다.',
    );
    await activateLocale('ja');
    expect(cspRefusalText(translate, { directive: 'style-src-attr', blocked: 'inline' })).toBe(
      'アプリのセキュリティポリシー（style-src-attr）がインラインで書かれたインラインスタイルの使用をブロックしました。',
    );
  });
});
