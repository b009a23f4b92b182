import { codedFamily } from './host-wording';

/** How the person ended a task Berth cancelled: the tasks list's Cancel, or the chat's Stop. */
export type TaskCancelledBy = 'cancel' | 'stop';

/**
 * The failures of a tool call that ran as a task, as codes with their facts; the renderer words them from
 * renderer/i18n/locales/<locale>/task-errors.json (the tool card and the task card show them; the model is
 * told the English). `detail` is the server's own words, or why Berth stopped following the task.
 */
export type TaskErrorMessages = {
  'task-errors.call-failed': { tool: string; server: string; detail: string };
  'task-errors.call-cancelled': { tool: string; server: string };
  'task-errors.reused-id': { server: string; tool: string; taskId: string };
  'task-errors.not-followed': { tool: string; server: string; detail: string };
  'task-errors.expired': { tool: string; server: string; detail: string };
  'task-errors.failed': { tool: string; server: string; detail: string };
  'task-errors.cancelled': { tool: string; server: string; detail: string };
  'task-errors.cancelled-by-server': { tool: string; server: string };
  'task-errors.cancelled-by-you': { tool: string; server: string; by: TaskCancelledBy };
  // A task record's `statusMessage` when Berth writes it (its `statusWording`), not the server.
  'task-errors.status-by-you': { by: TaskCancelledBy };
  'task-errors.status-berth-quit': Record<string, never>;
  'task-errors.status-process-ended': Record<string, never>;
  'task-errors.status-connection-closed': Record<string, never>;
  'task-errors.status-server-removed': Record<string, never>;
  'task-errors.status-waiting-restart': Record<string, never>;
  'task-errors.status-ttl-ran-out': Record<string, never>;
  'task-errors.status-no-handle': Record<string, never>;
  /** `detail` is the server's or the SDK's own words. */
  'task-errors.status-resume-failed': { detail: string };
  'task-errors.status-resume-expired': { detail: string };
  'task-errors.status-cancel-failed': { detail: string };
  'task-errors.status-lost-track': { detail: string };
  'task-errors.status-expired': Record<string, never>;
  // A task a server asked Berth to run (sampling, elicitation), ended by Berth or the connection.
  'task-errors.status-server-reconnected': { server: string };
  'task-errors.status-server-disconnected': { server: string };
  'task-errors.status-server-gone': { server: string };
  'task-errors.status-berth-quitting': Record<string, never>;
  'task-errors.status-server-cancelled': { server: string };
  'task-errors.status-you-cancelled': Record<string, never>;
};
export type TaskErrorCode = keyof TaskErrorMessages;

/** "cancelled by you": the reason a task's record gives when the person ended it (its `statusMessage`). */
export function cancelledByText(by: TaskCancelledBy): string {
  return by === 'cancel' ? 'cancelled by you' : 'stopped by you';
}

/** A task the server no longer has: what its record says. */
export const EXPIRED_TASK = 'expired — no longer on the server';

/** A task's failure in English with its code (the English is what Berth always said). */
export const taskError = codedFamily<TaskErrorMessages>({
  'task-errors.call-failed': ({ tool, server, detail }) => `tool '${tool}' on server '${server}' failed: ${detail}`,
  'task-errors.call-cancelled': ({ tool, server }) => `tool '${tool}' on server '${server}' was cancelled`,
  'task-errors.reused-id': ({ server, tool, taskId }) =>
    `server '${server}' gave tool '${tool}' the task id '${taskId}', which an earlier call's task still uses: ` +
    "Berth refused this call so that the two results cannot cross. This is the server's fault (each task must have an id of its own); " +
    "the earlier call goes on. Try again once it has finished, and tell the server's authors.",
  'task-errors.not-followed': ({ tool, server, detail }) =>
    `the task of tool '${tool}' on server '${server}' could not be followed: ${detail}`,
  'task-errors.expired': ({ tool, server, detail }) =>
    `the task of tool '${tool}' on server '${server}' expired — it is no longer on the server ` +
    `(it answered "${detail}"), so its result cannot be fetched. Call the tool again if it is still needed.`,
  'task-errors.failed': ({ tool, server, detail }) =>
    `the task of tool '${tool}' on server '${server}' failed: ${detail}`,
  'task-errors.cancelled': ({ tool, server, detail }) =>
    `the task of tool '${tool}' on server '${server}' was cancelled (${detail})`,
  'task-errors.cancelled-by-server': ({ tool, server }) =>
    `the task of tool '${tool}' on server '${server}' was cancelled (by the server)`,
  'task-errors.cancelled-by-you': ({ tool, server, by }) =>
    `the task of tool '${tool}' on server '${server}' was cancelled (${cancelledByText(by)})`,
  'task-errors.status-by-you': ({ by }) => cancelledByText(by),
  'task-errors.status-berth-quit': () => 'Berth quit while it ran; it is picked up again at the next start',
  'task-errors.status-process-ended': () => "the server's process ended when Berth quit",
  'task-errors.status-connection-closed': () => 'the connection to the server closed while it ran',
  'task-errors.status-server-removed': () => 'its server was removed from Berth',
  'task-errors.status-waiting-restart': () => 'waiting for its server to pick it up again after the restart',
  'task-errors.status-ttl-ran-out': () => 'its time to live ran out while Berth was closed',
  'task-errors.status-no-handle': () => 'no handle was saved for it',
  'task-errors.status-resume-failed': ({ detail }) => `could not pick it up again after the restart: ${detail}`,
  'task-errors.status-resume-expired': ({ detail }) =>
    `could not pick it up again after the restart: ${EXPIRED_TASK} (${detail})`,
  'task-errors.status-cancel-failed': ({ detail }) => `Berth could not cancel it (${detail}) and stopped following it`,
  'task-errors.status-lost-track': ({ detail }) => `Berth lost track of it: ${detail}`,
  'task-errors.status-expired': () => EXPIRED_TASK,
  'task-errors.status-server-reconnected': ({ server }) => `server '${server}' reconnected`,
  'task-errors.status-server-disconnected': ({ server }) => `server '${server}' disconnected`,
  'task-errors.status-server-gone': ({ server }) => `server '${server}' was removed`,
  'task-errors.status-berth-quitting': () => 'Berth is quitting',
  'task-errors.status-server-cancelled': ({ server }) => `server '${server}' cancelled the task`,
  'task-errors.status-you-cancelled': () => 'you cancelled this task in Berth',
});

/** A `statusMessage` Berth writes on a task record, with its coded twin `statusWording` for the renderer. */
export function taskStatusWords<C extends `task-errors.status-${string}` & TaskErrorCode>(
  code: C,
  params: TaskErrorMessages[C],
): { statusMessage: string; statusWording: { code: C; params: TaskErrorMessages[C] } } {
  const { text, hostMessage } = taskError(code, params);
  return { statusMessage: text, statusWording: hostMessage };
}
