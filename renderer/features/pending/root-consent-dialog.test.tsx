// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PendingRequest } from '../../../shared/domain/pending';
import { ok } from '../../../shared/result';
import { countPending } from '../../store';
import { PendingDialogs } from './pending-dialogs';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';

beforeAll(() => {
  stubResizeObserver();
});
afterEach(cleanup);

const ASK: PendingRequest = {
  id: 'r1',
  kind: 'root-consent',
  server: 'files',
  createdAt: 1,
  payload: {
    roots: [
      { id: 'a', name: 'website', path: '/work/website' },
      { id: 'b', name: 'notes', path: '/work/notes' },
    ],
  },
};

function mount() {
  const { store, transport } = renderWithBerth(<PendingDialogs />, {
    prepare: (store) => store.getState().applyPendingSnapshot([ASK]),
  });
  transport.handlers['pending.answer'] = ({ id }) => {
    const rest = store.getState().pending.filter((r) => r.id !== id);
    act(() =>
      store
        .getState()
        .applyPendingChange({ change: { type: 'answered', id, kind: 'root-consent' }, counts: countPending(rest) }),
    );
    return ok({ answered: id });
  };
  const answers = () => transport.calls.filter((c) => c.method === 'pending.answer').map((c) => c.input);
  return { answers };
}

describe('root consent dialog', () => {
  it('starts with every folder checked and allows only the ones left checked', async () => {
    const { answers } = mount();
    expect(screen.getByRole('heading').textContent).toBe('files wants to see these folders');
    const notes = screen.getByRole<HTMLInputElement>('checkbox', { name: /notes/ });
    expect(notes.checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: /website/ }).checked).toBe(true);
    fireEvent.click(notes);
    fireEvent.click(screen.getByRole('button', { name: 'Allow 1 selected' }));
    await waitFor(() => expect(answers()).toEqual([{ id: 'r1', response: { allow: ['a'] } }]));
  });

  it('cannot allow an empty selection, and Deny all allows nothing', async () => {
    const { answers } = mount();
    for (const box of screen.getAllByRole('checkbox')) fireEvent.click(box);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Allow 0 selected' }).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Deny all' }));
    await waitFor(() => expect(answers()).toEqual([{ id: 'r1', response: { allow: [] } }]));
  });

  it('closing with the X answers nothing: the question waits in the tray', async () => {
    const { answers } = mount();
    fireEvent.click(screen.getByRole('button', { name: 'Close and answer later' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(answers()).toEqual([]);
  });
});
