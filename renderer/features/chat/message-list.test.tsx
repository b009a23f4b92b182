// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateLongConversation } from '../../../bench/generators/long-conversation';
import type { Conversation } from '../../../shared/domain/chat';
import type { LiveTurn } from '../../store';
import { mockElementSizes } from '../../test-support/element-sizes';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { MessageList } from './message-list';
import { forgetScrollPositions } from './scroll-memory';
import { stubResizeObserver } from '../../test-support/dom-stubs';

/** How often each Markdown text rendered: a row that re-renders renders its Markdown again. */
const markdownRenders = new Map<string, number>();
vi.mock('./markdown', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./markdown')>();
  const Real = actual.Markdown;
  return {
    ...actual,
    Markdown: function CountingMarkdown(props: { text: string }) {
      markdownRenders.set(props.text, (markdownRenders.get(props.text) ?? 0) + 1);
      return <Real {...props} />;
    },
  };
});

beforeAll(() => {
  stubResizeObserver();
});

const VIEWPORT = 600;
const ROW = 100;
const GAP = 16;
let restoreSizes: () => void;
beforeEach(() => {
  restoreSizes = mockElementSizes({
    scrollerSelector: '.message-scroller',
    viewportHeight: VIEWPORT,
    rowHeight: () => ROW,
  });
  markdownRenders.clear();
});
afterEach(() => {
  cleanup();
  restoreSizes();
  forgetScrollPositions();
});

function scroller(): HTMLElement {
  return document.querySelector<HTMLElement>('.message-scroller')!;
}
function renderedRows(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>('.message-list > li'));
}
/** Moves the list like a person would; the browser then fires a scroll event. */
function scrollTo(top: number) {
  act(() => {
    fireEvent.wheel(scroller(), { deltaY: top - scroller().scrollTop });
    scroller().scrollTop = top;
    scroller().dispatchEvent(new Event('scroll'));
  });
}
/** The scroll event the browser fires after the list moved itself. */
function settle() {
  act(() => void scroller().dispatchEvent(new Event('scroll')));
}
const maxScroll = () => scroller().scrollHeight - VIEWPORT;

const long = generateLongConversation({ id: 'c1' });
const turn = (patch: Partial<LiveTurn>): LiveTurn => ({
  turnId: 't1',
  running: true,
  draft: '',
  toolCalls: {},
  ...patch,
});

describe('<MessageList> at a heavy user’s scale', () => {
  it('renders only the rows near the viewport of a 2,000-message conversation, opening at the newest', () => {
    renderWithBerth(<MessageList conversation={long} live={undefined} />);
    settle();
    const rows = renderedRows();
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.length).toBeLessThan(VIEWPORT / ROW + 2 * 6 + 4);
    expect(scroller().scrollTop).toBe(maxScroll());
    const lastMessage = long.messages.at(-1)!;
    expect(document.querySelector(`[data-message="${lastMessage.id}"]`)).not.toBeNull();
    expect(document.querySelector(`[data-message="${long.messages[0]!.id}"]`)).toBeNull();
  });

  it('re-renders only the live row when a token streams in', () => {
    const { rerender } = renderWithBerth(<MessageList conversation={long} live={turn({ draft: 'Hel' })} />);
    settle();
    const saved = [...markdownRenders.keys()].filter((text) => text !== 'Hel');
    expect(saved.length).toBeGreaterThan(0);
    const before = new Map(markdownRenders);
    rerender(<MessageList conversation={long} live={turn({ draft: 'Hello' })} />);
    rerender(<MessageList conversation={long} live={turn({ draft: 'Hello, wo' })} />);
    expect(screen.getByTestId('streaming-reply').textContent).toContain('Hello, wo');
    for (const text of saved) expect(markdownRenders.get(text), text).toBe(before.get(text));
    expect(markdownRenders.get('Hello, wo')).toBe(1);
  });

  it('follows new messages at the bottom, and stops following once the person scrolls up', () => {
    const short = { ...long, messages: long.messages.slice(0, 40) };
    const { rerender } = renderWithBerth(<MessageList conversation={short} live={undefined} />);
    settle();
    expect(scroller().scrollTop).toBe(maxScroll());
    const next = (n: number): Conversation => ({ ...long, messages: long.messages.slice(0, n) });
    rerender(<MessageList conversation={next(42)} live={undefined} />);
    settle();
    expect(scroller().scrollTop).toBe(maxScroll());

    scrollTo(maxScroll() - 500);
    const reading = scroller().scrollTop;
    rerender(<MessageList conversation={next(44)} live={undefined} />);
    settle();
    expect(scroller().scrollTop).toBe(reading);
    expect(scroller().scrollTop).toBeLessThan(maxScroll());
  });

  it('keeps following when the list itself moves up (rows measured while opening), not the person', () => {
    const { rerender } = renderWithBerth(
      <MessageList conversation={{ ...long, messages: long.messages.slice(0, 40) }} live={undefined} />,
    );
    settle();
    // The virtualizer shifts scrollTop as rows above are measured: no wheel, touch or key.
    act(() => {
      scroller().scrollTop = maxScroll() - 300;
      scroller().dispatchEvent(new Event('scroll'));
    });
    rerender(<MessageList conversation={{ ...long, messages: long.messages.slice(0, 42) }} live={undefined} />);
    settle();
    expect(scroller().scrollTop).toBe(maxScroll());
  });

  it('puts the person back where they left a conversation', () => {
    const other: Conversation = { ...long, id: 'c2', messages: long.messages.slice(0, 4) };
    const shownIds = () => renderedRows().map((row) => row.dataset.message);
    const { rerender } = renderWithBerth(<MessageList key="c1" conversation={long} live={undefined} />);
    settle();
    scrollTo(50 * (ROW + GAP));
    const reading = shownIds();
    expect(reading).not.toContain(long.messages.at(-1)!.id);
    rerender(<MessageList key="c2" conversation={other} live={undefined} />);
    settle();
    expect(shownIds()).toEqual(
      other.messages.filter((m) => m.role === 'assistant' || m.content[0]?.type === 'text').map((m) => m.id),
    );
    rerender(<MessageList key="c1" conversation={long} live={undefined} />);
    settle();
    expect(scroller().scrollTop).toBe(50 * (ROW + GAP));
    expect(shownIds()).toEqual(reading);
  });

  it('keeps the row holding keyboard focus rendered when it scrolls far away', () => {
    renderWithBerth(<MessageList conversation={long} live={undefined} />);
    scrollTo(0);
    const toolRow = document.querySelector<HTMLElement>('[data-message="m1"]')!;
    const argumentsButton = toolRow.querySelector<HTMLButtonElement>('.advanced-trigger')!;
    act(() => argumentsButton.focus());
    expect(document.activeElement).toBe(argumentsButton);
    scrollTo(maxScroll());
    expect(document.querySelector(`[data-message="${long.messages.at(-1)!.id}"]`)).not.toBeNull();
    expect(argumentsButton.isConnected).toBe(true);
    expect(document.activeElement).toBe(argumentsButton);
    // Once focus leaves, the far row goes like any other.
    act(() => argumentsButton.blur());
    fireEvent.blur(argumentsButton);
    settle();
    expect(document.querySelector('[data-message="m1"]')).toBeNull();
  });
});
