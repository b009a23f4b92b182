// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../../../shared/domain/chat';
import type { SettingsView } from '../../../shared/contract/settings';
import { ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { conversationError } from '../../../shared/domain/conversation-errors';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { preloadLazyChunks } from '../../test-support/preload-lazy-chunks';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';

beforeAll(preloadLazyChunks);
beforeAll(async () => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
  await import('./conversation-settings-dialog');
});
afterEach(cleanup);

const SETTINGS: SettingsView = {
  apiKey: { source: 'stored', hint: '…wxyz' },
  models: [{ id: 'claude-a', label: 'Claude A' }],
  defaultModel: 'claude-a',
};

const CONVERSATION: Conversation = {
  id: 'c1',
  title: 'Weather',
  createdAt: 1,
  updatedAt: 2,
  model: 'claude-a',
  messages: [],
  disabledServers: [],
  disabledTools: [],
};

type Params = { systemPrompt: string | null; temperature: number | null; maxTokens: number | null };

function mount(answer: (params: Params) => Result<Conversation>) {
  const sent: Params[] = [];
  renderAppWithBerth({
    handlers: {
      'app.info': () =>
        ok({ version: '0', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
      'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
      'servers.list': () => ok([]),
      'logs.query': () => ok({ entries: [], dropped: 0 }),
      'settings.get': () => ok(SETTINGS),
      'consent.policies': () => ok([]),
      'sampling.policies': () => ok({}),
      'pending.list': () => ok([]),
      'elicitation.awaiting': () => ok([]),
      'chat.list': () =>
        ok([{ id: 'c1', title: 'Weather', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: 0 }]),
      'chat.get': () => ok(CONVERSATION),
      'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
      'chat.setParams': ({ id: _id, ...params }) => {
        sent.push(params);
        return answer(params);
      },
    },
    prepare: (store) => store.getState().showView('chat'),
  });
  return sent;
}

async function openDialog(): Promise<HTMLElement> {
  const trigger = await screen.findByRole('button', { name: 'Conversation settings' });
  trigger.focus();
  fireEvent.click(trigger);
  return screen.findByRole('dialog', { name: 'Conversation settings' });
}

describe('the conversation settings dialog', () => {
  it('saves the system prompt, temperature and max tokens from the header; empty fields are the defaults', async () => {
    const sent = mount((params) =>
      ok({
        ...CONVERSATION,
        ...(params.systemPrompt !== null ? { systemPrompt: params.systemPrompt } : {}),
        ...(params.temperature !== null ? { temperature: params.temperature } : {}),
      }),
    );
    const dialog = await openDialog();
    // Opens on its safest button.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'System prompt' }), {
      target: { value: 'Answer like a sailor.' },
    });
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Temperature' }), { target: { value: '0.4' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ systemPrompt: 'Answer like a sailor.', temperature: 0.4, maxTokens: null }]);
    // The button says the conversation has settings of its own, and the dialog opens with them.
    expect(screen.getByRole('button', { name: 'Conversation settings' }).dataset.custom).toBe('true');
    const again = await openDialog();
    expect((within(again).getByRole('textbox', { name: 'System prompt' }) as HTMLTextAreaElement).value).toBe(
      'Answer like a sailor.',
    );
  });

  it('refuses a temperature above 1 for a Claude model before asking the host, in words that say the range', async () => {
    const sent = mount(() => ok(CONVERSATION));
    const dialog = await openDialog();
    expect(within(dialog).getByText('From 0 (focused) to 1 (varied). Empty: the model’s default.')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Temperature' }), { target: { value: '1.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Choose a temperature from 0 to 1, or leave it empty.')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('shows the host’s refusal beside its field and stays open', async () => {
    mount(() => {
      const { text, hostMessage } = conversationError('conversation-errors.max-tokens-above-window', {
        model: 'claude-a',
        window: 8192,
      });
      return { ok: false, code: 'INVALID_INPUT', message: text, path: 'maxTokens', hostMessage };
    });
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Longest reply (tokens)' }), {
      target: { value: '9000' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(/claude-a reads and writes at most 8,?192 tokens in all: choose fewer tokens/),
    ).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
