import type { TaskStatus } from './task';

// Kept apart from ./task (zod schemas) so the renderer's first screen (tool cards, the
// tasks slice) can use it without loading zod.

/** Statuses after which nothing changes any more. */
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled', 'lost'];

export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.includes(status);
}
