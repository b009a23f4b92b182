// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerState } from '../../../shared/domain';
import { fail, ok } from '../../../shared/result';
import { connectStore } from '../../store';
import { createFakeTransport, serverState, type FakeHandlers } from '../../test-support/fake-transport';
import { McpContentView } from '../chat/content-blocks';
import { ResourceBrowser } from './resource-browser';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { workspaceError } from '../../../shared/domain/workspace-errors';

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

const READY = serverState('docs', { status: 'ready', readySince: 1, capabilities: { resources: { subscribe: true } } });

function mount(handlers: FakeHandlers, server: ServerState = READY) {
  const transport = createFakeTransport({
    'resources.templates': () => ok({ resourceTemplates: [] }),
    'resources.subscriptions': () => ok({ subscribed: [] }),
    ...handlers,
  });
  const { store } = renderWithBerth(<ResourceBrowser server={server} />, {
    transport,
    prepare: (store) => connectStore(store, transport),
  });
  return { transport, store };
}

describe('resource browser', () => {
  it('loads more pages on request and previews JSON pretty-printed', async () => {
    const { transport } = mount({
      'resources.list': ({ cursor }) =>
        cursor === undefined
          ? ok({ resources: [{ uri: 'note://a', name: 'a', mimeType: 'application/json' }], nextCursor: 'p2' })
          : ok({ resources: [{ uri: 'note://b', name: 'b' }] }),
      'resources.read': ({ uri }) =>
        ok({ contents: [{ kind: 'text' as const, uri, mimeType: 'application/json', text: '{"x":1}' }] }),
    });
    const list = await screen.findByRole('list', { name: 'Resources' });
    await within(list).findByRole('button', { name: /a/ });
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await within(list).findByRole('button', { name: /^b/ });
    expect(within(list).getAllByRole('button')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(transport.calls.filter((call) => call.method === 'resources.list').map((call) => call.input)).toEqual([
      { server: 'docs' },
      { server: 'docs', cursor: 'p2' },
    ]);

    fireEvent.click(within(list).getByRole('button', { name: /^a/ }));
    await waitFor(() => expect(document.querySelector('.resource-text')?.textContent).toBe('{\n  "x": 1\n}'));
  });

  it('shows why a read failed, and offers Subscribe only when the server supports it', async () => {
    mount(
      {
        'resources.list': () => ok({ resources: [{ uri: 'note://a', name: 'a' }] }),
        'resources.read': () =>
          fail('SERVER_ERROR', "server 'docs' answered resources/read note://a with error -32002: Resource not found"),
      },
      serverState('docs', { status: 'ready', readySince: 1, capabilities: { resources: {} } }),
    );
    fireEvent.click(await screen.findByRole('button', { name: /^a/ }));
    expect((await screen.findByRole('alert')).textContent).toContain('Resource not found');
    expect(screen.queryByRole('switch', { name: 'Subscribe to changes' })).toBeNull();
  });

  it("words a refused read from its code, the server's facts in place, and again after a live language switch", async () => {
    await activateLocale('zh-TW');
    const refusal = workspaceError('workspace-errors.resource-too-large', {
      uri: 'note://a',
      server: 'docs',
      size: '12.5',
      max: 10,
    });
    mount({
      'resources.list': () => ok({ resources: [{ uri: 'note://a', name: 'a' }] }),
      'resources.read': () => fail('SERVER_ERROR', refusal.text, undefined, refusal.hostMessage),
    });
    fireEvent.click(await screen.findByRole('button', { name: /^a/ }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '伺服器「docs」上的 note://a 是 12.5 MB 的二進位資料；Berth 最多顯示 10 MB。',
    );
    await act(() => activateLocale('ko'));
    expect(screen.getByRole('alert').textContent).toBe(
      '서버 “docs”의 note://a은(는) 12.5 MB 크기의 바이너리 데이터입니다. Berth는 최대 10 MB까지 표시합니다.',
    );
  });

  it('marks an open subscribed resource as updated until it is read again', async () => {
    let reads = 0;
    const { transport } = mount({
      'resources.list': () => ok({ resources: [{ uri: 'note://a', name: 'a' }] }),
      'resources.read': ({ uri }) => ok({ contents: [{ kind: 'text' as const, uri, text: `read ${++reads}` }] }),
      'resources.subscribe': () => ok({ subscribed: ['note://a'] }),
    });
    fireEvent.click(await screen.findByRole('button', { name: /^a/ }));
    const toggle = await screen.findByRole('switch', { name: 'Subscribe to changes' });
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    transport.emit('resources.updated', { server: 'docs', uri: 'note://a' });
    expect((await screen.findByTestId('resource-updated')).textContent).toBe('Updated');
    fireEvent.click(screen.getByRole('button', { name: 'Re-read' }));
    // The marker clears when the read is asked for; the text arrives with its answer, a moment later.
    await waitFor(() => expect(screen.queryByTestId('resource-updated')).toBeNull());
    await waitFor(() => expect(document.querySelector('.resource-text')?.textContent).toBe('read 2'));
  });

  it('explains an empty tab when the server is not ready', () => {
    mount({}, serverState('docs', { status: 'stopped' }));
    expect(screen.getByText('No resources yet')).toBeTruthy();
  });

  it('a resource link in a tool result opens in the browser of its server', async () => {
    const { store, transport } = mount({
      'resources.list': () => ok({ resources: [{ uri: 'note://a', name: 'a' }] }),
      'resources.read': ({ uri }) => ok({ contents: [{ kind: 'text' as const, uri, text: 'linked' }] }),
    });
    renderWithBerth(
      <McpContentView block={{ type: 'resource_link', uri: 'note://linked', name: 'linked' }} server="docs" />,
      { store, transport },
    );
    store.getState().showView('chat');
    fireEvent.click(screen.getByRole('button', { name: 'Open in resource browser' }));
    expect(store.getState()).toMatchObject({ view: 'servers', selectedServer: 'docs' });
    await waitFor(() =>
      expect(document.querySelector('.resource-viewer')?.getAttribute('data-uri')).toBe('note://linked'),
    );
    expect(store.getState().resourceFocus).toBeUndefined();
  });
});
