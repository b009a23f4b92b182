// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/domain/chat';
import { STOPPED_TOOL_TEXT } from '../../../shared/domain/chat-text';
import type { PendingRequest } from '../../../shared/domain/pending';
import type { TaskRecord } from '../../../shared/domain/task';
import { ok } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { countPending } from '../../store';
import { useMountedAppEnvironment } from '../../test-support/mounted-app';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';
import { shellHandlers } from '../../test-support/shell-handlers';

useMountedAppEnvironment();

const base = { conversationId: 'c1', turnId: 't1' };
const MESSAGES: ChatMessage[] = [
  { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Research tides' }] },
  {
    id: 'a1',
    role: 'assistant',
    createdAt: 2,
    content: [
      {
        type: 'tool_use',
        id: 'tu1',
        server: 'everything',
        tool: 'simulate-research-query',
        apiName: 'everything__simulate-research-query',
        input: { topic: 'tides' },
      },
    ],
  },
];
const RECORD: TaskRecord = {
  id: 'task-1',
  taskId: 'srv-1',
  server: 'everything',
  side: 'requester',
  kind: 'tool',
  tool: 'simulate-research-query',
  conversationId: 'c1',
  toolUseId: 'tu1',
  status: 'working',
  statusMessage: 'Reading sources',
  createdAt: Date.now() - 5_000,
  updatedAt: Date.now() - 5_000,
};

const QUESTION: PendingRequest = {
  id: 'p-7',
  kind: 'elicitation',
  server: 'everything',
  conversationId: 'c1',
  toolUseId: 'tu1',
  createdAt: 3,
  payload: {
    mode: 'form',
    message: 'Which tides?',
    fields: [{ kind: 'string', name: 'tides', label: 'Tides', required: true }],
  },
};

function mount(tasks: TaskRecord[] = [], messages: ChatMessage[] = MESSAGES) {
  return renderAppWithBerth({
    handlers: {
      ...shellHandlers(),
      'chat.list': () =>
        ok([{ id: 'c1', title: 'Tides', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: 2 }]),
      'chat.get': () =>
        ok({
          id: 'c1',
          title: 'Tides',
          createdAt: 1,
          updatedAt: 2,
          model: 'claude-a',
          messages,
          disabledServers: [],
          disabledTools: [],
        }),
      'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
      'tasks.list': () => ok(tasks),
      'tasks.setWindowVisible': () => ok({}),
      'tasks.cancel': () => ok({ status: 'cancelled' }),
    },
    prepare: (store) => store.getState().showView('chat'),
  });
}

async function findCard(): Promise<HTMLElement> {
  // Generous: the first test pays for the app's first render on a busy machine.
  return screen.findByRole('article', { name: 'Call of simulate-research-query' }, { timeout: 5_000 });
}

describe('a tool card’s task', () => {
  it('shows the task’s status and message next to the progress, cancels only that task, and links to the Tasks view', async () => {
    const { transport, store } = mount([RECORD]);
    await findCard();
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 1 });
      transport.emit('chat.event', {
        type: 'tool-call-started',
        ...base,
        toolUseId: 'tu1',
        server: 'everything',
        tool: 'simulate-research-query',
        input: { topic: 'tides' },
      });
      transport.emit('chat.event', {
        type: 'tool-task',
        ...base,
        toolUseId: 'tu1',
        taskId: 'task-1',
        status: 'working',
        statusMessage: 'Searching 3 of 5 sources',
      });
    });
    const card = await findCard();
    // The task line says what it does; the progress line does not add a "Working…" of its own.
    expect(await within(card).findByText('Searching 3 of 5 sources')).toBeTruthy();
    expect(within(card).queryByText('Working…')).toBeNull();
    act(() =>
      transport.emit('chat.event', { type: 'tool-progress', ...base, toolUseId: 'tu1', progress: 3, total: 5 }),
    );
    expect(within(card).getByText('Working')).toBeTruthy();
    expect(within(card).getByText('Searching 3 of 5 sources')).toBeTruthy();
    expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60');
    // The turn's Stop stays; the task's own cancel is a different button.
    expect(within(card).getByRole('button', { name: 'Stop' })).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel task' }));
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'tasks.cancel').map((c) => c.input)).toEqual([
        { id: 'task-1' },
      ]),
    );
    expect(transport.calls.some((c) => c.method === 'chat.stop')).toBe(false);

    act(() =>
      transport.emit('chat.event', {
        type: 'tool-task',
        ...base,
        toolUseId: 'tu1',
        taskId: 'task-1',
        status: 'cancelled',
        statusMessage: 'cancelled by you',
      }),
    );
    expect(within(card).getByText('Cancelled')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Cancel task' })).toBeNull();
    // The model reads an error result; the person reads that the task was cancelled, not that the tool reported an error.
    const text = "the task of tool 'simulate-research-query' on server 'everything' was cancelled (cancelled by you)";
    act(() =>
      transport.emit('chat.event', {
        type: 'tool-call-finished',
        ...base,
        toolUseId: 'tu1',
        isError: true,
        denied: false,
        result: { type: 'tool_result', toolUseId: 'tu1', content: [{ type: 'text', text }], isError: true },
      }),
    );
    expect(await within(card).findByText('Its task was cancelled before it finished.')).toBeTruthy();
    expect(within(card).queryByText('The tool reported an error')).toBeNull();
    expect(within(card).queryByText('Error')).toBeNull();
    expect(within(card).getAllByText('Cancelled')).toHaveLength(2);

    fireEvent.click(within(card).getByRole('button', { name: 'Open in Tasks' }));
    const row = await screen.findByRole(
      'listitem',
      { name: 'simulate-research-query on everything' },
      { timeout: 5_000 },
    );
    await waitFor(() => expect(document.activeElement).toBe(row), { timeout: 5_000 });
    expect(store.getState().taskFocus).toBeUndefined();
  });

  it('says the call waits for the person’s answer (not “Running”) and opens the question', async () => {
    const { transport, store } = mount();
    // Found before the question opens: its dialog then hides the rest of the window from the accessibility tree.
    const card = await findCard();
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 1 });
      transport.emit('chat.event', {
        type: 'tool-call-started',
        ...base,
        toolUseId: 'tu1',
        server: 'everything',
        tool: 'simulate-research-query',
        input: {},
      });
      transport.emit('pending.changed', {
        change: { type: 'opened', request: QUESTION },
        counts: countPending([QUESTION]),
      });
      transport.emit('chat.event', { type: 'tool-call-waiting', ...base, toolUseId: 'tu1', pendingId: 'p-7' });
    });
    expect(within(card).getByText('Waiting for your answer')).toBeTruthy();
    expect(within(card).queryByText('Running')).toBeNull();
    // The question's dialog is open (and the card behind it hidden from the accessibility tree): Answer is still the way back to it.
    fireEvent.click(within(card).getByRole('button', { name: 'Answer', hidden: true }));
    expect(store.getState().focusedPending).toBe('p-7');

    act(() => {
      transport.emit('pending.changed', {
        change: { type: 'answered', id: 'p-7', kind: 'elicitation' },
        counts: countPending([]),
      });
      transport.emit('chat.event', { type: 'tool-call-waiting', ...base, toolUseId: 'tu1', pendingId: null });
    });
    expect(within(card).getByText('Running')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Answer', hidden: true })).toBeNull();
  });

  it('has one Answer when the live call and its task record both name the waiting question', async () => {
    // server-everything's research task in input_required: the host ties its question to the call and the task record names it too.
    const { transport, store } = mount([
      { ...RECORD, status: 'input_required', statusMessage: 'Which tides?', waitingFor: 'p-7' },
    ]);
    const card = await findCard();
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 1 });
      transport.emit('chat.event', {
        type: 'tool-call-started',
        ...base,
        toolUseId: 'tu1',
        server: 'everything',
        tool: 'simulate-research-query',
        input: {},
      });
      transport.emit('chat.event', {
        type: 'tool-task',
        ...base,
        toolUseId: 'tu1',
        taskId: 'task-1',
        status: 'input_required',
        statusMessage: 'Which tides?',
      });
      transport.emit('pending.changed', {
        change: { type: 'opened', request: QUESTION },
        counts: countPending([QUESTION]),
      });
      transport.emit('chat.event', { type: 'tool-call-waiting', ...base, toolUseId: 'tu1', pendingId: 'p-7' });
    });
    expect(await within(card).findByText('Needs your answer')).toBeTruthy();
    expect(within(card).getByText('Waiting for your answer')).toBeTruthy();
    const answers = within(card).getAllByRole('button', { name: 'Answer', hidden: true });
    expect(answers).toHaveLength(1);
    fireEvent.click(answers[0]!);
    expect(store.getState().focusedPending).toBe('p-7');
  });

  it('still shows the task after a reload, from the task list', async () => {
    const { store } = mount([
      { ...RECORD, status: 'input_required', statusMessage: 'Which tides: ocean or lake?', waitingFor: 'p-3' },
    ]);
    const card = await findCard();
    expect(await within(card).findByText('Needs your answer')).toBeTruthy();
    expect(within(card).getByText('Which tides: ocean or lake?')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Cancel task' })).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Answer' }));
    expect(store.getState().focusedPending).toBe('p-3');
  });

  it('still says a cancelled task was cancelled after a reload, once the task has left the Tasks view', async () => {
    const text = "the task of tool 'simulate-research-query' on server 'everything' was cancelled (cancelled by you)";
    const saved: ChatMessage = {
      id: 'u2',
      role: 'user',
      createdAt: 3,
      content: [
        {
          type: 'tool_result',
          toolUseId: 'tu1',
          content: [{ type: 'text', text }],
          isError: true,
          taskCancelled: true,
        },
      ],
    };
    mount([], [...MESSAGES, saved]);
    const card = await findCard();
    expect(await within(card).findByText('Its task was cancelled before it finished.')).toBeTruthy();
    expect(within(card).getByText('Cancelled')).toBeTruthy();
    expect(within(card).queryByText('Error')).toBeNull();
  });

  it('says a task its server purged expired — not “Failed” with its stale “working…”', async () => {
    const text =
      "the task of tool 'simulate-research-query' on server 'everything' expired — it is no longer on the server";
    const saved: ChatMessage = {
      id: 'u2',
      role: 'user',
      createdAt: 3,
      content: [{ type: 'tool_result', toolUseId: 'tu1', content: [{ type: 'text', text }], isError: true }],
    };
    mount(
      [{ ...RECORD, status: 'lost', expired: true, statusMessage: 'expired — no longer on the server' }],
      [...MESSAGES, saved],
    );
    const card = await findCard();
    const line = await within(card).findByRole('group', { name: 'Task' });
    expect(within(line).getByText('Expired')).toBeTruthy();
    expect(line.textContent).toContain('expired — no longer on the server');
    expect(card.textContent).not.toMatch(/Failed|Lost|working…/);
    expect(within(card).queryByText('Error')).toBeNull();
  });

  describe('a call whose task ran when Berth quit (its result reads “stopped”)', () => {
    const stopped: ChatMessage = {
      id: 'u2',
      role: 'user',
      createdAt: 3,
      content: [
        { type: 'tool_result', toolUseId: 'tu1', content: [{ type: 'text', text: STOPPED_TOOL_TEXT }], isError: true },
      ],
    };

    it('says the task was lost when Berth quit, not “You stopped this call”', async () => {
      mount(
        [{ ...RECORD, status: 'lost', berthQuit: true, statusMessage: "the server's process ended when Berth quit" }],
        [...MESSAGES, stopped],
      );
      const card = await findCard();
      expect(await within(card).findByText('Berth quit while this call’s task ran.')).toBeTruthy();
      expect(card.textContent).toContain('The task was lost with it');
      expect(card.textContent).toContain("the server's process ended when Berth quit");
      expect(within(card).getByText('Berth quit')).toBeTruthy();
      expect(card.textContent).not.toContain('You stopped this call');
      expect(within(card).queryByText('Stopped by you')).toBeNull();
    });

    it('words Berth’s own reason from its code in the person’s language', async () => {
      try {
        mount(
          [
            {
              ...RECORD,
              status: 'lost',
              berthQuit: true,
              statusMessage: "the server's process ended when Berth quit",
              statusWording: { code: 'task-errors.status-process-ended', params: {} },
            },
          ],
          [...MESSAGES, stopped],
        );
        const card = await findCard();
        // The Language setting changed while the card is on screen: it words the reason again, live.
        await act(() => activateLocale('ko'));
        const line = await within(card).findByRole('group', { name: '작업' });
        expect(line.textContent).toContain('Berth가 종료될 때 서버 프로세스도 끝났습니다');
        expect(card.textContent).not.toContain("the server's process ended");
      } finally {
        await act(() => activateLocale('en'));
      }
    });

    it('says the task is being followed again where it is', async () => {
      mount([{ ...RECORD, berthQuit: true }], [...MESSAGES, stopped]);
      const card = await findCard();
      expect(await within(card).findByText('Berth quit while this call’s task ran.')).toBeTruthy();
      expect(card.textContent).toContain('It is being followed again');
      expect(within(card).getByRole('button', { name: 'Cancel task' })).toBeTruthy();
    });

    it('still says “You stopped this call” when the person stopped it', async () => {
      mount([{ ...RECORD, status: 'cancelled', statusMessage: 'stopped by you' }], [...MESSAGES, stopped]);
      const card = await findCard();
      expect(await within(card).findByText('You stopped this call before it finished.')).toBeTruthy();
      expect(card.textContent).not.toContain('Berth quit');
    });
  });
});
