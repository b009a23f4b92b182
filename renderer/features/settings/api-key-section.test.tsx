// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MethodOutput } from '../../../shared/contract';
import type { SettingsView } from '../../../shared/contract/settings';
import { settingsError } from '../../../shared/domain/settings-errors';
import { fail, ok } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { ApiKeySection } from './api-key-section';
import { shownToasts } from '../../test-support/shown-toasts';

afterEach(cleanup);

const SETTINGS: SettingsView = {
  apiKey: { source: 'none' },
  models: [{ id: 'a', label: 'Model A' }],
  defaultModel: 'a',
};

function mount(settings: SettingsView) {
  return renderWithBerth(<ApiKeySection settings={settings} />, {
    handlers: {
      'settings.setApiKey': () => ok({ ...settings, apiKey: { source: 'stored' as const, hint: '…2345' } }),
      'settings.clearApiKey': () => ok({ ...settings, apiKey: { source: 'none' as const } }),
    },
  });
}

describe('<ApiKeySection> in the person’s language', () => {
  it('says in Korean where the key comes from and where requests go, the address as written', async () => {
    await activateLocale('ko');
    mount({ ...SETTINGS, apiKey: { source: 'env', hint: '…wxyz' }, baseURL: 'http://127.0.0.1:9/' });
    expect(screen.getByRole('heading', { name: 'Anthropic API 키' })).toBeTruthy();
    expect(screen.getByText('ANTHROPIC_API_KEY에서 가져옴')).toBeTruthy();
    const about = screen.getByText(/^Berth는 환경 변수의 키/);
    expect(about.textContent).toBe(
      'Berth는 환경 변수의 키(ANTHROPIC_API_KEY)를 사용하며, 이 키가 여기에 저장한 키보다 우선합니다. 요청은 http://127.0.0.1:9/(으)로 전송됩니다.',
    );
    expect(about.querySelector('code')?.textContent).toBe('http://127.0.0.1:9/');
    expect(screen.getByLabelText('키 교체')).toBeTruthy();
    // The key comes from the environment: nothing stored to remove.
    expect(screen.queryByRole('button', { name: '제거' })).toBeNull();
  });

  it('asks in Japanese for a key before saving, then says it is saved (unchecked when the check cannot run)', async () => {
    await activateLocale('ja');
    const { store, transport } = mount(SETTINGS);
    expect(screen.getByText('未設定')).toBeTruthy();
    expect(screen.getByText(/^チャットには console\.anthropic\.com で取得したキーが必要です。/)).toBeTruthy();
    const input = screen.getByLabelText('API キー') as HTMLInputElement;
    expect(input.placeholder).toBe('sk-ant-…');
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(screen.getByRole('alert').textContent).toBe('先に API キーを貼り付けてください');
    expect(transport.calls.some((c) => c.method === 'settings.setApiKey')).toBe(false);
    // The person switches the language with the error still on screen: it follows.
    await act(() => activateLocale('en'));
    expect(screen.getByRole('alert').textContent).toBe('Paste your API key first');
    await act(() => activateLocale('ja'));
    fireEvent.change(input, { target: { value: 'sk-ant-12345' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(/^キーは保存しましたが、確認できませんでした: /),
    );
    expect(shownToasts(store)).toEqual([]);
  });

  it('words the stored key and its removal in Traditional Chinese', async () => {
    await activateLocale('zh-TW');
    const { store } = mount({ ...SETTINGS, apiKey: { source: 'stored', hint: '…2345' } });
    expect(screen.getByText('已儲存在 Berth 中')).toBeTruthy();
    expect(screen.getByLabelText('更換金鑰')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '移除' }));
    await waitFor(() => expect(shownToasts(store).at(-1)?.title).toBe('已移除儲存的 API 金鑰'));
  });

  it('words the host’s refusal of a key in Korean, from its code', async () => {
    await activateLocale('ko');
    const refusal = settingsError('settings-errors.not-an-api-key', {});
    renderWithBerth(<ApiKeySection settings={SETTINGS} />, {
      handlers: { 'settings.setApiKey': () => fail('INVALID_INPUT', refusal.text, 'apiKey', refusal.hostMessage) },
    });
    fireEvent.change(screen.getByLabelText('API 키'), { target: { value: 'not a key at all' } });
    fireEvent.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('API 키로 보이지 않습니다(공백 없이 8자 이상이어야 합니다).'),
    );
  });

  it('checks the key once saved: Checking…, then the provider’s refusal in its words, then Key works', async () => {
    await activateLocale('en');
    const answers: Array<(check: MethodOutput<'providers.checkKey'>) => void> = [];
    renderWithBerth(<ApiKeySection settings={SETTINGS} />, {
      handlers: {
        'settings.setApiKey': () => ok({ ...SETTINGS, apiKey: { source: 'stored' as const, hint: '…2345' } }),
        'providers.checkKey': () => new Promise((resolve) => answers.push((check) => resolve(ok(check)))),
      },
    });
    const input = screen.getByLabelText('API key');
    fireEvent.change(input, { target: { value: 'sk-ant-wrong-12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Checking the key…'));
    act(() => answers[0]?.({ result: 'refused', provider: 'Anthropic', status: 401, detail: 'invalid x-api-key' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'This key was refused by Anthropic (401: invalid x-api-key). Paste the right key and save again.',
      ),
    );
    fireEvent.change(input, { target: { value: 'sk-ant-right-12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(answers).toHaveLength(2));
    act(() => answers[1]?.({ result: 'works' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Key works'));
  });

  it('says a key saved offline is not checked, with the reason, in Simplified Chinese', async () => {
    await activateLocale('zh-CN');
    renderWithBerth(<ApiKeySection settings={SETTINGS} />, {
      handlers: {
        'settings.setApiKey': () => ok({ ...SETTINGS, apiKey: { source: 'stored' as const, hint: '…2345' } }),
        'providers.checkKey': () => ok({ result: 'unchecked' as const, reason: 'Could not reach http://127.0.0.1:9' }),
      },
    });
    fireEvent.change(screen.getByLabelText('API 密钥'), { target: { value: 'sk-ant-12345' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('密钥已保存，但未能检查：Could not reach http://127.0.0.1:9'),
    );
  });
});
