// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PendingCounts, PendingRequest } from '../../../shared/domain/pending';
import { ok } from '../../../shared/result';
import { countPending } from '../../store/pending-slice';
import { createFakeTransport } from '../../test-support/fake-transport';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { PendingDialogs } from './pending-dialogs';
import { PendingTray } from './pending-tray';
import { renderWithBerth } from '../../test-support/render-with-berth';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

function call(id: string, tool: string, args: Record<string, string>, conversationId = 'c1'): PendingRequest {
  return {
    id,
    kind: 'tool-call',
    server: 'everything',
    conversationId,
    toolUseId: `tu-${id}`,
    createdAt: Date.now() - 1_000,
    payload: { server: 'everything', serverTrusted: false, tool, annotationsTrusted: false, arguments: args },
  };
}

const question: PendingRequest = {
  id: 'q',
  kind: 'elicitation',
  server: 'forms',
  createdAt: Date.now() - 2_000,
  payload: {
    mode: 'form',
    message: 'Which branch?',
    fields: [{ kind: 'string', name: 'branch', label: 'Branch', required: true }],
  },
};

function setup(list: PendingRequest[]) {
  const transport = createFakeTransport();
  const answered: { id: string; response: unknown }[] = [];
  transport.handlers['pending.answer'] = ({ id, response }) => {
    answered.push({ id, response });
    return ok({ answered: id });
  };
  const { store } = renderWithBerth(
    <>
      <PendingTray />
      <PendingDialogs />
    </>,
    {
      transport,
      prepare: (store) => {
        store.getState().applyPendingSnapshot(list);
        for (const request of list) store.getState().deferPending(request.id);
      },
    },
  );
  return { store, answered };
}

const countsOf = (list: PendingRequest[]): PendingCounts => countPending(list);

describe('the review list in the tray', () => {
  it('lists each waiting tool call with its arguments, keeps other kinds one by one', async () => {
    setup([call('a', 'echo', { message: 'one' }), call('b', 'get-sum', { a: '1', b: '2' }), question]);
    fireEvent.click(screen.getByTestId('pending-tray'));
    const review = await screen.findByRole('region', { name: 'Tool calls to review' });
    const args = within(review)
      .getAllByTestId('review-args')
      .map((el) => el.textContent);
    expect(args).toEqual(['{"message":"one"}', '{"a":"1","b":"2"}']);
    expect(within(review).getByRole('button', { name: 'Allow all 2' })).toBeTruthy();
    const others = screen.getByRole('list', { name: 'Other waiting requests' });
    expect(within(others).getAllByRole('button')).toHaveLength(1);
    expect(others.textContent).toContain('Which branch?');
  });

  it('"Allow all N" allows only the calls listed when the tray opened, each through its own answer', async () => {
    const first = [call('a', 'echo', { message: 'one' }), call('b', 'echo', { message: 'two' })];
    const { store, answered } = setup(first);
    fireEvent.click(screen.getByTestId('pending-tray'));
    await screen.findByRole('region', { name: 'Tool calls to review' });
    // A third call arrives while the list is shown (its own dialog put aside, as the others').
    const late = call('c', 'echo', { message: 'late' });
    act(() => {
      store
        .getState()
        .applyPendingChange({ change: { type: 'opened', request: late }, counts: countsOf([...first, late]) });
      store.getState().deferPending('c');
    });
    const lateRow = await screen.findByTestId('late-call');
    expect(lateRow.textContent).toContain('not in “Allow all”');
    fireEvent.click(screen.getByRole('button', { name: 'Allow all 2' }));
    await waitFor(() => expect(answered).toHaveLength(2));
    expect(answered).toEqual([
      { id: 'a', response: { decision: 'allow-once' } },
      { id: 'b', response: { decision: 'allow-once' } },
    ]);
    await waitFor(() => expect(store.getState().pending.map((r) => r.id)).toEqual(['c']));
  });

  it('"Deny all" denies every listed call and nothing else', async () => {
    const { store, answered } = setup([
      call('a', 'echo', { message: 'one' }),
      call('b', 'echo', { message: 'two' }),
      call('c', 'echo', { message: 'three' }),
      question,
    ]);
    fireEvent.click(screen.getByTestId('pending-tray'));
    await screen.findByRole('region', { name: 'Tool calls to review' });
    fireEvent.click(screen.getByRole('button', { name: 'Deny all' }));
    await waitFor(() => expect(answered).toHaveLength(3));
    expect(answered.map((a) => a.response)).toEqual([{ decision: 'deny' }, { decision: 'deny' }, { decision: 'deny' }]);
    await waitFor(() => expect(store.getState().pending.map((r) => r.id)).toEqual(['q']));
  });

  it('opens one call on its own from the list', async () => {
    setup([call('a', 'echo', { message: 'one' }), call('b', 'echo', { message: 'two' })]);
    fireEvent.click(screen.getByTestId('pending-tray'));
    const review = await screen.findByRole('region', { name: 'Tool calls to review' });
    fireEvent.click(within(review).getAllByRole('button')[1]!);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() =>
      expect((within(dialog).getByRole('textbox', { name: /Arguments/ }) as HTMLTextAreaElement).value).toContain(
        'two',
      ),
    );
  });

  it('shows no review list for a single tool call', async () => {
    setup([call('a', 'echo', { message: 'one' }), question]);
    fireEvent.click(screen.getByTestId('pending-tray'));
    await screen.findByRole('list', { name: 'Waiting requests' });
    expect(screen.queryByRole('region', { name: 'Tool calls to review' })).toBeNull();
  });
});

describe('the consent dialog', () => {
  it('shows the other calls of the same turn that wait, and opens one', async () => {
    const { store } = setup([
      call('a', 'echo', { message: 'one' }),
      call('b', 'get-sum', { a: '1' }),
      call('x', 'echo', { message: 'elsewhere' }, 'c2'),
    ]);
    act(() => store.getState().focusPending('a'));
    const dialog = await screen.findByRole('dialog');
    const turn = await within(dialog).findByTestId('turn-calls');
    expect(turn.textContent).toContain('1 other call of this turn is waiting');
    expect(turn.textContent).toContain('get-sum');
    expect(turn.textContent).toContain('{"a":"1"}');
    expect(turn.textContent).not.toContain('elsewhere');
    fireEvent.click(within(turn).getByRole('button', { name: /get-sum/ }));
    await waitFor(() => expect(store.getState().focusedPending).toBe('b'));
  });

  it('"Review all N together" puts the calls of the turn aside and opens them in the review list of the tray', async () => {
    const { store } = setup([call('a', 'echo', { message: 'one' }), call('b', 'get-sum', { a: '1' })]);
    act(() => store.getState().focusPending('a'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review all 2 together' }));
    const review = await screen.findByRole('region', { name: 'Tool calls to review' });
    expect(within(review).getByRole('button', { name: 'Allow all 2' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /to run\?/ })).toBeNull());
    expect(store.getState().pending).toHaveLength(2);
  });
});
