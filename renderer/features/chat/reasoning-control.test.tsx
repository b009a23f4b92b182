// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../shared/contract/settings';
import type { Conversation } from '../../../shared/domain/chat';
import type { ReasoningDefaults } from '../../../shared/domain/reasoning';
import { ok } from '../../../shared/result';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { Composer } from './composer';

beforeAll(() => stubResizeObserver());
afterEach(cleanup);

const model = (id: string, reasoning: 'adaptive' | 'effort' | 'unknown' | 'none') => ({
  id,
  label: id,
  provider: 'anthropic',
  providerLabel: 'Anthropic',
  supportsTools: true,
  ready: true,
  reasoning,
});

const SETTINGS: SettingsView = {
  apiKey: { source: 'stored', hint: '…abcd' },
  models: [model('claude-sonnet-5', 'adaptive'), model('claude-3-haiku', 'none'), model('llama3', 'unknown')],
  defaultModel: 'claude-sonnet-5',
};

const conversation: Conversation = {
  id: 'c1',
  title: 't',
  createdAt: 1,
  updatedAt: 1,
  model: 'claude-sonnet-5',
  messages: [],
  disabledServers: [],
  disabledTools: [],
};

function mount(modelId: string) {
  let defaults: ReasoningDefaults = { level: 'off', sampling: false };
  const calls: unknown[] = [];
  const view = renderWithBerth(
    <Composer conversationId="c1" model={modelId} onModelChange={() => undefined} running={false} />,
    {
      handlers: {
        'chat.reasoningDefaults': () => ok(defaults),
        'chat.setReasoning': (input) => {
          calls.push(['setReasoning', input]);
          return ok({ ...conversation, reasoning: input.level });
        },
        'chat.setReasoningDefaults': (patch) => {
          calls.push(['setReasoningDefaults', patch]);
          defaults = { ...defaults, ...patch };
          return ok(defaults);
        },
      },
      prepare: (store) => {
        store.getState().applySettings(SETTINGS);
        store.getState().applyConversation(conversation);
      },
    },
  );
  return { ...view, calls };
}

async function openControl(name: string): Promise<HTMLElement> {
  fireEvent.keyDown(await screen.findByRole('button', { name }), { key: 'Enter' });
  return screen.getByRole('menu');
}

describe('the reasoning control', () => {
  it('shows beside the model picker only for models known to reason', async () => {
    // The control loads on demand: once it has (a reasoning model shows it), the models below render it at once.
    mount('claude-sonnet-5');
    await screen.findByRole('button', { name: 'Thinking: Off' });
    cleanup();
    mount('claude-3-haiku');
    expect(screen.queryByRole('button', { name: /^Thinking:/ })).toBeNull();
    cleanup();
    mount('llama3');
    expect(screen.queryByRole('button', { name: /^Thinking:/ })).toBeNull();
    cleanup();
    mount('claude-sonnet-5');
    expect(screen.getByRole('button', { name: 'Thinking: Off' }).textContent).toContain('Thinking: Off');
  });

  it('sets the conversation’s level from the keyboard, each level saying what it does', async () => {
    const { calls } = mount('claude-sonnet-5');
    const menu = await openControl('Thinking: Off');
    const items = within(menu).getAllByRole('menuitemradio');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('OffAnswers at once'),
      expect.stringContaining('LowA short think'),
      expect.stringContaining('MediumThinks it through'),
      expect.stringContaining('HighThinks longest'),
    ]);
    expect(items[0]?.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(items[3]!);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Thinking: High' })).toBeTruthy());
    expect(calls).toEqual([['setReasoning', { id: 'c1', level: 'high' }]]);
    expect(screen.getByRole('button', { name: 'Thinking: High' }).textContent).toContain('Thinking: High');
  });

  it('makes the level the default, and lets sampling think only when ticked', async () => {
    const { calls } = mount('claude-sonnet-5');
    await openControl('Thinking: Off');
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: /sampling requests think/ }));
    await waitFor(() => expect(calls).toEqual([['setReasoningDefaults', { sampling: true }]]));
    const menu = await openControl('Thinking: Off');
    expect(
      within(menu)
        .getByRole('menuitemcheckbox', { name: /sampling requests think/ })
        .getAttribute('aria-checked'),
    ).toBe('true');
    expect(within(menu).getByRole('menuitem', { name: 'Off is the default' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
  });

  it('reads in the active language, the default sentence worded for the level', async () => {
    await activateLocale('ko');
    mount('claude-sonnet-5');
    const menu = await openControl('생각: 끔');
    expect(within(menu).getByText('이 대화의 추론')).toBeTruthy();
    const items = within(menu).getAllByRole('menuitemradio');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('끔바로 답합니다.'),
      expect.stringContaining('낮음먼저 짧게 생각합니다.'),
      expect.stringContaining('보통충분히 생각합니다.'),
      expect.stringContaining('높음가장 오래 생각합니다.'),
    ]);
    expect(within(menu).getByRole('menuitem', { name: '끔이 기본값입니다' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    expect(within(menu).getByRole('menuitemcheckbox', { name: '서버의 샘플링 요청에도 생각 허용' })).toBeTruthy();
    fireEvent.click(items[3]!);
    const again = await openControl('생각: 높음');
    expect(within(again).getByRole('menuitem', { name: '높음을 기본값으로 설정(새 대화)' })).toBeTruthy();
  });
});
