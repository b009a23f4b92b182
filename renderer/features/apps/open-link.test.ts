import { describe, expect, it } from 'vitest';
import { checkLink } from './open-link';
import { activateLocale } from '../../i18n/i18n';

describe('checkLink', () => {
  it('gives the domain and the normalised address of an http(s) link', () => {
    expect(checkLink('https://Example.com/a?b=1')).toEqual({
      ok: true,
      url: 'https://example.com/a?b=1',
      domain: 'example.com',
    });
    expect(checkLink('http://127.0.0.1:8080/')).toEqual({
      ok: true,
      url: 'http://127.0.0.1:8080/',
      domain: '127.0.0.1',
    });
  });

  it('shows an internationalised domain in its xn-- form, so a look-alike is visible', () => {
    const check = checkLink('https://аpple.com/');
    expect(check.ok && check.domain).toBe('xn--pple-43d.com');
  });

  it('refuses other schemes, credentials and garbage with words', () => {
    expect(checkLink('javascript:alert(1)')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('javascript'),
    });
    expect(checkLink('file:///etc/passwd')).toMatchObject({ ok: false });
    expect(checkLink('https://user:pw@evil.example/')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('password'),
    });
    expect(checkLink('not a url')).toMatchObject({ ok: false, reason: expect.stringContaining('not a web address') });
  });

  it("says why a link is refused in the person's language", async () => {
    await activateLocale('zh-CN');
    expect(checkLink('javascript:alert(1)')).toEqual({
      ok: false,
      reason: '该应用请求打开 javascript 链接；Berth 只打开 http 和 https 链接。',
    });
  });
});
