// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProvidersView } from '../../../shared/contract/providers';
import { BASE_URL_CREDENTIALS_MESSAGE, type ProviderView } from '../../../shared/domain/providers';
import { fail, ok } from '../../../shared/result';
import { createFakeTransport } from '../../test-support/fake-transport';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { ProvidersSection } from './providers-section';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { translate } from '../../i18n/use-t';
import { shownToasts } from '../../test-support/shown-toasts';

beforeAll(() => {
  stubResizeObserver();
});
afterEach(cleanup);

const ANTHROPIC: ProviderView = {
  id: 'anthropic',
  label: 'Anthropic',
  kind: 'anthropic',
  preset: 'anthropic',
  models: [{ id: 'claude-a', supportsTools: true }],
  key: { set: false },
  needsKey: true,
  ready: false,
  builtIn: true,
};

/** A host that keeps the providers it is told about, like the real one. */
function mount(
  initial: ProviderView[] = [ANTHROPIC],
  listed: MethodOutputModels = { models: [{ id: 'llama3.1:8b' }, { id: 'qwen3:4b' }] },
) {
  let providers = initial;
  const answer = (): ProvidersView => ({ providers });
  const transport = createFakeTransport({
    'providers.add': ({ provider, apiKey }) => {
      providers = [
        ...providers,
        {
          ...provider,
          kind: 'openai-compatible',
          models: (provider.models ?? []).map((m) => ({ supportsTools: true, ...m })),
          key: apiKey === undefined ? { set: false } : { set: true, hint: `…${apiKey.slice(-4)}` },
          needsKey: false,
          ready: true,
          builtIn: false,
        },
      ];
      return ok(answer());
    },
    'providers.update': ({ id, changes }) => {
      providers = providers.map((p) =>
        p.id === id
          ? { ...p, ...changes, models: (changes.models ?? p.models).map((m) => ({ supportsTools: true, ...m })) }
          : p,
      );
      return ok(answer());
    },
    'providers.remove': ({ id }) => {
      providers = providers.filter((p) => p.id !== id);
      return ok(answer());
    },
    'providers.setKey': ({ id, apiKey }) => {
      providers = providers.map((p) => (p.id === id ? { ...p, key: { set: true, hint: `…${apiKey.slice(-4)}` } } : p));
      return ok(answer());
    },
    'providers.checkKey': ({ id }) =>
      ok({ result: 'refused' as const, provider: id, status: 401, detail: 'Incorrect API key provided.' }),
    'providers.listModels': () => ('error' in listed ? fail('SERVER_ERROR', listed.error) : ok(listed)),
    'providers.check': ({ id }) =>
      ok(
        id === 'anthropic'
          ? {
              ok: false,
              message: 'Add your Anthropic API key in Settings (or set ANTHROPIC_API_KEY) to chat with Claude.',
            }
          : { ok: false, message: 'nothing is listening at 127.0.0.1:11434 — is Ollama running?' },
      ),
  });
  const { store } = renderWithBerth(<ProvidersSection />, {
    transport,
    prepare: (store) => store.getState().applyProviders(answer()),
  });
  return { transport, store };
}
type MethodOutputModels =
  | { models: Array<{ id: string; label?: string; takesImages?: boolean; tier?: 'fast' | 'balanced' | 'smart' }> }
  | { error: string };

const OLLAMA: ProviderView = {
  id: 'ollama',
  label: 'Ollama',
  kind: 'openai-compatible',
  preset: 'ollama',
  baseUrl: 'http://127.0.0.1:11434/v1',
  models: [],
  key: { set: false },
  needsKey: false,
  ready: true,
  builtIn: false,
};

