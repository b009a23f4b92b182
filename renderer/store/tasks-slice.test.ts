import { describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '../../shared/domain/task';
import { fail, ok } from '../../shared/result';
import { createFakeTransport, type FakeHandlers } from '../test-support/fake-transport';
import { connectStore, createBerthStore } from './create-store';
import { applyTasksChanged, countRunningTasks, watchWindowVisibility } from './tasks-slice';
import { shownToasts } from '../test-support/shown-toasts';

function task(id: string, createdAt: number, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    taskId: `srv-${id}`,
    server: 'everything',
    side: 'requester',
    kind: 'tool',
    tool: 'simulate-research-query',
    status: 'working',
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** The other snapshots have no fake answers here and toast about it: only the tasks' toasts matter. */
function taskToasts(store: ReturnType<typeof createBerthStore>) {
  return shownToasts(store).filter((t) => /task/i.test(t.title));
}

function connected(handlers: FakeHandlers = {}) {
  const transport = createFakeTransport({
    'tasks.list': () => ok([task('a', 1), task('b', 3, { status: 'completed' }), task('c', 2)]),
    'tasks.setWindowVisible': () => ok({}),
    ...handlers,
  });
  const store = createBerthStore(transport);
  connectStore(store, transport);
  return { transport, store };
}

describe('tasks slice', () => {
  it('loads the list newest first on connect and tells the host the window is visible', async () => {
    const { transport, store } = connected();
    await vi.waitFor(() => expect(store.getState().tasksLoaded).toBe(true));
    expect(store.getState().tasks.map((t) => t.id)).toEqual(['b', 'c', 'a']);
    expect(transport.calls.filter((c) => c.method === 'tasks.setWindowVisible').map((c) => c.input)).toEqual([
      { visible: true },
    ]);
  });

  it('applies tasks.changed: an update stays in place, a new task goes first, removed ones go, the rest keep their identity', async () => {
    const { transport, store } = connected();
    await vi.waitFor(() => expect(store.getState().tasksLoaded).toBe(true));
    const untouched = store.getState().tasks.find((t) => t.id === 'a');
    transport.emit('tasks.changed', {
      changed: [task('c', 2, { status: 'input_required', statusMessage: 'Which one?' }), task('d', 4)],
      removed: ['b'],
    });
    const tasks = store.getState().tasks;
    expect(tasks.map((t) => t.id)).toEqual(['d', 'c', 'a']);
    expect(tasks[1]).toMatchObject({ status: 'input_required', statusMessage: 'Which one?' });
    expect(tasks[2]).toBe(untouched);
    expect(countRunningTasks(tasks)).toBe(3);
  });

  it('orders ties by id and drops a record that is changed and removed in the same event', () => {
    const list = applyTasksChanged([], { changed: [task('y', 5), task('x', 5), task('z', 1)], removed: [] });
    expect(list.map((t) => t.id)).toEqual(['x', 'y', 'z']);
    expect(applyTasksChanged(list, { changed: [task('x', 5)], removed: ['x'] }).map((t) => t.id)).toEqual(['y', 'z']);
  });

  it('shows why the list could not be read instead of an empty list', async () => {
    const { store } = connected({ 'tasks.list': () => fail('INTERNAL', 'registry unavailable') });
    await vi.waitFor(() => expect(store.getState().tasksError).toBe('registry unavailable'));
    expect(store.getState().tasksLoaded).toBe(false);
  });

  it('cancels through tasks.cancel and shows a refusal as an error toast', async () => {
    const { transport, store } = connected({
      'tasks.cancel': ({ id }) =>
        id === 'a' ? ok({ status: 'cancelled' }) : fail('INTERNAL', 'server did not answer tasks/cancel'),
    });
    await vi.waitFor(() => expect(store.getState().tasksLoaded).toBe(true));
    await store.getState().cancelTask('a');
    expect(taskToasts(store)).toEqual([]);
    await store.getState().cancelTask('c');
    expect(transport.calls.filter((c) => c.method === 'tasks.cancel').map((c) => c.input)).toEqual([
      { id: 'a' },
      { id: 'c' },
    ]);
    expect(taskToasts(store)).toMatchObject([
      { tone: 'error', title: 'Could not cancel the task', message: 'server did not answer tasks/cancel' },
    ]);
    // The host's event, not the refusal, changes the task.
    expect(store.getState().tasks.find((t) => t.id === 'c')?.status).toBe('working');
  });

  it('drops a task the host no longer knows when cancelling it', async () => {
    const { store } = connected({ 'tasks.cancel': () => fail('NOT_FOUND', "no task 'c'") });
    await vi.waitFor(() => expect(store.getState().tasksLoaded).toBe(true));
    await store.getState().cancelTask('c');
    expect(store.getState().tasks.map((t) => t.id)).toEqual(['b', 'a']);
    expect(taskToasts(store)).toMatchObject([{ tone: 'info', title: 'That task is gone' }]);
  });

  it('clears finished tasks through tasks.clear and keeps running ones; a failure is a toast', async () => {
    let refuse = false;
    const { transport, store } = connected({
      'tasks.clear': () => (refuse ? fail('INTERNAL', 'busy') : ok({ removed: 1 })),
    });
    await vi.waitFor(() => expect(store.getState().tasksLoaded).toBe(true));
    await store.getState().clearFinishedTasks();
    expect(transport.calls.some((c) => c.method === 'tasks.clear')).toBe(true);
    expect(store.getState().tasks.map((t) => t.id)).toEqual(['c', 'a']);
    refuse = true;
    transport.emit('tasks.changed', { changed: [task('a', 1, { status: 'failed', error: 'boom' })], removed: [] });
    await store.getState().clearFinishedTasks();
    expect(store.getState().tasks.map((t) => t.id)).toEqual(['c', 'a']);
    expect(taskToasts(store)).toMatchObject([
      { tone: 'error', title: 'Could not clear the finished tasks', message: 'busy' },
    ]);
  });

  it('reports the window hidden and shown while connected, and stops listening when unbound', async () => {
    const transport = createFakeTransport({ 'tasks.setWindowVisible': () => ok({}) });
    const store = createBerthStore(transport);
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
    const watch = watchWindowVisibility(store, doc as unknown as Document);
    const sent = () => transport.calls.filter((c) => c.method === 'tasks.setWindowVisible').map((c) => c.input);
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    watch.report();
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(sent()).toEqual([{ visible: false }, { visible: false }, { visible: true }]);
    store.getState().applyConnection({ state: 'lost', everOpened: true, failedAttempts: 1 });
    doc.dispatchEvent(new Event('visibilitychange'));
    watch.stop();
    store.getState().applyConnection({ state: 'open', everOpened: true, failedAttempts: 0 });
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(sent()).toHaveLength(3);
  });

  it('“Show in chat” opens the conversation and asks for the card', async () => {
    const { transport, store } = connected({
      'chat.get': ({ id }) =>
        ok({
          id,
          title: 'Research',
          createdAt: 1,
          updatedAt: 1,
          model: 'm',
          messages: [],
          disabledServers: [],
          disabledTools: [],
        }),
    });
    store.getState().showToolCallInChat('c9', 'tu-7');
    expect(store.getState()).toMatchObject({
      view: 'chat',
      activeConversationId: 'c9',
      toolCardFocus: { conversationId: 'c9', toolUseId: 'tu-7' },
    });
    await vi.waitFor(() => expect(store.getState().conversationDetails.c9).toBeDefined());
    expect(transport.calls.filter((c) => c.method === 'chat.get').map((c) => c.input)).toEqual([{ id: 'c9' }]);
    store.getState().clearToolCardFocus();
    expect(store.getState().toolCardFocus).toBeUndefined();
  });
});
