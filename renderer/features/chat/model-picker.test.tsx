// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../shared/contract/settings';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { Composer } from './composer';
import { missingKeyReason } from './model-readiness';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';

beforeAll(() => {
  stubResizeObserver();
});
afterEach(cleanup);

const SETTINGS: SettingsView = {
  apiKey: { source: 'none' },
  models: [
    {
      id: 'claude-a',
      label: 'Claude A',
      provider: 'anthropic',
      providerLabel: 'Anthropic',
      supportsTools: true,
      ready: false,
    },
    {
      id: 'ollama:llama3.1:8b',
      label: 'llama3.1:8b',
      provider: 'ollama',
      providerLabel: 'Local Ollama',
      supportsTools: true,
      ready: true,
    },
    {
      id: 'ollama:tiny',
      label: 'Tiny',
      provider: 'ollama',
      providerLabel: 'Local Ollama',
      supportsTools: false,
      ready: true,
    },
    {
      id: 'openai:gpt-4o',
      label: 'GPT-4o',
      provider: 'openai',
      providerLabel: 'OpenAI',
      supportsTools: true,
      ready: false,
    },
  ],
  defaultModel: 'claude-a',
};

function mount(model: string, onModelChange: (model: string) => void = () => undefined) {
  return renderWithBerth(<Composer conversationId="c1" model={model} onModelChange={onModelChange} running={false} />, {
    prepare: (store) => store.getState().applySettings(SETTINGS),
  });
}

/** Opens the picker once its menu's code has loaded (until then the composer shows the same button, disabled). */
async function openPicker(name: string): Promise<HTMLElement> {
  const trigger = await waitFor(() => {
    const button = screen.getByRole('button', { name }) as HTMLButtonElement;
    if (button.disabled) throw new Error('the model menu is still loading');
    return button;
  });
  fireEvent.keyDown(trigger, { key: 'Enter' });
  return screen.getByRole('menu');
}

describe('the model picker', () => {
  it('groups models under their provider and picks one by its model key', async () => {
    const picked: string[] = [];
    mount('ollama:llama3.1:8b', (model) => picked.push(model));
    const menu = await openPicker('Model: llama3.1:8b (Local Ollama)');
    const groups = within(menu)
      .getAllByRole('group')
      .filter((g) => g.getAttribute('aria-label') !== null);
    expect(
      groups.map((g) => [
        g.getAttribute('aria-label'),
        within(g)
          .getAllByRole('menuitemradio')
          .map((item) => item.textContent),
      ]),
    ).toEqual([
      ['Anthropic', ['Claude A']],
      ['Local Ollama', ['●llama3.1:8b', 'Tiny · no tools']],
      ['OpenAI', ['GPT-4o']],
    ]);
    fireEvent.click(within(menu).getByRole('menuitemradio', { name: 'GPT-4o' }));
    expect(picked).toEqual(['openai:gpt-4o']);
  });

  it('opens when a chat error asks for another model (Pick another model), not before', async () => {
    const { store } = mount('claude-a');
    await waitFor(() => {
      if ((screen.getByRole('button', { name: /^Model: Claude A/ }) as HTMLButtonElement).disabled)
        throw new Error('the model menu is still loading');
    });
    expect(screen.queryByRole('menu')).toBeNull();
    act(() => store.getState().requestModelPicker());
    expect(await screen.findByRole('menu')).toBeTruthy();
  });

  it('shows a model no provider offers any more as it is, on top', async () => {
    mount('gone:model');
    const menu = await openPicker('Model: gone:model');
    expect(within(menu).getAllByRole('menuitemradio')[0]?.textContent).toBe('●gone:model (no longer offered)');
  });
});

describe('missingKeyReason', () => {
  it('is per provider: a local model needs no key, a hosted one without its key cannot send', () => {
    expect(missingKeyReason(SETTINGS, 'ollama:llama3.1:8b')).toBeUndefined();
    expect(missingKeyReason(SETTINGS, 'openai:gpt-4o')?.reason).toBe('Add the OpenAI API key in Settings to chat');
    expect(missingKeyReason(SETTINGS, 'claude-a')?.reason).toBe('Add an API key in Settings to chat');
    // A removed provider's model: the turn itself says so.
    expect(missingKeyReason(SETTINGS, 'gone:model')).toBeUndefined();
  });

  it('says it in the active language, the provider’s name as it is', async () => {
    await activateLocale('ko');
    expect(missingKeyReason(SETTINGS, 'openai:gpt-4o')).toEqual({
      reason: '대화하려면 설정에서 OpenAI API 키를 추가하세요',
      banner:
        'OpenAI에는 API 키가 필요한데 설정되지 않아 이 모델이 응답할 수 없습니다. 설정 → 모델 제공자에서 추가하세요.',
    });
    expect(missingKeyReason(SETTINGS, 'claude-a')?.reason).toBe('대화하려면 설정에서 API 키를 추가하세요');
  });
});
