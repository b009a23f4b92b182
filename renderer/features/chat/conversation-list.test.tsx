// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../shared/domain/chat';
import { fail, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { createFakeTransport, type FakeHandlers } from '../../test-support/fake-transport';
import { CONVERSATION_ROW_HEIGHT, ConversationList, filterByTitle } from './conversation-list';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';

const VIEWPORT_HEIGHT = 540;

beforeAll(() => {
  stubResizeObserver();
  // jsdom has no layout: give the scroll box a height so the virtualizer has a window to fill.
  for (const [property, size] of [
    ['clientHeight', VIEWPORT_HEIGHT],
    ['clientWidth', 280],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, property, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('conversation-scroll') ? size : 0;
      },
    });
  }
  Element.prototype.scrollTo = function scrollTo(this: Element, options?: ScrollToOptions | number) {
    if (typeof options === 'object' && options.top !== undefined) this.scrollTop = options.top;
    this.dispatchEvent(new Event('scroll'));
  } as Element['scrollTo'];
});
afterEach(cleanup);

function summaries(count: number): ConversationSummary[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `c${String(index).padStart(5, '0')}`,
    title: `Conversation number ${index}`,
    createdAt: 1,
    updatedAt: 1_000_000 - index,
    model: 'claude-a',
    messageCount: index % 7,
  }));
}

function mount(list: ConversationSummary[], handlers: FakeHandlers = {}) {
  const transport = createFakeTransport({
    'chat.get': () => new Promise(() => undefined),
    // No message holds anything unless a test says so: only titles match.
    'chat.search': () => ok({ hits: [], total: 0, complete: true }),
    ...handlers,
  });
  const { store } = renderWithBerth(<ConversationList onNew={() => undefined} creating={false} />, {
    transport,
    prepare: (store) => store.getState().applyConversationsChanged(list),
  });
  return { store, transport };
}

/** The title of a row's main button (its text also holds the date and the message count). */
const titleOf = (element: Element | null | undefined) => element?.querySelector('.conversation-title')?.textContent;
const rowButtons = () =>
  within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('button', { name: /^Conversation number/ });

