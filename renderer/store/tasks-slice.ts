import type { TaskRecord, TasksChanged } from '../../shared/domain/task';
import { isTerminalTaskStatus } from '../../shared/domain/task-status';
import type { StoreApi } from 'zustand/vanilla';
import type { BerthState, SliceCreator, TasksSlice } from './types';
import { words } from '../i18n/words';

/** The host's order: newest first, ties by id. */
function comesBefore(a: TaskRecord, b: TaskRecord): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
}

/**
 * The list after one `tasks.changed`: each changed record replaces its old
 * entry at its sorted place, removed ids go. Pure; records that did not
 * change keep their identity, so their rows do not re-render.
 */
export function applyTasksChanged(list: readonly TaskRecord[], change: TasksChanged): TaskRecord[] {
  const gone = new Set([...change.removed, ...change.changed.map((record) => record.id)]);
  const next = gone.size === 0 ? [...list] : list.filter((record) => !gone.has(record.id));
  for (const record of change.changed) {
    if (change.removed.includes(record.id)) continue;
    let low = 0;
    let high = next.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comesBefore(next[middle]!, record)) low = middle + 1;
      else high = middle;
    }
    next.splice(low, 0, record);
  }
  return next;
}

/** How many tasks are still running (the navigation badge). */
export function countRunningTasks(list: readonly TaskRecord[]): number {
  let running = 0;
  for (const record of list) if (!isTerminalTaskStatus(record.status)) running += 1;
  return running;
}

export const createTasksSlice: SliceCreator<TasksSlice> = (transport) => (set, get) => ({
  tasks: [],
  tasksLoaded: false,
  tasksError: undefined,
  toolCardFocus: undefined,
  taskFocus: undefined,

  applyTasksSnapshot(list) {
    set({
      tasks: [...list].sort((a, b) => (comesBefore(a, b) ? -1 : comesBefore(b, a) ? 1 : 0)),
      tasksLoaded: true,
      tasksError: undefined,
    });
  },
  applyTasksChanged(change) {
    set((s) => ({ tasks: applyTasksChanged(s.tasks, change) }));
  },
  async loadTasks() {
    const result = await transport.call('tasks.list', {});
    if (result.ok) get().applyTasksSnapshot(result.value);
    // Shown in the Tasks view with "Try again", not as a toast: nothing the person did failed.
    else set({ tasksError: result.message });
  },
  async cancelTask(id) {
    const result = await transport.call('tasks.cancel', { id });
    if (result.ok) return;
    if (result.code === 'NOT_FOUND') {
      // Cleared or expired meanwhile: the host no longer has it, so neither do we.
      set((s) => ({ tasks: s.tasks.filter((t) => t.id !== id) }));
      get().pushToast({
        tone: 'info',
        title: words('tasks.toast.gone'),
        message: words('tasks.toast.goneDetail'),
      });
      return;
    }
    get().toastFailure(words('tasks.toast.cancelFailed'), result);
  },
  async clearFinishedTasks() {
    const result = await transport.call('tasks.clear', {});
    if (!result.ok) {
      get().toastFailure(words('tasks.toast.clearFailed'), result);
      return;
    }
    // The `tasks.changed` event normally follows; this keeps the list right if it comes late.
    set((s) => ({ tasks: s.tasks.filter((t) => !isTerminalTaskStatus(t.status)) }));
  },
  async reportWindowVisible(visible) {
    const result = await transport.call('tasks.setWindowVisible', { visible });
    // Only how often running tasks are polled depends on it: worth a note for whoever debugs, not a toast.
    if (!result.ok)
      console.error(`Berth: could not tell the host the window is ${visible ? 'visible' : 'hidden'}`, result.message);
  },
  showToolCallInChat(conversationId, toolUseId) {
    set({ view: 'chat', toolCardFocus: { conversationId, toolUseId } });
    if (get().activeConversationId !== conversationId || get().conversationDetails[conversationId] === undefined)
      void get().openConversation(conversationId);
  },
  clearToolCardFocus() {
    set({ toolCardFocus: undefined });
  },
  openTaskInView(id) {
    set({ view: 'tasks', taskFocus: id });
  },
  clearTaskFocus() {
    set({ taskFocus: undefined });
  },
});

/**
 * Tells the host whether anyone can see the window (polling of running tasks
 * backs off while hidden): on every connect and on each visibility change.
 * Returns the function that stops listening. Without a document (tests of
 * the store alone) only the connect report is sent, as visible.
 */
export function watchWindowVisibility(
  store: StoreApi<BerthState>,
  doc: Document | undefined = globalThis.document,
): { report(): void; stop(): void } {
  const report = () => void store.getState().reportWindowVisible(doc === undefined || doc.visibilityState !== 'hidden');
  const onChange = () => {
    if (store.getState().connection.state === 'open') report();
  };
  doc?.addEventListener('visibilitychange', onChange);
  return { report, stop: () => doc?.removeEventListener('visibilitychange', onChange) };
}
