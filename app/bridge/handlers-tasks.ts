import type { Handlers } from '../../shared/contract';
import type { tasksMethods } from '../../shared/contract/tasks';
import type { TaskRegistry } from '../tasks/task-registry';

/** The tasks methods of the contract. */
export type TasksHandlers = Pick<Handlers, keyof typeof tasksMethods>;

/** The Tasks view: list, cancel, clear finished; the window's visibility for polling. */
export function createTasksHandlers(
  tasks: Pick<TaskRegistry, 'list' | 'cancel' | 'clearFinished' | 'setWindowVisible'>,
): TasksHandlers {
  return {
    'tasks.list': async () => tasks.list(),
    'tasks.cancel': async ({ id }) => ({ status: (await tasks.cancel(id)).status }),
    'tasks.clear': async () => ({ removed: tasks.clearFinished() }),
    'tasks.setWindowVisible': async ({ visible }) => {
      tasks.setWindowVisible(visible);
      return {};
    },
  };
}
