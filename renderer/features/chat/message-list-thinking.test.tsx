// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../../shared/domain/chat';
import { Tooltip } from 'radix-ui';
import { StoreProvider, type LiveTurn } from '../../store';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { mockElementSizes } from '../../test-support/element-sizes';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { MessageList } from './message-list';
import { forgetScrollPositions } from './scroll-memory';

beforeAll(() => stubResizeObserver());
let restoreSizes: () => void;
beforeEach(() => {
  restoreSizes = mockElementSizes({ scrollerSelector: '.message-scroller', viewportHeight: 600, rowHeight: () => 100 });
});
afterEach(() => {
  cleanup();
  restoreSizes();
  forgetScrollPositions();
});

const conversation = (messages: Conversation['messages']): Conversation => ({
  id: 'c1',
  title: 't',
  createdAt: 1,
  updatedAt: 1,
  model: 'claude-sonnet-5',
  messages,
  disabledServers: [],
  disabledTools: [],
});

const asked = {
  id: 'p',
  role: 'user' as const,
  createdAt: 1,
  content: [{ type: 'text' as const, text: 'Which sort?' }],
};

describe('the message list and the model’s reasoning', () => {
  it('shows a saved reply’s reasoning folded above its answer, titled with its time', async () => {
    renderWithBerth(
      <MessageList
        conversation={conversation([
          asked,
          {
            id: 'a',
            role: 'assistant',
            createdAt: 2,
            content: [
              { type: 'thinking', thinking: 'Nearly sorted: Timsort.', signature: 's', durationMs: 12_300 },
              { type: 'text', text: 'Use Timsort.' },
            ],
          },
        ])}
        live={undefined}
      />,
    );
    const title = await screen.findByRole('button', { name: 'Thought for 12 s' });
    expect(title.getAttribute('aria-expanded')).toBe('false');
    const reply = screen.getByRole('listitem', { name: 'Reply' });
    // Above the answer, in the same reply.
    expect(reply.textContent).toMatch(/^Thought for 12 s.*Use Timsort\./);
  });

  it('streams the live reasoning open, then folds it when the answer starts', async () => {
    const live = (done: boolean, draft: string): LiveTurn => ({
      turnId: 't',
      running: true,
      draft,
      toolCalls: {},
      thinking: { text: 'Let me compare the two.', done },
    });
    const view = renderWithBerth(<MessageList conversation={conversation([asked])} live={live(false, '')} />);
    const streaming = await screen.findByRole('button', { name: /^Thinking… \d+ s$/ });
    expect(streaming.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('region', { name: 'The model’s reasoning' }).textContent).toContain('compare the two');

    // rerender replaces the whole tree: the store and tooltip provider go around it again.
    view.rerender(
      <StoreProvider store={view.store}>
        <Tooltip.Provider>
          <MessageList conversation={conversation([asked])} live={live(true, 'Use Timsort.')} />
        </Tooltip.Provider>
      </StoreProvider>,
    );
    const folded = await screen.findByRole('button', { name: /^Thought for \d+ s$/ });
    expect(folded.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByTestId('streaming-reply').textContent).toContain('Use Timsort.');
  });
});
