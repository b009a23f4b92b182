// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PendingRequest } from '../../../shared/domain/pending';
import { ok } from '../../../shared/result';
import { countPending } from '../../store';
import { PendingDialogs } from './pending-dialogs';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';

// The consent dialogs from the keyboard: where the focus starts, what Enter does in the reason
// field, and where the focus goes back when the dialog closes.

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

const TOOL_CALL: PendingRequest = {
  id: 'p1',
  kind: 'tool-call',
  server: 'everything',
  createdAt: 1,
  toolUseId: 'tu1',
  payload: {
    server: 'everything',
    serverTrusted: false,
    tool: 'echo',
    description: 'Echoes back the input string',
    annotationsTrusted: false,
    arguments: { message: 'hello' },
  },
};

const SAMPLING: PendingRequest = {
  id: 's1',
  kind: 'sampling',
  server: 'everything',
  createdAt: 1,
  payload: {
    request: { messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }], maxTokens: 100 },
    model: { id: 'smart', label: 'Smart model' },
    explanation: 'The server prefers intelligence.',
    models: [{ id: 'smart', label: 'Smart model' }],
    defaultModel: { id: 'smart', label: 'Smart model' },
    tokens: { requested: 100, proposed: 100, limits: { maxTokens: 4_096, sessionBudget: 100_000 }, used: 0 },
  },
};

/**
 * The dialogs beside what the page around them holds: a message box the person types in, the
 * tool card whose Review reopens the request, and the tray. The fake host removes an answered
 * request, as the real one does.
 */
function mount(requests: PendingRequest[], { typing = true }: { typing?: boolean } = {}) {
  const { store, transport } = renderWithBerth(
    <>
      <textarea aria-label="Message" />
      <div data-tool-use="tu1" tabIndex={-1}>
        <div className="tool-call-head">
          <button type="button">Review</button>
        </div>
      </div>
      <button type="button" data-testid="pending-tray">
        Waiting
      </button>
      <PendingDialogs />
    </>,
  );
  // The person is typing when the request arrives: the dialog must not take their place for good.
  if (typing) screen.getByRole('textbox', { name: 'Message' }).focus();
  act(() => store.getState().applyPendingSnapshot(requests));
  transport.handlers['pending.answer'] = ({ id }) => {
    const rest = store.getState().pending.filter((r) => r.id !== id);
    act(() =>
      store
        .getState()
        .applyPendingChange({ change: { type: 'answered', id, kind: 'tool-call' }, counts: countPending(rest) }),
    );
    return ok({ answered: id });
  };
  const answers = () => transport.calls.filter((c) => c.method === 'pending.answer').map((c) => c.input);
  return { store, answers };
}

describe('consent dialogs from the keyboard', () => {
  it('a new consent dialog starts on Deny, not on the dialog itself; so does the next one after an answer', async () => {
    mount([TOOL_CALL, { ...TOOL_CALL, id: 'p2', createdAt: 2 }]);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Deny' })));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Allow once' }));
    await waitFor(() => expect(screen.getByRole('dialog').textContent).not.toContain('1 more waiting'));
    await waitFor(() =>
      expect(document.activeElement).toBe(within(screen.getByRole('dialog')).getByRole('button', { name: 'Deny' })),
    );
  });

  it('Enter in the reason field denies with that reason (not while an input method composes)', async () => {
    const { answers } = mount([TOOL_CALL]);
    const reason = within(await screen.findByRole('dialog')).getByLabelText(/Reason if you deny/);
    fireEvent.change(reason, { target: { value: 'not now' } });
    fireEvent.keyDown(reason, { key: 'Enter', isComposing: true, keyCode: 229 });
    fireEvent.keyDown(reason, { key: 'Enter', shiftKey: true });
    expect(answers()).toEqual([]);
    fireEvent.keyDown(reason, { key: 'Enter' });
    await waitFor(() => expect(answers()).toEqual([{ id: 'p1', response: { decision: 'deny', reason: 'not now' } }]));
  });

  it('Enter in a sampling review’s reason field rejects with that reason', async () => {
    const { answers } = mount([SAMPLING]);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Reject' })));
    const reason = within(dialog).getByLabelText(/Reason if you reject/);
    fireEvent.change(reason, { target: { value: 'too long' } });
    fireEvent.keyDown(reason, { key: 'Enter' });
    await waitFor(() =>
      expect(answers()).toEqual([{ id: 's1', response: { decision: 'reject', reason: 'too long' } }]),
    );
  });

  it('Escape gives the focus back to where the person was typing', async () => {
    const { store } = mount([TOOL_CALL]);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Deny' })));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(store.getState().pending).toHaveLength(1);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
  });

  it('when nothing had the focus, Escape leaves it on the call’s Review, never on the page’s body', async () => {
    mount([TOOL_CALL], { typing: false });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Deny' })));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Review' }));
  });

  it('a request of no tool call goes back to the tray', async () => {
    mount([SAMPLING], { typing: false });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Reject' })));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByTestId('pending-tray'));
  });
});
