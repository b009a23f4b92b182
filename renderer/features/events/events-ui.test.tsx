// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventsCatalog, EventSubscriptionView, InboxEntry } from '../../../shared/domain/mcp-events';
import { ok } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { Toasts } from '../shell/toasts';
import { ServerEvents } from './server-events';
import { InboxView } from './inbox-view';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(async () => {
  cleanup();
  await act(() => activateLocale('en'));
});

const SUB: EventSubscriptionView = {
  id: 's1',
  server: 'ci',
  event: 'build.finished',
  arguments: { branch: 'main' },
  action: 'conversation',
  conversationId: 'c9',
  paused: true,
  createdAt: Date.UTC(2026, 11, 1, 9, 0),
  cursor: 'c-4',
  lastProblem: 'events/poll failed: the server did not answer within 30 s',
  heldBack: 3,
};

function catalog(subscriptions: EventSubscriptionView[] = []): EventsCatalog {
  return {
    servers: [
      {
        server: 'ci',
        refused: 0,
        types: [
          {
            name: 'build.finished',
            title: 'Build finished',
            description: 'A build of a branch ended.',
            delivery: ['poll', 'push', 'webhook'],
            inputSchema: {
              type: 'object',
              properties: { branch: { type: 'string', title: 'Branch' } },
              required: ['branch'],
            },
          },
          { name: 'deploy.hooked', description: 'A deploy hook fired.', delivery: ['webhook'] },
        ],
      },
    ],
    subscriptions,
  };
}

function entry(id: string, receivedAt: number, overrides: Partial<InboxEntry> = {}): InboxEntry {
  return {
    id,
    subscriptionId: 's1',
    server: 'ci',
    event: 'build.finished',
    eventId: `e-${id}`,
    timestamp: new Date(receivedAt).toISOString(),
    receivedAt,
    data: { branch: 'main', status: `status-${id}` },
    read: false,
    ...overrides,
  };
}

describe('the Events tab of a server', () => {
  it('builds the subscribe form from the inputSchema, refuses an empty required field, and sends the action chosen', async () => {
    const { transport } = renderWithBerth(<ServerEvents server="ci" />, {
      handlers: {
        'events.subscribe': (input) =>
          ok({ ...SUB, ...input, id: 's2', paused: false, lastProblem: undefined, heldBack: undefined }),
        'events.catalog': () => ok(catalog()),
      },
      prepare: (store) => store.getState().applyEventsCatalog(catalog()),
    });
    const types = screen.getByRole('region', { name: 'Event types' });
    const build = within(types).getByRole('listitem', { name: 'Build finished' });
    expect(within(build).getByText('A build of a branch ended.')).toBeTruthy();
    expect(within(build).getByText('Delivery: poll, push, webhook')).toBeTruthy();
    expect(within(build).getByText(/Webhook delivery is not offered/)).toBeTruthy();
    // Offered only by webhook: said why, and no Subscribe.
    const hooked = within(types).getByRole('listitem', { name: 'deploy.hooked' });
    expect(within(hooked).getByText(/a desktop app has none, so Berth cannot subscribe to it/)).toBeTruthy();
    expect(within(hooked).queryByRole('button', { name: 'Subscribe…' })).toBeNull();

    fireEvent.click(within(build).getByRole('button', { name: 'Subscribe…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Subscribe to Build finished' });
    expect(within(dialog).getByText(/Events are the server's words, not yours/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Subscribe' }));
    expect(await within(dialog).findByText('Enter a value for Branch: it is required')).toBeTruthy();
    expect(transport.calls.some((call) => call.method === 'events.subscribe')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText(/Branch/), { target: { value: 'main' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Start a conversation/ }));
    expect(within(dialog).getByText(/\{\{event\}\} is replaced by the event's name/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Subscribe' }));
    expect(await within(dialog).findByText('Write what the model should do with the events.')).toBeTruthy();
    expect(transport.calls.some((call) => call.method === 'events.subscribe')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Prompt'), { target: { value: 'Summarise {{count}} builds' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(transport.calls.filter((call) => call.method === 'events.subscribe').map((call) => call.input)).toEqual([
      {
        server: 'ci',
        event: 'build.finished',
        arguments: { branch: 'main' },
        action: 'conversation',
        prompt: 'Summarise {{count}} builds',
      },
    ]);
  });

  it('shows a subscription’s state, resumes it, and removes it only after a confirmation', async () => {
    const { transport } = renderWithBerth(<ServerEvents server="ci" />, {
      handlers: {
        'events.setPaused': ({ paused }) => ok({ ...SUB, paused }),
        'events.unsubscribe': ({ id }) => ok({ removed: id }),
        'events.catalog': () => ok(catalog([SUB])),
      },
      prepare: (store) => store.getState().applyEventsCatalog(catalog([SUB])),
    });
    const row = screen.getByRole('listitem', { name: 'build.finished, Start a conversation' });
    expect(within(row).getByText('Paused')).toBeTruthy();
    expect(within(row).getByText(/Last problem: events\/poll failed/)).toBeTruthy();
    expect(within(row).getByText('3 events held back by the rate limit (kept in the Inbox)')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Open conversation' })).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: 'Resume' }));
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'events.setPaused').map((c) => c.input)).toEqual([
        { id: 's1', paused: false },
      ]),
    );

    fireEvent.click(within(row).getByRole('button', { name: 'Remove' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove the subscription to build.finished?' });
    expect(transport.calls.some((c) => c.method === 'events.unsubscribe')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove subscription' }));
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'events.unsubscribe').map((c) => c.input)).toEqual([
        { id: 's1' },
      ]),
    );
  });
});

