// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../shared/domain/chat';
import { ok } from '../../../shared/result';
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
  const transport = createFakeTransport({ 'chat.get': () => new Promise(() => undefined), ...handlers });
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
    const search = screen.getByRole('searchbox', { name: 'Search conversation titles' });
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

  it('searches titles in any case, explains an empty result, and clears', () => {
    mount(summaries(5_000));
    const search = screen.getByRole('searchbox', { name: 'Search conversation titles' });
    fireEvent.change(search, { target: { value: 'NUMBER 4321' } });
    expect(rowButtons().map(titleOf)).toEqual(['Conversation number 4321']);
    fireEvent.change(search, { target: { value: 'weather' } });
    expect(screen.getByRole('status')!.textContent).toMatch(
      'No conversation title contains “weather”. The search looks at titles only',
    );
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
});
