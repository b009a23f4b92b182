// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatToolsView } from '../../../shared/contract/chat';
import type { SettingsView } from '../../../shared/contract/settings';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import { ok } from '../../../shared/result';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { serverState } from '../../test-support/fake-transport';
import { preloadLazyChunks } from '../../test-support/preload-lazy-chunks';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';

// The strip follows the conversation's own loaded list (chat.loadedToolsChanged) and the store's
// servers: a reply that saves many messages must not list every tool (chat.tools) after each one.

beforeAll(preloadLazyChunks);
beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

const SETTINGS: SettingsView = {
  apiKey: { source: 'stored', hint: '…wxyz' },
  models: [{ id: 'claude-a', label: 'Claude A' }],
  defaultModel: 'claude-a',
};
const base = { conversationId: 'c1', turnId: 't1' };
const conversation: Conversation = {
  id: 'c1',
  title: 'Many tools',
  createdAt: 1,
  updatedAt: 2,
  model: 'claude-a',
  messages: [],
  disabledServers: [],
  disabledTools: ['ws-02/write_file'],
  loadedTools: [],
};
const TOOLS: ChatToolsView = {
  tools: [],
  offeredCount: 2_000,
  toolSearch: {
    mode: 'auto',
    active: true,
    reason: 'many',
    thresholds: { countAbove: 128, shareAbove: 0.1 },
    loaded: [],
    fullTokensEstimate: 240_000,
    sentTokensEstimate: 900,
  },
};
const ready = (name: string, tools: string[]) =>
  serverState(name, { status: 'ready', tools: tools.map((tool) => ({ name: tool, inputSchema: { type: 'object' } })) });

function mount() {
  return renderAppWithBerth({
    handlers: {
      'app.info': () =>
        ok({ version: '0', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
      'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
      'servers.list': () => ok([ready('ws-01', ['read_text_file', 'list_directory']), ready('ws-02', ['write_file'])]),
      'logs.query': () => ok({ entries: [], dropped: 0 }),
      'settings.get': () => ok(SETTINGS),
      'consent.policies': () => ok([]),
      'sampling.policies': () => ok({}),
      'pending.list': () => ok([]),
      'elicitation.awaiting': () => ok([]),
      'chat.list': () =>
        ok([{ id: 'c1', title: 'Many tools', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: 0 }]),
      'chat.get': () => ok(conversation),
      'chat.tools': () => ok(TOOLS),
    },
    prepare: (store) => store.getState().showView('chat'),
  }).transport;
}

const saved = (id: string, role: 'user' | 'assistant', text: string): ChatMessage => ({
  id,
  role,
  createdAt: 3,
  content: [{ type: 'text', text }],
});

describe('the loaded-tools strip', () => {
  it('follows what the model loads from events, without listing every tool again per saved message', async () => {
    const transport = mount();
    const strip = await screen.findByRole('region', { name: 'Loaded by the model' });
    expect(strip.textContent).toContain('the model has loaded no tool yet');
    const listed = () => transport.calls.filter((call) => call.method === 'chat.tools').length;
    const before = listed();

    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 3 });
      transport.emit('chat.event', { type: 'message-saved', ...base, message: saved('u1', 'user', 'Read notes') });
      transport.emit('chat.loadedToolsChanged', { id: 'c1', loadedTools: ['ws-01/read_text_file'] });
      transport.emit('chat.event', {
        type: 'message-saved',
        ...base,
        message: saved('a1', 'assistant', 'Loading a tool'),
      });
      transport.emit('chat.loadedToolsChanged', {
        id: 'c1',
        loadedTools: ['ws-01/read_text_file', 'ws-02/write_file', 'gone/tool'],
      });
      transport.emit('chat.event', {
        type: 'message-saved',
        ...base,
        message: saved('a2', 'assistant', 'Loaded two more'),
      });
      transport.emit('chat.event', { type: 'message-saved', ...base, message: saved('a3', 'assistant', 'Done') });
      transport.emit('chat.event', { type: 'turn-finished', ...base, stopReason: 'end_turn' });
    });
    await waitFor(() => expect(within(strip).getAllByRole('listitem')).toHaveLength(3));
    expect(strip.textContent).toContain('Loaded by the model:');
    // Switched off in this conversation, or its server is not ready: shown as not sent.
    const [read, write, gone] = within(strip).getAllByRole('listitem');
    expect(read?.getAttribute('title')).toBe('ws-01 › read_text_file');
    expect(write?.getAttribute('title')).toContain('is switched off');
    expect(gone?.getAttribute('title')).toContain('is switched off');
    // Four saved messages and two loads later, still the one listing the open conversation made.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listed()).toBe(before);
  });
});