describe('<ProvidersSection>', () => {
  it('adds an Ollama provider from its preset, fetches its models, marks one as without tools and saves', async () => {
    const { transport, store } = mount();
    expect(screen.getByText(/No other providers yet/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add provider' }));
    const form = screen.getByRole('form', { name: 'Add a provider' });
    const baseUrl = within(form).getByLabelText('Base URL') as HTMLInputElement;
    expect(baseUrl.value).toBe('http://127.0.0.1:11434/v1');
    expect(within(form).getByLabelText('API key (optional)')).toBeTruthy();
    // Another preset fills its own URL and asks for a key; back to Ollama.
    fireEvent.change(within(form).getByLabelText('Preset'), { target: { value: 'openai' } });
    expect(baseUrl.value).toBe('https://api.openai.com/v1');
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('OpenAI');
    expect(within(form).getByLabelText('API key')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Preset'), { target: { value: 'ollama' } });
    expect(baseUrl.value).toBe('http://127.0.0.1:11434/v1');
    expect(within(form).getByText(/Fetch them from the provider once it is added/)).toBeTruthy();

    fireEvent.click(within(form).getByRole('button', { name: 'Add provider' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'providers.add')).toBe(true));
    expect(transport.calls.find((c) => c.method === 'providers.add')?.input).toEqual({
      provider: { id: 'ollama', label: 'Ollama', preset: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', models: [] },
    });

    const edit = await screen.findByRole('form', { name: 'Edit Ollama' });
    expect(within(edit).getByText(/Added\. Now fetch its models/)).toBeTruthy();
    fireEvent.click(within(edit).getByRole('button', { name: 'Fetch models' }));
    expect(await within(edit).findByText('Found 2 models (2 new). Save to keep them.')).toBeTruthy();
    const qwenTools = within(edit).getByLabelText('qwen3:4b supports tools') as HTMLInputElement;
    expect(qwenTools.checked).toBe(true);
    fireEvent.click(qwenTools);
    // Neither name is a known vision family: both start as taking no images; the person says one does.
    expect((within(edit).getByLabelText('llama3.1:8b takes images') as HTMLInputElement).checked).toBe(false);
    const qwenImages = within(edit).getByLabelText('qwen3:4b takes images') as HTMLInputElement;
    expect(qwenImages.checked).toBe(false);
    fireEvent.click(qwenImages);
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'providers.update')).toBe(true));
    expect(transport.calls.find((c) => c.method === 'providers.update')?.input).toEqual({
      id: 'ollama',
      changes: {
        label: 'Ollama',
        preset: 'ollama',
        baseUrl: 'http://127.0.0.1:11434/v1',
        models: [
          { id: 'llama3.1:8b', supportsTools: true, takesImages: false },
          { id: 'qwen3:4b', supportsTools: false, takesImages: true },
        ],
      },
    });
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(store.getState().providers?.find((p) => p.id === 'ollama')?.models).toHaveLength(2);
    expect(within(screen.getByRole('list', { name: 'Model providers' })).getByText(/^2 models/)).toBeTruthy();
  });

  it('refuses a base URL with a user name or password and says to put the key in the key field, before anything is sent', async () => {
    const { transport } = mount();
    fireEvent.click(screen.getByRole('button', { name: 'Add provider' }));
    const form = screen.getByRole('form', { name: 'Add a provider' });
    const baseUrl = within(form).getByLabelText('Base URL') as HTMLInputElement;
    fireEvent.change(baseUrl, { target: { value: 'https://user:pass@api.example.com/v1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add provider' }));
    expect(
      await within(form).findByText(/must not hold a user name or password .* put the key in the API key field/),
    ).toBeTruthy();
    expect(baseUrl.getAttribute('aria-invalid')).toBe('true');
    expect(transport.calls.some((c) => c.method === 'providers.add')).toBe(false);
    // Fixed: it goes through.
    fireEvent.change(baseUrl, { target: { value: 'https://api.example.com/v1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add provider' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'providers.add')).toBe(true));
  });

  it('says exactly what "Test connection" found', async () => {
    mount([ANTHROPIC, OLLAMA]);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection to Ollama' }));
    expect(await screen.findByText('✗ nothing is listening at 127.0.0.1:11434 — is Ollama running?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection to Anthropic' }));
    expect(await screen.findByText(/✗ Add your Anthropic API key in Settings/)).toBeTruthy();
  });

  it('falls back to typing model ids when the provider cannot list them', async () => {
    const { transport } = mount([ANTHROPIC, OLLAMA], {
      error: 'Could not list the models: nothing is listening at 127.0.0.1:11434 — is Ollama running?',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Ollama' }));
    const edit = screen.getByRole('form', { name: 'Edit Ollama' });
    fireEvent.click(within(edit).getByRole('button', { name: 'Fetch models' }));
    expect((await within(edit).findByRole('alert')).textContent).toBe(
      'Could not list the models: nothing is listening at 127.0.0.1:11434 — is Ollama running? You can still type model ids below.',
    );
    const typed = within(edit).getByLabelText('Add a model by id');
    fireEvent.change(typed, { target: { value: 'mistral:7b' } });
    fireEvent.keyDown(typed, { key: 'Enter' });
    expect(within(edit).getByText('mistral:7b')).toBeTruthy();
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(transport.calls.find((c) => c.method === 'providers.update')?.input).toEqual({
        id: 'ollama',
        changes: {
          label: 'Ollama',
          preset: 'ollama',
          baseUrl: 'http://127.0.0.1:11434/v1',
          models: [{ id: 'mistral:7b', supportsTools: true, takesImages: false }],
        },
      }),
    );
  });

  it("fetches Anthropic's models into the built-in row's form, with what the endpoint says about images and reasoning, and saves only its models", async () => {
    const listed = {
      models: [
        {
          id: 'claude-a',
          label: 'Claude A',
          takesImages: true,
          tier: 'smart' as const,
          reasoning: 'adaptive' as const,
          contextManagement: true,
        },
        { id: 'claude-b', label: 'Claude B', takesImages: false, tier: 'fast' as const, reasoning: 'none' as const },
        { id: 'claude-c', label: 'Claude C' },
      ],
    };
    const { transport } = mount([{ ...ANTHROPIC, key: { set: true, hint: '…abcd' }, ready: true }], listed);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Anthropic' }));
    const edit = screen.getByRole('form', { name: 'Edit Anthropic' });
    // Its name, address and key are not edited here.
    expect(within(edit).queryByLabelText('Base URL')).toBeNull();
    expect(within(edit).queryByLabelText('Name')).toBeNull();
    fireEvent.click(within(edit).getByRole('button', { name: 'Fetch models' }));
    expect(await within(edit).findByText('Found 3 models (2 new). Save to keep them.')).toBeTruthy();
    expect((within(edit).getByLabelText('claude-b takes images') as HTMLInputElement).checked).toBe(false);
    // No word from the endpoint: the guess (every Claude from 3 on takes images).
    expect((within(edit).getByLabelText('claude-c takes images') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(edit).getByLabelText('claude-c takes images'));
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'providers.update')).toBe(true));
    expect(transport.calls.find((c) => c.method === 'providers.update')?.input).toEqual({
      id: 'anthropic',
      changes: {
        models: [
          // Already in the list: what the person set stays, what only the listing knows is taken afresh.
          { id: 'claude-a', supportsTools: true, reasoning: 'adaptive', contextManagement: true },
          {
            id: 'claude-b',
            supportsTools: true,
            takesImages: false,
            label: 'Claude B',
            tier: 'fast',
            reasoning: 'none',
          },
          { id: 'claude-c', supportsTools: true, takesImages: false, label: 'Claude C' },
        ],
      },
    });
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(within(screen.getByRole('list', { name: 'Model providers' })).getByText(/^3 models/)).toBeTruthy();
  });

  it('says to add the Anthropic key first when there is none', async () => {
    mount([ANTHROPIC], {
      error:
        'Could not list the models: Add your Anthropic API key first (Settings → Anthropic API key, or ANTHROPIC_API_KEY), then try again.',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Anthropic' }));
    const edit = screen.getByRole('form', { name: 'Edit Anthropic' });
    expect(within(edit).getByText(/Add your Anthropic API key above to fetch its models/)).toBeTruthy();
    fireEvent.click(within(edit).getByRole('button', { name: 'Fetch models' }));
    expect((await within(edit).findByRole('alert')).textContent).toBe(
      'Could not list the models: Add your Anthropic API key first (Settings → Anthropic API key, or ANTHROPIC_API_KEY), then try again. You can still type model ids below.',
    );
  });

  it('removes a provider only after confirming', async () => {
    const { transport } = mount([ANTHROPIC, OLLAMA]);
    // The built-in one can be edited (its models), never removed.
    expect(screen.queryByRole('button', { name: 'Remove Anthropic' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Ollama' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Ollama?' });
    expect(dialog.textContent).toContain('Conversations that use one of its models are kept');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(transport.calls.some((c) => c.method === 'providers.remove')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Ollama' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByText('http://127.0.0.1:11434/v1')).toBeNull());
    expect(transport.calls.filter((c) => c.method === 'providers.remove')).toEqual([
      { method: 'providers.remove', input: { id: 'ollama' } },
    ]);
    expect(screen.getByText(/No other providers yet/)).toBeTruthy();
  });

  it('words the providers list, its chips and the remove dialog in Chinese, the provider’s answer as it came', async () => {
    await activateLocale('zh-CN');
    const custom: ProviderView = {
      ...OLLAMA,
      id: 'vllm',
      label: 'vLLM box',
      preset: 'custom',
      baseUrl: 'http://10.0.0.5:8000/v1',
      models: [{ id: 'm', supportsTools: true }],
      key: { set: true, hint: '…wxyz' },
      needsKey: false,
    };
    const { store, transport } = mount([ANTHROPIC, OLLAMA, custom]);
    expect(screen.getByRole('heading', { name: '模型提供商' })).toBeTruthy();
    const list = screen.getByRole('list', { name: '模型提供商' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]!.textContent).toContain('内置');
    expect(rows[0]!.textContent).toContain('需要密钥');
    expect(rows[0]!.textContent).toContain('1 个模型');
    expect(rows[0]!.textContent).toContain('其密钥在上方设置。');
    expect(rows[1]!.textContent).toContain('无需密钥');
    expect(rows[1]!.textContent).toContain('0 个模型 · http://127.0.0.1:11434/v1');
    expect(rows[2]!.textContent).toContain('自定义（兼容 OpenAI）');
    expect(within(rows[2]!).getByText('…wxyz').closest('span')?.textContent).toBe('已设置密钥 …wxyz');
    expect(screen.queryByText(/还没有其他提供商/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: '测试与 Ollama 的连接' }));
    expect(await screen.findByText('✗ nothing is listening at 127.0.0.1:11434 — is Ollama running?')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '移除 vLLM box' }));
    const dialog = await screen.findByRole('alertdialog', { name: '移除 vLLM box？' });
    expect(dialog.textContent).toContain('其模型将从模型选择器中移除，保存的密钥也会被删除。');
    fireEvent.click(within(dialog).getByRole('button', { name: '移除' }));
    await waitFor(() => expect(shownToasts(store).at(-1)?.title).toBe('已移除 vLLM box'));
    expect(transport.calls.find((c) => c.method === 'providers.remove')?.input).toEqual({ id: 'vllm' });
  });

  it('counts models with the plural rule of the language, and says when there is no other provider, in Korean', async () => {
    await activateLocale('ko');
    mount([{ ...ANTHROPIC, models: [ANTHROPIC.models[0]!, { id: 'claude-b', supportsTools: true }] }]);
    expect(within(screen.getByRole('list', { name: '모델 제공자' })).getByText('모델 2개')).toBeTruthy();
    expect(
      screen.getByText(
        '아직 다른 제공자가 없습니다. 제공자를 추가하면 OpenAI, OpenRouter 또는 이 컴퓨터에서 실행 중인 모델을 사용할 수 있습니다.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Anthropic 편집' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '제공자 추가' })).toBeTruthy();
  });

  it('refuses a base URL with credentials in the words the host uses for it', () => {
    // The form refuses it before the bridge, the host again on save: one wording in English.
    expect(translate('settings.providers.form.baseUrlCredentials')).toBe(BASE_URL_CREDENTIALS_MESSAGE);
  });

  it('adds a custom provider in Japanese: labels, the custom preset’s name, the refusal and the next step', async () => {
    await activateLocale('ja');
    const { transport } = mount();
    fireEvent.click(screen.getByRole('button', { name: 'プロバイダーを追加' }));
    const form = screen.getByRole('form', { name: 'プロバイダーを追加' });
    expect(within(form).getByLabelText('API キー（省略可）')).toBeTruthy();
    expect(within(form).getByText('ローカルサーバーには不要です。')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('プリセット'), { target: { value: 'custom' } });
    expect((within(form).getByLabelText('名前') as HTMLInputElement).value).toBe('カスタム（OpenAI 互換）');
    expect(within(form).getByText('サーバーの OpenAI 互換アドレスです。通常は /v1 で終わります。')).toBeTruthy();
    // Back to a service: the name the form gave follows the preset again.
    fireEvent.change(within(form).getByLabelText('プリセット'), { target: { value: 'openrouter' } });
    expect((within(form).getByLabelText('名前') as HTMLInputElement).value).toBe('OpenRouter');
    expect(within(form).getByLabelText('API キー')).toBeTruthy();
    expect(within(form).getByText('シークレットとして保存され、二度と表示されません。')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('プリセット'), { target: { value: 'custom' } });

    const baseUrl = within(form).getByLabelText('ベース URL') as HTMLInputElement;
    fireEvent.change(baseUrl, { target: { value: 'https://user:pass@llm.example.com/v1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'プロバイダーを追加' }));
    expect(
      await within(form).findByText(/^ベース URL にユーザー名やパスワード（@ より前の部分）を含めることはできません。/),
    ).toBeTruthy();
    expect(transport.calls.some((c) => c.method === 'providers.add')).toBe(false);

    fireEvent.change(baseUrl, { target: { value: 'https://llm.example.com/v1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'プロバイダーを追加' }));
    const edit = await screen.findByRole('form', { name: 'カスタム（OpenAI 互換） を編集' });
    expect(transport.calls.find((c) => c.method === 'providers.add')?.input).toMatchObject({
      provider: { id: 'custom', label: 'カスタム（OpenAI 互換）', preset: 'custom' },
    });
    expect(
      within(edit)
        .getByText('追加しました。次にモデルを取得し（または下にモデル ID を入力し）、保存してください。')
        .getAttribute('role'),
    ).toBe('status');
    fireEvent.click(within(edit).getByRole('button', { name: 'キーを保存' }));
    expect(within(edit).getByRole('alert').textContent).toBe('先にキーを貼り付けてください');
    fireEvent.click(within(edit).getByRole('button', { name: '閉じる' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
  });

  it('edits a provider with a stored key in Traditional Chinese and toasts that it is saved', async () => {
    await activateLocale('zh-TW');
    const withKey: ProviderView = { ...OLLAMA, key: { set: true, hint: '…wxyz' } };
    const { store } = mount([ANTHROPIC, withKey]);
    fireEvent.click(screen.getByRole('button', { name: '編輯 Ollama' }));
    const edit = screen.getByRole('form', { name: '編輯 Ollama' });
    expect(within(edit).getByLabelText('更換金鑰（…wxyz）')).toBeTruthy();
    expect(within(edit).getByRole('button', { name: '移除金鑰' })).toBeTruthy();
    expect(within(edit).getByRole('button', { name: '測試與 Ollama 的連線' })).toBeTruthy();
    fireEvent.click(within(edit).getByRole('button', { name: '儲存' }));
    await waitFor(() => expect(shownToasts(store).at(-1)?.title).toBe('已儲存 Ollama'));
  });

  it("checks a provider's key once saved and says the provider refused it, in its words", async () => {
    await activateLocale('en');
    const withKey: ProviderView = { ...OLLAMA, key: { set: true, hint: '…wxyz' } };
    const { transport } = mount([ANTHROPIC, withKey]);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Ollama' }));
    const edit = screen.getByRole('form', { name: 'Edit Ollama' });
    fireEvent.change(within(edit).getByLabelText('Replace the key (…wxyz)'), { target: { value: 'sk-wrong-1234' } });
    fireEvent.click(within(edit).getByRole('button', { name: 'Save key' }));
    await waitFor(() =>
      expect(
        within(edit)
          .getAllByRole('status')
          .map((line) => line.textContent),
      ).toContain(
        'This key was refused by ollama (401: Incorrect API key provided.). Paste the right key and save again.',
      ),
    );
    expect(transport.calls.map((call) => call.method)).toEqual(
      expect.arrayContaining(['providers.setKey', 'providers.checkKey']),
    );
  });

  it('words the models table and what a fetch found in Korean, each model’s id as the provider gave it', async () => {
    await activateLocale('ko');
    mount([ANTHROPIC, OLLAMA]);
    fireEvent.click(screen.getByRole('button', { name: 'Ollama 편집' }));
    const edit = screen.getByRole('form', { name: 'Ollama 편집' });
    expect(within(edit).getByText('아직 모델이 없습니다.')).toBeTruthy();
    expect((within(edit).getByLabelText('ID로 모델 추가') as HTMLInputElement).placeholder).toBe(
      'ID로 모델 추가(예: llama3.1:8b)',
    );
    fireEvent.click(within(edit).getByRole('button', { name: '모델 가져오기' }));
    expect(await within(edit).findByText('모델 2개를 찾았습니다(새 모델 2개). 저장해야 유지됩니다.')).toBeTruthy();
    const table = within(edit).getByRole('table', { name: 'Ollama의 모델' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['모델 ID', '선택기에 표시할 이름', '도구', '이미지', '작업']);
    expect(within(table).getByLabelText('qwen3:4b 도구 지원')).toBeTruthy();
    expect(within(table).getByLabelText('qwen3:4b 이미지 입력 지원')).toBeTruthy();
    expect(within(table).getByLabelText('llama3.1:8b의 이름')).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'llama3.1:8b 제거' }));
    expect(within(table).queryByText('llama3.1:8b')).toBeNull();
  });

  it('adds the provider’s refusal to a Chinese hint, and refuses a duplicate id in the language of the moment', async () => {
    mount([ANTHROPIC, OLLAMA], {
      error: 'Could not list the models: nothing is listening at 127.0.0.1:11434 — is Ollama running?',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Ollama' }));
    const typed = within(screen.getByRole('form')).getByLabelText('Add a model by id');
    for (const _ of [1, 2]) {
      fireEvent.change(typed, { target: { value: 'mistral:7b' } });
      fireEvent.keyDown(typed, { key: 'Enter' });
    }
    expect(screen.getByRole('alert').textContent).toBe("'mistral:7b' is already in the list.");

    await act(() => activateLocale('zh-CN'));
    const edit = screen.getByRole('form', { name: '编辑 Ollama' });
    fireEvent.change(typed, { target: { value: 'mistral:7b' } });
    fireEvent.keyDown(typed, { key: 'Enter' });
    expect(within(edit).getByRole('alert').textContent).toBe('“mistral:7b” 已在列表中。');
    fireEvent.click(within(edit).getByRole('button', { name: '获取模型' }));
    await waitFor(() =>
      expect(within(edit).getByRole('alert').textContent).toBe(
        'Could not list the models: nothing is listening at 127.0.0.1:11434 — is Ollama running? 你仍可在下方输入模型 ID。',
      ),
    );
  });

  it('says in Japanese when the provider lists no models', async () => {
    await activateLocale('ja');
    mount([ANTHROPIC, OLLAMA], { models: [] });
    fireEvent.click(screen.getByRole('button', { name: 'Ollama を編集' }));
    const edit = screen.getByRole('form', { name: 'Ollama を編集' });
    fireEvent.click(within(edit).getByRole('button', { name: 'モデルを取得' }));
    expect(
      await within(edit).findByText('Ollama にはモデルの一覧がありません。下にモデル ID を入力してください。'),
    ).toBeTruthy();
  });

  it("words the built-in Anthropic row's form in Traditional Chinese, with or without a key", async () => {
    await activateLocale('zh-TW');
    const { store } = mount([{ ...ANTHROPIC, key: { set: true, hint: '…abcd' }, ready: true }]);
    fireEvent.click(screen.getByRole('button', { name: '編輯 Anthropic' }));
    const edit = screen.getByRole('form', { name: '編輯 Anthropic' });
    expect(within(edit).getByText('從 Anthropic 取得你的金鑰可用的模型，或手動輸入模型 ID。')).toBeTruthy();
    expect((within(edit).getByLabelText('依 ID 新增模型') as HTMLInputElement).placeholder).toBe(
      '依 ID 新增模型，例如 claude-sonnet-5',
    );
    fireEvent.click(within(edit).getByRole('button', { name: '儲存' }));
    await waitFor(() => expect(shownToasts(store).at(-1)?.title).toBe('已儲存 Anthropic 的模型'));
    cleanup();

    await activateLocale('ko');
    mount([ANTHROPIC]);
    fireEvent.click(screen.getByRole('button', { name: 'Anthropic 편집' }));
    const noKey = screen.getByRole('form', { name: 'Anthropic 편집' });
    expect(
      within(noKey).getByText(
        '모델을 가져오려면 위에서 Anthropic API 키를 추가하세요. 모델 ID를 직접 입력할 수도 있습니다.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(noKey).getByRole('button', { name: '취소' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
  });
});
