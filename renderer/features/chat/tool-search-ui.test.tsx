// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatToolsView } from '../../../shared/contract/chat';
import type { Conversation } from '../../../shared/domain/chat';
import { ok } from '../../../shared/result';
import { useBerth } from '../../store';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { serverState } from '../../test-support/fake-transport';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import LoadedToolsStrip from './loaded-tools-strip';
import { ToolsPopover } from './tools-popover';

beforeAll(() => stubResizeObserver());
afterEach(cleanup);

const conversation: Conversation = {
  id: 'c1',
  title: 'Many tools',
  createdAt: 1,
  updatedAt: 1,
  model: 'm',
  messages: [],
  disabledServers: [],
  disabledTools: [],
};

function view(
  loaded: Array<{ server: string; tool: string; enabled: boolean }>,
  mode: 'auto' | 'on' | 'off' = 'auto',
): ChatToolsView {
  return {
    tools: [{ server: 'ws-01', tool: 'read_text_file', enabled: true }],
    offeredCount: 2_000,
    toolSearch: {
      mode,
      active: mode !== 'off',
      reason: '2,000 tools are enabled, more than 128: the model searches them and loads what it needs.',
      thresholds: { countAbove: 128, shareAbove: 0.1 },
      loaded,
      fullTokensEstimate: 240_000,
      sentTokensEstimate: 900,
    },
  };
}

function mount(children: React.ReactNode, loaded = [{ server: 'ws-01', tool: 'read_text_file', enabled: true }]) {
  let current = view(loaded);
  return renderWithBerth(children, {
    handlers: {
      'chat.tools': () => ok(current),
      'chat.unloadTools': ({ tools }) => {
        current = view(current.toolSearch!.loaded.filter((entry) => !tools.includes(`${entry.server}/${entry.tool}`)));
        return ok({
          ...conversation,
          loadedTools: current.toolSearch!.loaded.map((entry) => `${entry.server}/${entry.tool}`),
        });
      },
      'chat.setToolSearch': ({ mode }) => {
        current = view(current.toolSearch!.loaded, mode);
        return ok({ ...conversation, toolSearch: mode });
      },
      'chat.setToolSearchThresholds': (input) => ok(input),
    },
    prepare: (store) => {
      // What the open conversation brings: its loaded list, a ready server, the tool view chat-view fetched.
      store
        .getState()
        .applyConversation({ ...conversation, loadedTools: loaded.map((entry) => `${entry.server}/${entry.tool}`) });
      store.getState().applyServerChanged(
        serverState('ws-01', {
          status: 'ready',
          tools: [{ name: 'read_text_file', inputSchema: { type: 'object' } }],
        }),
      );
      void store.getState().loadConversationTools('c1');
    },
  }).transport;
}

/** The strip as chat-view shows it: with the open conversation from the store. */
function OpenStrip() {
  const open = useBerth((s) => s.conversationDetails.c1);
  return open === undefined ? null : <LoadedToolsStrip conversation={open} />;
}

describe('tool search in the chat', () => {
  it('lists the tools the model loaded, each removable', async () => {
    const transport = mount(<OpenStrip />);
    const strip = await screen.findByRole('region', { name: 'Loaded by the model' });
    expect(strip.textContent).toContain('Loaded by the model:');
    expect(strip.textContent).toContain('ws-01 › read_text_file');
    fireEvent.click(within(strip).getByRole('button', { name: 'Remove read_text_file (loaded by the model)' }));
    await waitFor(() => expect(strip.textContent).toContain('the model has loaded no tool yet'));
    expect(transport.calls.find((call) => call.method === 'chat.unloadTools')?.input).toEqual({
      id: 'c1',
      tools: ['ws-01/read_text_file'],
    });
  });

  it('shows in the tools popover whether it is on and why, and lets the person choose and set the threshold', async () => {
    const transport = mount(<ToolsPopover conversation={conversation} />);
    fireEvent.click(await screen.findByRole('button', { name: /^Tools/ }));
    const panel = await screen.findByRole('region', { name: 'Tool search' });
    expect(panel.textContent).toContain('2,000 tools are enabled, more than 128');
    expect(panel.textContent).toContain('now ≈ 900 of ≈ 240,000 tokens');
    fireEvent.change(within(panel).getByRole('combobox', { name: 'Tool search in this conversation' }), {
      target: { value: 'off' },
    });
    await waitFor(() => expect(transport.calls.some((call) => call.method === 'chat.setToolSearch')).toBe(true));
    expect(transport.calls.find((call) => call.method === 'chat.setToolSearch')?.input).toEqual({
      id: 'c1',
      mode: 'off',
    });
    const fresh = await screen.findByRole('region', { name: 'Tool search' });
    fireEvent.change(within(fresh).getByRole('spinbutton', { name: 'Tools before tool search starts' }), {
      target: { value: '64' },
    });
    fireEvent.click(within(fresh).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(transport.calls.find((call) => call.method === 'chat.setToolSearchThresholds')?.input).toEqual({
        countAbove: 64,
        shareAbove: 0.1,
      }),
    );
  });

  it('reads in the active language, the threshold fields inside the sentence where the language puts them', async () => {
    await activateLocale('ja');
    mount(<ToolsPopover conversation={conversation} />);
    fireEvent.click(await screen.findByRole('button', { name: /^この会話のツール/ }));
    const panel = await screen.findByRole('region', { name: 'ツール検索' });
    // The host's reason stays as the host wrote it; Berth's own words are Japanese.
    expect(panel.textContent).toContain('2,000 tools are enabled, more than 128');
    expect(panel.textContent).toContain('（現在 ≈ 240,000 トークン中 ≈ 900）');
    const mode = within(panel).getByRole('combobox', { name: 'この会話でのツール検索' });
    expect(
      within(mode)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['自動', '常にオン', 'オフ']);
    const form = panel.querySelector('form')!;
    expect(form.textContent).toBe(
      '「自動」はすべての会話で、ツールが  個を超えるか、モデルのコンテキストの % を超えると始まります。',
    );
    const count = within(panel).getByRole('spinbutton', { name: 'ツール検索が始まるツール数' });
    count.focus();
    fireEvent.change(count, { target: { value: '64' } });
    // Typing re-renders the sentence: the same field keeps the focus and the value.
    expect(document.activeElement).toBe(count);
    expect((count as HTMLInputElement).value).toBe('64');
    expect(within(panel).getByRole('button', { name: '保存' })).toBeTruthy();
  });
});
