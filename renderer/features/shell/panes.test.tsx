// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Appearance } from '../../../shared/domain/appearance';
import { ok } from '../../../shared/result';
import { createFakeTransport } from '../../test-support/fake-transport';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { preloadLazyChunks } from '../../test-support/preload-lazy-chunks';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';
import { shellHandlers } from '../../test-support/shell-handlers';

beforeAll(preloadLazyChunks);
beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'matchMedia');
});

/** A window of this width for media queries: only `(max-width: N px)` is asked. */
function windowWidth(width: number) {
  window.matchMedia = ((query: string) => {
    const max = /max-width: (\d+)px/.exec(query);
    return {
      matches: max !== null && width <= Number(max[1]),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    };
  }) as unknown as typeof window.matchMedia;
}

/** The app in Chat with the appearance the host keeps; the host answers a change with the merged setting. */
function mount(appearance?: Partial<Appearance>) {
  let kept: Appearance = { theme: 'system', sidebarCollapsed: false, conversationsCollapsed: false, ...appearance };
  const base = shellHandlers();
  const view = () => ({
    apiKey: { source: 'stored' as const, hint: '…wxyz' },
    models: [{ id: 'claude-a', label: 'Claude A' }],
    defaultModel: 'claude-a',
    appearance: kept,
  });
  const transport = createFakeTransport({
    ...base,
    'settings.get': () => ok(view()),
    'settings.setAppearance': (changes) => {
      kept = { ...kept, ...changes };
      return ok(view());
    },
    'chat.list': () => ok([]),
  });
  const rendered = renderAppWithBerth({ transport });
  act(() => rendered.store.getState().showView('chat'));
  const sent = () => transport.calls.filter((c) => c.method === 'settings.setAppearance').map((c) => c.input);
  return { ...rendered, sent };
}

const sidebar = () => document.querySelector('.sidebar')!;
const conversationList = () => screen.queryByRole('region', { name: 'Conversations' });

describe('panes that fold', () => {
  it('the top bar’s button folds the sidebar to its named icons and the host keeps it; Ctrl+B opens it again', async () => {
    const { sent } = mount();
    const hide = await screen.findByRole('button', { name: 'Hide the sidebar (Ctrl+B)' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    expect(hide.getAttribute('aria-keyshortcuts')).toBe('Control+B');
    fireEvent.click(hide);
    await waitFor(() => expect(sidebar().classList.contains('collapsed')).toBe(true));
    expect(document.querySelector('.app')!.classList.contains('sidebar-collapsed')).toBe(true);
    // Folded, the views keep their names (for screen readers and the tooltip); the servers' list goes.
    const nav = within(screen.getByRole('navigation'));
    expect(nav.getByRole('button', { name: /^Settings/ }).getAttribute('title')).toBe('Settings');
    expect(screen.queryByRole('list', { name: 'Your servers' })).toBeNull();
    expect(sent()).toEqual([{ sidebarCollapsed: true }]);

    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    await waitFor(() => expect(sidebar().classList.contains('collapsed')).toBe(false));
    expect(sent()).toEqual([{ sidebarCollapsed: true }, { sidebarCollapsed: false }]);
  });

  it('Ctrl+Shift+B folds the conversation list, in Chat only; the button says how to get it back', async () => {
    const { sent, store } = mount();
    expect(await screen.findByRole('region', { name: 'Conversations' })).toBeTruthy();
    fireEvent.keyDown(window, { key: 'B', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(conversationList()).toBeNull());
    expect(screen.getByRole('button', { name: 'Show the conversation list (Ctrl+Shift+B)' })).toBeTruthy();
    expect(sent()).toEqual([{ conversationsCollapsed: true }]);
    act(() => store.getState().showView('servers'));
    fireEvent.keyDown(window, { key: 'B', ctrlKey: true, shiftKey: true });
    expect(sent()).toEqual([{ conversationsCollapsed: true }]);
    expect(screen.queryByRole('button', { name: /conversation list/ })).toBeNull();
  });

  it('starts folded as the host remembers it (a restart)', async () => {
    mount({ sidebarCollapsed: true, conversationsCollapsed: true });
    expect(await screen.findByRole('button', { name: 'Show the sidebar (Ctrl+B)' })).toBeTruthy();
    expect(sidebar().classList.contains('collapsed')).toBe(true);
    expect(conversationList()).toBeNull();
  });

  it('below 1000 px the conversation list folds on its own, below 800 px the sidebar too; opening one there is for the window, not the setting', async () => {
    windowWidth(900);
    const { sent } = mount();
    expect(await screen.findByRole('button', { name: 'Show the conversation list (Ctrl+Shift+B)' })).toBeTruthy();
    expect(conversationList()).toBeNull();
    expect(sidebar().classList.contains('collapsed')).toBe(false);
    cleanup();
    windowWidth(780);
    mount();
    const show = await screen.findByRole('button', { name: 'Show the sidebar (Ctrl+B)' });
    expect(sidebar().classList.contains('collapsed')).toBe(true);
    expect(conversationList()).toBeNull();
    fireEvent.click(show);
    await waitFor(() => expect(sidebar().classList.contains('collapsed')).toBe(false));
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true, shiftKey: true });
    expect(await screen.findByRole('region', { name: 'Conversations' })).toBeTruthy();
    expect(sent()).toEqual([]);
  });

  it('with the list folded, the top bar still starts a new conversation', async () => {
    const { transport } = mount({ conversationsCollapsed: true });
    const topBar = within(await screen.findByRole('banner'));
    fireEvent.click(await topBar.findByRole('button', { name: 'New conversation' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'chat.create')).toBe(true));
  });
});
