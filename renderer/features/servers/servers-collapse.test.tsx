// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerState } from '../../../shared/domain';
import { serverState } from '../../test-support/fake-transport';
import { ServersView } from './servers-view';
import { renderWithBerth } from '../../test-support/render-with-berth';

// A narrow window shows the Servers list or one server's detail (servers.css, below 1000 px); which
// one is the store's serverPane. jsdom applies no media queries, so the narrow-window rules are
// injected as they apply there.
const NARROW_RULES =
  '.servers-view.pane-list .detail-pane, .servers-view.pane-detail .server-column { display: none; }';

afterEach(() => {
  cleanup();
  document.head.querySelectorAll('style[data-test-narrow]').forEach((s) => s.remove());
});

const servers: ServerState[] = [
  serverState('alpha', { status: 'ready' }),
  serverState('a-server-with-a-long-name', { status: 'ready' }),
];

function mount({ narrow = false }: { narrow?: boolean } = {}) {
  if (narrow) {
    const style = document.createElement('style');
    style.dataset.testNarrow = '';
    style.textContent = NARROW_RULES;
    document.head.append(style);
  }
  const { store } = renderWithBerth(<ServersView />, {
    prepare: (store) => store.getState().applyServersSnapshot(servers),
  });
  return store;
}

const view = () => document.querySelector<HTMLElement>('.servers-view')!;
const cardButton = (name: string) =>
  document.querySelector<HTMLElement>(`.server-card[data-server="${name}"] .server-card-main`)!;

describe('the Servers view in a narrow window', () => {
  it('starts on the list; choosing a server shows its detail, Back shows the list again', () => {
    const store = mount();
    expect(store.getState().serverPane).toBe('list');
    expect(view().classList).toContain('pane-list');

    fireEvent.click(cardButton('a-server-with-a-long-name'));
    expect(store.getState().serverPane).toBe('detail');
    expect(view().classList).toContain('pane-detail');
    const detail = screen.getByRole('region', { name: 'a-server-with-a-long-name details' });

    fireEvent.click(within(detail).getByRole('button', { name: 'Back to servers' }));
    expect(store.getState().serverPane).toBe('list');
    expect(view().classList).toContain('pane-list');
    // The server stays selected: the list shows where the person came from.
    expect(store.getState().selectedServer).toBe('a-server-with-a-long-name');
  });

  it('Back puts the keyboard focus on the card of the server just shown', () => {
    mount({ narrow: true });
    fireEvent.click(cardButton('a-server-with-a-long-name'));
    fireEvent.click(screen.getByRole('button', { name: 'Back to servers' }));
    expect(document.activeElement).toBe(cardButton('a-server-with-a-long-name'));
  });

  it('a card pressed from the keyboard hides with the list: the focus moves to the detail’s heading, not to the page', () => {
    mount({ narrow: true });
    const card = cardButton('alpha');
    card.focus();
    fireEvent.click(card);
    const heading = screen.getByRole('heading', { name: 'alpha', level: 2 });
    expect(document.activeElement).toBe(heading);
  });

  it('in a wide window (both panes shown) the focus stays on the pressed card', () => {
    mount();
    const card = cardButton('alpha');
    card.focus();
    fireEvent.click(card);
    expect(document.activeElement).toBe(card);
  });

  it('choosing a server from elsewhere (the sidebar, a toast) opens its detail; choosing none returns to the list', () => {
    const store = mount();
    store.getState().showView('chat');
    store.getState().selectServer('alpha');
    expect(store.getState()).toMatchObject({ view: 'servers', selectedServer: 'alpha', serverPane: 'detail' });
    store.getState().selectServer(undefined);
    expect(store.getState().serverPane).toBe('list');
  });
});
