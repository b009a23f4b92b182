// Kept apart from ./task (zod schemas) so the renderer's first screen (tool cards, the
// tasks slice) can use it without loading zod; ./task builds its schema from this list.

/** The protocol's five states, plus `lost`: Berth can no longer reach the task. */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled', 'lost'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The most characters of a server's words (status message, error) a task record keeps: a server cannot flood the Tasks view or the bridge. */
export const MAX_TASK_TEXT = 2_000;

/** Statuses after which nothing changes any more. */
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled', 'lost'];

export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.includes(status);
}
