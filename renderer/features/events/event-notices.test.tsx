// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxEntry } from '../../../shared/domain/mcp-events';
import { ok } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { createFakeTransport } from '../../test-support/fake-transport';
import { useMountedAppEnvironment } from '../../test-support/mounted-app';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';

useMountedAppEnvironment();
afterEach(async () => {
  cleanup();
  await act(() => activateLocale('en'));
});

const LATEST: InboxEntry = {
  id: 'i3',
  subscriptionId: 's1',
  server: 'ci',
  event: 'build.finished',
  eventId: 'e3',
  timestamp: '2026-12-07T10:00:00Z',
  receivedAt: Date.UTC(2026, 11, 7, 10),
  data: { branch: 'main' },
  read: false,
};

function mount() {
  const entries: InboxEntry[] = [];
  const transport = createFakeTransport({
    'app.info': () =>
      ok({ version: '0', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
    'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
    'servers.list': () => ok([]),
    'logs.query': () => ok({ entries: [], dropped: 0 }),
    'pending.list': () => ok([]),
    'chat.list': () => ok([]),
    'tasks.list': () => ok([]),
    'events.catalog': () => ok({ servers: [], subscriptions: [] }),
    'events.inbox': () => ok({ entries, unread: entries.filter((e) => !e.read).length }),
  });
  const app = renderAppWithBerth({ transport });
  return { ...app, entries };
}

/** The Inbox's entry in the sidebar, by its name in the active language. */
const inboxNav = (name = 'Inbox') =>
  within(document.querySelector<HTMLElement>('.sidebar nav')!).getByRole('button', { name: new RegExp(`^${name}`) });

describe('event notices', () => {
  it('keeps the unread count live, shows a notice as a toast that opens the Inbox, and re-words both on a language switch', async () => {
    const { transport, store, entries } = mount();
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'events.inbox')).toBe(true), {
      timeout: 5_000,
    });
    expect(inboxNav().querySelector('.nav-count')).toBeNull();

    entries.push(LATEST, { ...LATEST, id: 'i2', eventId: 'e2' }, { ...LATEST, id: 'i1', eventId: 'e1' });
    act(() => transport.emit('events.inboxChanged', { unread: 3 }));
    expect(inboxNav().querySelector('.nav-count')?.textContent).toBe('3 unread');

    act(() =>
      transport.emit('events.notice', {
        subscriptionId: 's1',
        server: 'ci',
        event: 'build.finished',
        count: 3,
        latest: LATEST,
      }),
    );
    // Other toasts (the snapshots this fake host does not answer) may be there too: the notice is the newest.
    const toast = () => [...document.querySelectorAll('.toast')].at(-1);
    await waitFor(() =>
      expect(toast()?.querySelector('.toast-title')?.textContent).toBe('3 new events: build.finished on ci'),
    );

    await act(() => activateLocale('ja'));
    expect(toast()?.querySelector('.toast-title')?.textContent).toBe('新しいイベント 3 件: ci の build.finished');
    expect(inboxNav('受信箱').querySelector('.nav-count')?.textContent).toBe('3 未読');

    fireEvent.click(within(toast() as HTMLElement).getByRole('button', { name: '受信箱を開く' }));
    expect(store.getState().view).toBe('inbox');
    const list = await screen.findByRole('list', { name: 'イベント' }, { timeout: 5_000 });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'すべて既読にする' })).toBeTruthy();
  });
});
