// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../../shared/result';
import { createFakeTransport, serverState } from '../../test-support/fake-transport';
import { ServerFormDialog } from './server-form-dialog';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

function mount(options: { policies?: boolean; folders?: boolean } = {}) {
  const transport = createFakeTransport({ 'servers.update': ({ name }) => ok(serverState(name)) });
  const { store } = renderWithBerth(<ServerFormDialog />, {
    transport,
    prepare: (store) => {
      store.getState().applyServersSnapshot([serverState('files')]);
      if (options.policies !== false)
        store
          .getState()
          .applyConsentPolicies([{ id: 'p1', scope: 'tool', server: 'files', tool: 'write', createdAt: 1 }]);
      if (options.folders === true)
        store
          .getState()
          .applyRootsView({ roots: [], exposure: {}, consent: { files: { allowed: ['r1', 'r2'], denied: [] } } });
    },
  });
  act(() => store.getState().openServerForm({ mode: 'edit', name: 'files' }));
  const updates = () =>
    transport.calls.filter((c) => c.method === 'servers.update').map((c) => c.input as Record<string, unknown>);
  return { updates };
}

describe('editing a server that holds approvals', () => {
  it('a new command asks whether to keep them; "Revoke and ask again" is the primary answer', async () => {
    const { updates } = mount({ folders: true });
    fireEvent.change(await screen.findByLabelText('Command'), { target: { value: 'python3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const question = await screen.findByRole('alertdialog', { name: 'Keep what you approved for “files”?' });
    expect(
      within(question)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['1 tool permission', 'access to 2 folders']);
    expect(within(question).getByRole('button', { name: 'Revoke and ask again' }).className).toContain('primary');
    expect(updates()).toEqual([]);

    fireEvent.click(within(question).getByRole('button', { name: 'Back to editing' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(updates()).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Keep approvals' }));
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]).toMatchObject({ name: 'files', approvals: 'keep', config: { command: 'python3' } });
  });

  it('revoking is sent as such', async () => {
    const { updates } = mount();
    fireEvent.change(await screen.findByLabelText('Working directory'), { target: { value: '/srv/elsewhere' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke and ask again' }),
    );
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]).toMatchObject({ approvals: 'revoke', config: { cwd: '/srv/elsewhere' } });
  });

  it('no question when the command stays the same, or when nothing was approved', async () => {
    const { updates } = mount();
    fireEvent.change(await screen.findByLabelText('Working directory'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]?.approvals).toBeUndefined();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    cleanup();

    const second = mount({ policies: false });
    fireEvent.change(await screen.findByLabelText('Command'), { target: { value: 'python3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(second.updates()).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
