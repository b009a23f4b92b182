// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PendingRequest } from '../../../shared/domain/pending';
import { berthHost, renderWithBerth } from '../../test-support/render-with-berth';
import { PendingDialogs } from './pending-dialogs';
import { PendingTray } from './pending-tray';
import { stubResizeObserver } from '../../test-support/dom-stubs';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

const requests: PendingRequest[] = [
  {
    id: 'a',
    kind: 'tool-call',
    server: 'files',
    conversationId: 'c1',
    createdAt: Date.now() - 90_000,
    payload: { server: 'files', serverTrusted: false, tool: 'write_file', annotationsTrusted: false, arguments: {} },
  },
  {
    id: 'b',
    kind: 'elicitation',
    server: 'forms',
    createdAt: Date.now() - 5_000,
    payload: {
      mode: 'form',
      message: 'Which branch?',
      fields: [{ kind: 'string', name: 'branch', label: 'Branch', required: true }],
    },
  },
];

describe('<PendingTray>', () => {
  it('counts waiting requests per kind and opens the one picked', async () => {
    const { store, transport } = berthHost({});
    store
      .getState()
      .applyConversationsChanged([
        { id: 'c1', title: 'Refactor', createdAt: 1, updatedAt: 1, model: 'm', messageCount: 3 },
      ]);
    store.getState().applyPendingSnapshot(requests);
    // Both put aside: nothing opens until one is picked.
    store.getState().deferPending('a');
    store.getState().deferPending('b');
    renderWithBerth(
      <>
        <PendingTray />
        <PendingDialogs />
      </>,
      { store, transport },
    );
    const tray = screen.getByTestId('pending-tray');
    expect(tray.getAttribute('aria-label')).toBe('Requests: 1 tool call, 1 question waiting');
    expect(tray.textContent).toContain('2');
    fireEvent.click(tray);
    const list = await screen.findByRole('list', { name: 'Waiting requests' });
    const items = within(list).getAllByRole('button');
    expect(items[0]!.textContent).toContain('Run write_file');
    expect(items[0]!.textContent).toContain('in Refactor');
    expect(items[0]!.textContent).toContain('1 min');
    expect(items[1]!.textContent).toContain('Which branch?');
    fireEvent.click(items[1]!);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() =>
      expect(within(dialog).getByRole('heading', { name: '“forms” asks for information' })).toBeTruthy(),
    );
  });

  it('does not render again when the conversation list changes while it is closed, and shows the new title when opened', async () => {
    const { store, transport } = berthHost({});
    const summary = (id: string, title: string, updatedAt: number) => ({
      id,
      title,
      createdAt: 1,
      updatedAt,
      model: 'm',
      messageCount: 0,
    });
    store
      .getState()
      .applyConversationsChanged(
        Array.from({ length: 100 }, (_, index) => summary(`c${index}`, `Chat ${index}`, 1_000 - index)),
      );
    store.getState().applyPendingSnapshot(requests);
    let renders = 0;
    renderWithBerth(
      <Profiler id="tray" onRender={() => (renders += 1)}>
        <PendingTray />
      </Profiler>,
      { store, transport },
    );
    const before = renders;
    // What each message sent brings: a delta for its conversation.
    act(() => store.getState().applyConversationsDelta({ changed: [summary('c50', 'Chat 50', 2_000)], removed: [] }));
    act(() =>
      store.getState().applyConversationsDelta({ changed: [summary('c1', 'Renamed one', 1_000)], removed: [] }),
    );
    expect(renders).toBe(before);
    fireEvent.click(screen.getByTestId('pending-tray'));
    const list = await screen.findByRole('list', { name: 'Waiting requests' });
    expect(within(list).getAllByRole('button')[0]!.textContent).toContain('in Renamed one');
  });
});
