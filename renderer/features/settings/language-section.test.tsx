// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../shared/contract/settings';
import type { LanguageChoice } from '../../../shared/domain/language';
import { ok } from '../../../shared/result';
import { LocaleSync } from '../shell/locale-sync';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { LanguageSection } from './language-section';

afterEach(cleanup);

const SETTINGS: SettingsView = {
  apiKey: { source: 'none' },
  models: [{ id: 'a', label: 'Model A' }],
  defaultModel: 'a',
  language: 'auto',
  systemLanguages: [],
};

function mount(settings: SettingsView) {
  const asked: LanguageChoice[] = [];
  const view = renderWithBerth(
    <>
      <LocaleSync />
      <LanguageSection />
    </>,
    {
      handlers: {
        'settings.setLanguage': ({ language }) => {
          asked.push(language);
          return ok({ ...settings, language });
        },
      },
      prepare: (store) => store.getState().applySettings(settings),
    },
  );
  return { ...view, asked };
}

describe('the Language setting', () => {
  it('offers Automatic and each language named in itself', () => {
    mount(SETTINGS);
    const select = screen.getByLabelText('Berth speaks');
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Automatic (system)',
      'English',
      '简体中文',
      '繁體中文',
      '한국어',
      '日本語',
    ]);
  });

  it('switches the interface live, without a reload, and sets <html lang>', async () => {
    const { asked } = mount(SETTINGS);
    expect(screen.getByRole('heading', { name: 'Language' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Berth speaks'), { target: { value: 'ko' } });
    expect(await screen.findByRole('heading', { name: '언어' })).toBeTruthy();
    expect(asked).toEqual(['ko']);
    expect(document.documentElement.lang).toBe('ko');
    expect(screen.getByLabelText('표시 언어')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('표시 언어'), { target: { value: 'ja' } });
    expect(await screen.findByRole('heading', { name: '言語' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('ja');
  });

  it("follows the system's languages the host reports when set to Automatic", async () => {
    mount({ ...SETTINGS, systemLanguages: ['fr-FR', 'zh-Hant-HK'] });
    expect(await screen.findByRole('heading', { name: '語言' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('zh-TW');
  });

  it("goes by the browser's languages when the host cannot tell the system's", async () => {
    const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages');
    Object.defineProperty(Navigator.prototype, 'languages', { configurable: true, get: () => ['zh-SG', 'en'] });
    try {
      mount(SETTINGS);
      expect(await screen.findByRole('heading', { name: '语言' })).toBeTruthy();
    } finally {
      if (languages) Object.defineProperty(Navigator.prototype, 'languages', languages);
    }
  });
});