describe('the Inbox', () => {
  it('explains what it is and how to subscribe when empty', async () => {
    renderWithBerth(<InboxView />, { handlers: { 'events.inbox': () => ok({ entries: [], unread: 0 }) } });
    expect(await screen.findByRole('heading', { name: 'The Inbox is empty' })).toBeTruthy();
    expect(screen.getByText(/open a server in Servers and choose its Events tab/)).toBeTruthy();
  });

  it('lists events newest first as the server’s words, marks them read, and removes one with Undo', async () => {
    let entries = [entry('a', 1_000, { read: true }), entry('b', 2_000)];
    const big = entry('c', 3_000, { data: { log: 'x'.repeat(5_000) } });
    entries.push(big);
    const { transport, store } = renderWithBerth(
      <>
        <InboxView />
        <Toasts />
      </>,
      {
        handlers: {
          'events.inbox': () => ok({ entries, unread: entries.filter((e) => !e.read).length }),
          'events.markRead': () => {
            entries = entries.map((e) => ({ ...e, read: true }));
            return ok({ unread: 0 });
          },
          'events.removeFromInbox': ({ ids }) => {
            const removed = entries.filter((e) => ids?.includes(e.id));
            entries = entries.filter((e) => !ids?.includes(e.id));
            return ok({ removed });
          },
          'events.restoreToInbox': () => {
            entries = [entry('a', 1_000, { read: true }), entry('b', 2_000, { read: true }), big];
            return ok({ unread: 0 });
          },
        },
      },
    );
    const list = await screen.findByRole('list', { name: 'Events' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('pre')?.textContent?.match(/status-\w|"log"/)?.[0])).toEqual([
      '"log"',
      'status-b',
      'status-a',
    ]);
    // The big one is capped, with "Show all".
    expect(rows[0]!.querySelector('pre')!.textContent!.length).toBeLessThan(2_100);
    fireEvent.click(within(rows[0]!).getByRole('button', { name: /Show all/ }));
    expect(rows[0]!.querySelector('pre')!.textContent).toContain('x'.repeat(5_000));
    expect(screen.getByText('2 unread')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(screen.queryByText('Unread')).toBeNull());
    expect(transport.calls.filter((c) => c.method === 'events.markRead').map((c) => c.input)).toEqual([{}]);
    expect(store.getState().inboxUnread).toBe(0);

    const middle = within(list)
      .getByText(/status-b/)
      .closest('li')!;
    fireEvent.click(within(middle).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(list).queryByText(/status-b/)).toBeNull());
    const toast = await screen.findByText('Event removed from the Inbox');
    fireEvent.click(within(toast.closest('.toast') as HTMLElement).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'events.restoreToInbox').map((c) => c.input)).toEqual([
        { ids: ['b'] },
      ]),
    );
    expect(await within(list).findByText(/status-b/)).toBeTruthy();
  });
});
