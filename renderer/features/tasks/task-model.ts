import type { TaskRecord, TaskStatus } from '../../../shared/domain/task';
import type { HostMessage } from '../../../shared/domain/host-message';
import { formatNumber } from '../../i18n/format';
import { hostText } from '../../i18n/host-text';
import type { MessageId } from '../../i18n/message-ids';
import { translate } from '../../i18n/use-t';

// What a task's state means in words, shared by the Tasks view and the tool
// card (which is on the first screen: keep this module small and pure). The
// words are the catalog's, worded as the components render (they use useT()).
// The server's own words (statusMessage, progress messages, errors) stay as written; Berth's own statusMessage
// ("cancelled by you") is worded from its code, `statusWording`.

export type TaskTone = 'neutral' | 'accent' | 'warning' | 'danger' | 'success';

/** The words for each status (a catalog id): plain, never the protocol's identifiers. */
export const TASK_STATUS: Record<TaskStatus, { label: MessageId; tone: TaskTone }> = {
  working: { label: 'tasks.status.working', tone: 'accent' },
  input_required: { label: 'tasks.status.input_required', tone: 'warning' },
  completed: { label: 'tasks.status.completed', tone: 'success' },
  failed: { label: 'tasks.status.failed', tone: 'danger' },
  cancelled: { label: 'tasks.status.cancelled', tone: 'neutral' },
  lost: { label: 'tasks.status.lost', tone: 'danger' },
};

/** A lost task the server itself purged (or let expire) reads "Expired": nothing went wrong with its work. */
export const TASK_EXPIRED = { label: 'tasks.status.expired', tone: 'neutral' } as const;

/** The chip of a task: its status in words (`t(chip.label)`), "Expired" for a task its server no longer knows. */
export function taskChip(status: TaskStatus, expired: boolean | undefined): { label: MessageId; tone: TaskTone } {
  return status === 'lost' && expired === true ? TASK_EXPIRED : TASK_STATUS[status];
}

/** The status as shown: a task that is working but has a question waiting for the person needs their answer all the same. */
export function shownTaskStatus(status: TaskStatus, waitingFor: string | undefined): TaskStatus {
  return status === 'working' && waitingFor !== undefined ? 'input_required' : status;
}

/** What the task runs: the tool, or the kind of request a server asked Berth to run. */
export function taskSubject(task: Pick<TaskRecord, 'kind' | 'tool'>): string {
  if (task.kind === 'tool') return task.tool ?? translate('tasks.row.toolCall');
  return task.kind;
}

/**
 * The server's message as shown. A completed task often keeps the message of
 * its last step ("Generating report..."): said as what it was, not as what
 * the task is doing now.
 */
export function shownStatusMessage(
  status: TaskStatus,
  statusMessage: string | undefined,
  statusWording?: HostMessage,
): string | undefined {
  if (statusMessage === undefined || statusMessage.trim() === '') return undefined;
  const message = statusWording === undefined ? statusMessage : hostText(statusWording, statusMessage);
  return status === 'completed' ? translate('tasks.row.lastUpdate', { message }) : message;
}

/**
 * The one line under the status: the server's own words (`statusMessage`), and
 * for a failed or lost task the reason, without saying the same thing twice.
 */
export function taskDetail(
  task: Pick<TaskRecord, 'status' | 'statusMessage' | 'statusWording' | 'error'>,
): string | undefined {
  const parts = [
    shownStatusMessage(task.status, task.statusMessage, task.statusWording),
    task.status === 'failed' ? task.error : undefined,
  ].filter((part): part is string => part !== undefined && part.trim() !== '');
  const unique = parts.filter((part, index) => parts.indexOf(part) === index);
  if (unique.length > 0) return unique.join(' · ');
  if (task.status === 'lost') return translate('tasks.row.unreachable');
  return undefined;
}

/** Progress in words: the server's message, else "3 of 10" (or "3" without a total). */
export function progressText(progress: TaskRecord['progress']): string | undefined {
  if (progress === undefined) return undefined;
  if (progress.message !== undefined && progress.message !== '') return progress.message;
  return progress.total !== undefined
    ? translate('tasks.row.progressOf', {
        progress: formatNumber(progress.progress),
        total: formatNumber(progress.total),
      })
    : formatNumber(progress.progress);
}

/** How long ago, as the unit and count a message words ("tasks.row.age"): under 5 s is "now". */
export function ageParts(ms: number): { unit: 'now' | 's' | 'min' | 'h' | 'd'; n: number } {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 5) return { unit: 'now', n: 0 };
  if (seconds < 60) return { unit: 's', n: seconds };
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return { unit: 'min', n: minutes };
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? { unit: 'h', n: hours } : { unit: 'd', n: Math.floor(hours / 24) };
}
