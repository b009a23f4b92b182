// @vitest-environment jsdom
import { act, cleanup, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateLongConversation } from '../../../bench/generators/long-conversation';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { mockElementSizes } from '../../test-support/element-sizes';
import { MessageList } from './message-list';
import { forgetScrollPositions } from './scroll-memory';
import { renderWithBerth } from '../../test-support/render-with-berth';

beforeAll(stubResizeObserver);
let restoreSizes: () => void;
beforeEach(() => {
  restoreSizes = mockElementSizes({ scrollerSelector: '.message-scroller', viewportHeight: 600, rowHeight: () => 100 });
});
afterEach(() => {
  cleanup();
  restoreSizes();
  forgetScrollPositions();
});

const long = generateLongConversation({ id: 'c1' });
const firstToolUse = long.messages.flatMap((m) => m.content).find((b) => b.type === 'tool_use');
if (firstToolUse?.type !== 'tool_use') throw new Error('the generated conversation has a tool call');
const scroller = () => document.querySelector<HTMLElement>('.message-scroller')!;
const card = (toolUseId: string) =>
  [...document.querySelectorAll<HTMLElement>('[data-tool-use]')].find((el) => el.dataset.toolUse === toolUseId);

describe('the message list’s scroll-to-card seam', () => {
  it('scrolls a far, unrendered tool card into the list, focuses it, stops following and clears the request', async () => {
    const { store } = renderWithBerth(<MessageList conversation={long} live={undefined} />);
    act(() => void scroller().dispatchEvent(new Event('scroll')));
    const bottom = scroller().scrollTop;
    expect(bottom).toBeGreaterThan(10_000);
    expect(card(firstToolUse.id)).toBeUndefined();

    // A request for another conversation is not this list's to handle.
    act(() => store.setState({ toolCardFocus: { conversationId: 'elsewhere', toolUseId: firstToolUse.id } }));
    expect(store.getState().toolCardFocus).toBeDefined();

    act(() => store.setState({ toolCardFocus: { conversationId: 'c1', toolUseId: firstToolUse.id } }));
    await waitFor(() => expect(document.activeElement).toBe(card(firstToolUse.id)), { timeout: 5_000 });
    expect(scroller().scrollTop).toBeLessThan(2_000);
    expect(store.getState().toolCardFocus).toBeUndefined();
  });
});