describe('<ConversationList> at 5,000 conversations', () => {
  it('renders only a window of rows, and says how long the list is', () => {
    mount(summaries(5_000));
    const items = within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem');
    expect(items.length).toBeGreaterThan(5);
    expect(items.length).toBeLessThan(40);
    expect(items[0]!.getAttribute('aria-setsize')).toBe('5000');
    expect(items[0]!.textContent).toMatch('Conversation number 0');
  });

  it('moves focus with the arrow keys, Home and End, and the focused row stays in the DOM', () => {
    mount(summaries(5_000));
    rowButtons()[0]!.focus();
    for (let step = 1; step <= 25; step += 1) {
      fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
      expect(titleOf(document.activeElement)).toBe(`Conversation number ${step}`);
    }
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(titleOf(document.activeElement)).toBe('Conversation number 4999');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(titleOf(document.activeElement)).toBe('Conversation number 4998');
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(titleOf(document.activeElement)).toBe('Conversation number 0');
    expect(rowButtons().length).toBeLessThan(40);
  });

  it('never pulls focus back to a row when the list changes while the person types elsewhere', () => {
    const { store } = mount(summaries(50));
    rowButtons()[3]!.focus();
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(titleOf(document.activeElement)).toBe('Conversation number 4');
    const search = screen.getByRole('searchbox', { name: 'Search conversations' });
    search.focus();
    act(() =>
      store.getState().applyConversationsDelta({
        changed: [{ ...summaries(1)[0]!, id: 'fresh', title: 'Conversation number fresh', updatedAt: 2_000_000 }],
        removed: [],
      }),
    );
    expect(rowButtons().map(titleOf)).toContain('Conversation number fresh');
    expect(document.activeElement).toBe(search);
  });

  it('searches titles in any case, explains an empty result, and clears', async () => {
    mount(summaries(5_000));
    const search = screen.getByRole('searchbox', { name: 'Search conversations' });
    fireEvent.change(search, { target: { value: 'NUMBER 4321' } });
    expect(rowButtons().map(titleOf)).toEqual(['Conversation number 4321']);
    fireEvent.change(search, { target: { value: 'weather' } });
    // Until the host answers, the list says it is still looking rather than that nothing matched.
    expect(screen.getByRole('status').textContent).toBe('Searching messages…');
    expect(
      (await screen.findByText(/No conversation holds “weather”/)).closest('[role="status"]')!.textContent,
    ).toMatch('No conversation holds “weather”. Search looks for every word in titles and messages');
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(titleOf(rowButtons()[0])).toBe('Conversation number 0');
  });

  it('keeps the scroll position when Chat is left and opened again', () => {
    mount(summaries(5_000));
    const scroller = screen.getByTestId('conversation-scroll');
    act(() => {
      scroller.scrollTop = 100 * CONVERSATION_ROW_HEIGHT;
      fireEvent.scroll(scroller);
    });
    expect(rowButtons().map(titleOf)).toContain('Conversation number 105');
    cleanup();
    mount(summaries(5_000));
    expect(screen.getByTestId('conversation-scroll').scrollTop).toBe(100 * CONVERSATION_ROW_HEIGHT);
    expect(rowButtons().map(titleOf)).toContain('Conversation number 105');
    expect(rowButtons().map(titleOf)).not.toContain('Conversation number 0');
    // Back to the top for the other tests (the position is kept per window).
    act(() => {
      screen.getByTestId('conversation-scroll').scrollTop = 0;
      fireEvent.scroll(screen.getByTestId('conversation-scroll'));
    });
  });

  it('filters 5,000 precomputed titles well under 50 ms', () => {
    const list = summaries(5_000);
    const lower = list.map((summary) => summary.title.toLowerCase());
    const started = performance.now();
    const found = filterByTitle(list, lower, 'number 12');
    expect(performance.now() - started).toBeLessThan(50);
    expect(found.map((summary) => summary.title)).toEqual(
      list.filter((summary) => summary.title.includes('number 12')).map((summary) => summary.title),
    );
  });

  it('shows a new title at once while the host is still answering', async () => {
    let answer: (result: Result<ConversationSummary>) => void = () => undefined;
    const list = summaries(3);
    mount(list, { 'chat.rename': () => new Promise((resolve) => (answer = resolve)) });
    fireEvent.click(screen.getByRole('button', { name: 'Rename “Conversation number 1”' }));
    const input = screen.getByRole('textbox', { name: 'Conversation title' });
    fireEvent.change(input, { target: { value: 'Trip to Lisbon' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByRole('button', { name: /^Trip to Lisbon/ }).textContent).toMatch(/^Trip to Lisbon/);
    await act(async () => answer(ok({ ...list[1]!, title: 'Trip to Lisbon', updatedAt: 2_000_000 })));
    expect(rowButtons()).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: /^(Trip to Lisbon|Conversation number)/ })[0]!.textContent).toMatch(
      /^Trip to Lisbon/,
    );
  });

  it('shows the host’s message hits first with the match marked, then titles, and the keyboard walks them', async () => {
    const list = summaries(5_000);
    const { transport, store: state } = mount(list, {
      'chat.search': ({ query }) =>
        ok({
          hits:
            query === 'ferry'
              ? [
                  {
                    id: list[4000]!.id,
                    title: list[4000]!.title,
                    updatedAt: list[4000]!.updatedAt,
                    snippet: {
                      text: 'When does the Kiel ferry leave?',
                      cutStart: true,
                      cutEnd: false,
                      role: 'user',
                      messageId: 'm1',
                      highlights: [{ start: 19, end: 24 }],
                    },
                  },
                  // A hit the list does not hold (deleted meanwhile) is left out.
                  { id: 'gone', title: 'Gone', updatedAt: 1 },
                ]
              : [],
          total: query === 'ferry' ? 2 : 0,
          complete: false,
        }),
    });
    const search = screen.getByRole('searchbox', { name: 'Search conversations' });
    fireEvent.change(search, { target: { value: 'ferry' } });
    const mark = await screen.findByText('ferry', { selector: 'mark' });
    expect(mark.closest('.conversation-snippet')!.textContent).toBe('You: …When does the Kiel ferry leave?');
    expect(rowButtons().map(titleOf)).toEqual(['Conversation number 4000']);
    expect(screen.getByRole('status').textContent).toMatch('Still indexing conversations');
    // Opening the hit asks the chat to land on the message it was found in.
    fireEvent.click(rowButtons()[0]!);
    expect(state.getState().messageFocus).toEqual({ conversationId: list[4000]!.id, messageId: 'm1' });
    expect(state.getState().activeConversationId).toBe(list[4000]!.id);
    // Debounced: one question for the word typed, with a limit.
    expect(transport.calls.filter((call) => call.method === 'chat.search')).toEqual([
      { method: 'chat.search', input: { query: 'ferry', limit: 50 } },
    ]);

    // Titles still match (inside a word too), after the message hits.
    fireEvent.change(search, { target: { value: 'number 12' } });
    await waitFor(() =>
      expect(transport.calls.filter((call) => call.method === 'chat.search').at(-1)?.input).toEqual({
        query: 'number 12',
        limit: 50,
      }),
    );
    expect(rowButtons().map(titleOf).slice(0, 3)).toEqual([
      'Conversation number 12',
      'Conversation number 120',
      'Conversation number 121',
    ]);
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(titleOf(document.activeElement)).toBe('Conversation number 12');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(titleOf(document.activeElement)).toBe('Conversation number 120');
  });

  it('falls back to titles, and says so, when the host cannot search', async () => {
    mount(summaries(30), { 'chat.search': () => fail('IO_ERROR', 'disk gone') });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search conversations' }), {
      target: { value: 'number 2' },
    });
    expect(
      await screen.findByText('Messages could not be searched just now; showing title matches only.'),
    ).toBeTruthy();
    expect(rowButtons().map(titleOf)).toContain('Conversation number 21');
  });

  it('pins from the row’s button, its context menu and Alt+P: pinned rows first, unpinned back in place', async () => {
    const list = summaries(30);
    const { transport } = mount(list, {
      'chat.setPinned': ({ id, pinned }) => {
        const { pinned: _old, ...summary } = list.find((item) => item.id === id)!;
        return ok(pinned ? { ...summary, pinned } : summary);
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Pin “Conversation number 15”' }));
    await waitFor(() => expect(titleOf(rowButtons()[0])).toBe('Conversation number 15'));
    expect(screen.getByRole('button', { name: 'Unpin “Conversation number 15”' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    // Alt+P on a focused row.
    const row = rowButtons().find((button) => titleOf(button) === 'Conversation number 7')!;
    row.focus();
    fireEvent.keyDown(row, { key: 'π', code: 'KeyP', altKey: true });
    await waitFor(() =>
      expect(rowButtons().slice(0, 3).map(titleOf)).toEqual([
        'Conversation number 7',
        'Conversation number 15',
        'Conversation number 0',
      ]),
    );

    // The context menu unpins.
    fireEvent.contextMenu(rowButtons()[1]!);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Unpin' }));
    await waitFor(() =>
      expect(rowButtons().slice(0, 3).map(titleOf)).toEqual([
        'Conversation number 7',
        'Conversation number 0',
        'Conversation number 1',
      ]),
    );
    expect(transport.calls.filter((call) => call.method === 'chat.setPinned').map((call) => call.input)).toEqual([
      { id: list[15]!.id, pinned: true },
      { id: list[7]!.id, pinned: true },
      { id: list[15]!.id, pinned: false },
    ]);

    // The keyboard's context-menu key opens the same menu on the focused row.
    fireEvent.keyDown(rowButtons()[0]!, { key: 'ContextMenu' });
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Unpin' }));
    await waitFor(() =>
      expect(transport.calls.filter((call) => call.method === 'chat.setPinned').at(-1)?.input).toEqual({
        id: list[7]!.id,
        pinned: false,
      }),
    );
  });
});
