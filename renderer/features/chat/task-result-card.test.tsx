// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatTaskResultBlock, Conversation } from '../../../shared/domain/chat';
import type { TaskRecord } from '../../../shared/domain/task';
import { ok } from '../../../shared/result';
import { useMountedAppEnvironment } from '../../test-support/mounted-app';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';
import { shellHandlers } from '../../test-support/shell-handlers';

useMountedAppEnvironment();

const USE = {
  type: 'tool_use' as const,
  id: 'tu1',
  server: 'jobs',
  tool: 'crawl',
  apiName: 'jobs__crawl',
  input: { site: 'example.org' },
};
const STARTED: ChatMessage[] = [
  { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Crawl example.org' }] },
  { id: 'a1', role: 'assistant', createdAt: 2, content: [USE] },
  {
    id: 'r1',
    role: 'user',
    createdAt: 3,
    content: [
      {
        type: 'tool_result',
        toolUseId: 'tu1',
        content: [{ type: 'text', text: 'The task srv-9 started on jobs and runs in the background.' }],
        isError: false,
        backgroundTask: { taskId: 'task-9' },
      },
    ],
  },
  { id: 'a2', role: 'assistant', createdAt: 4, content: [{ type: 'text', text: 'It runs.' }] },
];
const NOTICE: ChatTaskResultBlock = {
  type: 'task_result',
  taskId: 'task-9',
  serverTaskId: 'srv-9',
  server: 'jobs',
  tool: 'crawl',
  toolUseId: 'tu1',
  status: 'completed',
  finishedAt: 5,
  result: {
    type: 'tool_result',
    toolUseId: 'task-task-9',
    content: [{ type: 'text', text: '214 pages crawled\nNo broken links.' }],
    isError: false,
  },
};
const RUNNING: TaskRecord = {
  id: 'task-9',
  taskId: 'srv-9',
  server: 'jobs',
  side: 'requester',
  kind: 'tool',
  tool: 'crawl',
  conversationId: 'c1',
  toolUseId: 'tu1',
  status: 'working',
  createdAt: 1,
  updatedAt: 1,
};

function conversation(messages: ChatMessage[], extra: Partial<Conversation> = {}): Conversation {
  return {
    id: 'c1',
    title: 'Crawl',
    createdAt: 1,
    updatedAt: 2,
    model: 'claude-a',
    messages,
    disabledServers: [],
    disabledTools: [],
    ...extra,
  };
}

function mount(messages: ChatMessage[], tasks: TaskRecord[] = []) {
  return renderAppWithBerth({
    handlers: {
      ...shellHandlers(),
      'chat.list': () =>
        ok([{ id: 'c1', title: 'Crawl', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: 4 }]),
      'chat.get': () => ok(conversation(messages)),
      'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
      'chat.sendTaskResult': () => ok({ accepted: true as const }),
      'chat.setBackgroundTasks': (input) =>
        ok(conversation(messages, { backgroundTasks: (input as { mode: 'tell' | 'continue' }).mode })),
      'tasks.list': () => ok(tasks),
      'tasks.setWindowVisible': () => ok({}),
    },
    prepare: (store) => store.getState().showView('chat'),
  });
}

describe('a background task in the chat', () => {
  it('the call’s card says it runs in the background; its end arrives as a card that sends the result to the model once', async () => {
    const { transport } = mount(STARTED, [RUNNING]);
    const call = await screen.findByRole('article', { name: 'Call of crawl' }, { timeout: 5_000 });
    expect(within(call).getByText('In the background')).toBeTruthy();
    expect(within(call).getByText(/^Runs in the background/)).toBeTruthy();
    expect(await within(call).findByRole('button', { name: 'Cancel task' })).toBeTruthy();

    const message: ChatMessage = { id: 'n1', role: 'user', createdAt: 5, content: [NOTICE] };
    act(() => transport.emit('chat.event', { type: 'task-finished', conversationId: 'c1', message }));
    const card = await screen.findByRole('region', { name: 'Background task of crawl' });
    expect(within(card).getByText('Task finished: crawl')).toBeTruthy();
    expect(within(card).getByText('— 214 pages crawled')).toBeTruthy();
    expect(within(card).getByText('Completed')).toBeTruthy();
    // The whole result is one click away, not in the way.
    expect(within(card).queryByText(/No broken links/)).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: 'Show the result' }));
    expect(within(card).getByText(/No broken links/)).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Send to the model' }));
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'chat.sendTaskResult').map((c) => c.input)).toEqual([
        { id: 'c1', taskId: 'task-9' },
      ]),
    );
    // The copy the host saves for the model turns the button into a note: it cannot be sent twice.
    const sent: ChatMessage = { id: 'n2', role: 'user', createdAt: 6, content: [{ ...NOTICE, forModel: true }] };
    act(() =>
      transport.emit('chat.event', { type: 'message-saved', conversationId: 'c1', turnId: 't2', message: sent }),
    );
    expect(await within(card).findByText('Sent to the model')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Send to the model' })).toBeNull();
    expect(screen.getByText('You sent the result of the background task crawl (jobs) to the model.')).toBeTruthy();
  });

  it('waits for a running reply before it can be sent, and sets the conversation to continue by itself', async () => {
    const { transport } = mount([...STARTED, { id: 'n1', role: 'user', createdAt: 5, content: [NOTICE] }]);
    const card = await screen.findByRole('region', { name: 'Background task of crawl' }, { timeout: 5_000 });
    act(() =>
      transport.emit('chat.event', {
        type: 'turn-started',
        conversationId: 'c1',
        turnId: 't3',
        model: 'claude-a',
        toolCount: 0,
      }),
    );
    const send = within(card).getByRole('button', { name: 'Send to the model' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    expect(send.getAttribute('title')).toBe('A reply is being written: send this once it ends');

    const mode = within(card).getByLabelText('When a background task finishes:');
    expect((mode as HTMLSelectElement).value).toBe('tell');
    fireEvent.change(mode, { target: { value: 'continue' } });
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'chat.setBackgroundTasks').map((c) => c.input)).toEqual([
        { id: 'c1', mode: 'continue' },
      ]),
    );
    await waitFor(() => expect((mode as HTMLSelectElement).value).toBe('continue'));
  });
});
