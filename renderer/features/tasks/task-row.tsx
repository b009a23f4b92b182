import clsx from 'clsx';
import { memo, useState, type ReactNode } from 'react';
import { isTerminalTaskStatus, type TaskRecord } from '../../../shared/domain/task';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { ChatIcon, FormIcon, SparkleIcon, StopIcon, ToolIcon } from '../../ui/icons';
import { useAnswerTarget } from './answer-target';
import { ageParts, progressText, shownTaskStatus, taskChip, taskDetail, taskSubject } from './task-model';
import { formatDateTime } from '../../i18n/format';
import { useT, type Translate } from '../../i18n/use-t';
import { Row } from '../../ui/list';

const KIND_ICONS: Record<TaskRecord['kind'], ReactNode> = {
  tool: <ToolIcon />,
  sampling: <SparkleIcon />,
  elicitation: <FormIcon />,
};

/** Where the task came from, in words: its conversation, or who asked. */
function origin(
  t: Translate,
  task: TaskRecord,
  conversationTitle: string | undefined,
  conversationsLoaded: boolean,
): string {
  if (task.side === 'receiver') return t('tasks.row.askedBy', { server: task.server });
  if (task.conversationId === undefined) return t('tasks.row.noConversation');
  if (conversationTitle !== undefined) return conversationTitle;
  return t(conversationsLoaded ? 'tasks.row.deletedConversation' : 'tasks.row.someConversation');
}

/** The status chip's words: the status, or "Expired" for a task lost because it expired. */

/** One task: what runs where, its status in words, the server's message and progress, and what the person can do about it. */
export const TaskRow = memo(function TaskRow({
  task,
  conversationTitle,
  conversationsLoaded,
  now,
}: {
  task: TaskRecord;
  conversationTitle: string | undefined;
  conversationsLoaded: boolean;
  now: number;
}) {
  const t = useT();
  const cancelTask = useBerth((s) => s.cancelTask);
  const focusPending = useBerth((s) => s.focusPending);
  const showToolCallInChat = useBerth((s) => s.showToolCallInChat);
  const answerId = useAnswerTarget(task.waitingFor, task.toolUseId);
  const [cancelling, setCancelling] = useState(false);
  const running = !isTerminalTaskStatus(task.status);
  const status = shownTaskStatus(task.status, answerId);
  const subject = taskSubject(task);
  const detail = taskDetail(task);
  const progress = progressText(task.progress);
  const chip = taskChip(status, task.expired);
  const age = (ms: number) => t('tasks.row.age', ageParts(ms));
  const fraction =
    task.progress?.total !== undefined && task.progress.total > 0
      ? Math.min(1, Math.max(0, task.progress.progress / task.progress.total))
      : undefined;
  // Only while the conversation still exists: a deleted one has no card to show.
  const card =
    task.conversationId !== undefined && task.toolUseId !== undefined && conversationTitle !== undefined
      ? { conversationId: task.conversationId, toolUseId: task.toolUseId }
      : undefined;

  async function cancel() {
    setCancelling(true);
    await cancelTask(task.id);
    setCancelling(false);
  }

  return (
    <Row
      className={clsx('task-row', `task-${status}`)}
      aria-label={t('tasks.row.label', { subject, server: task.server })}
      data-task={task.id}
      data-status={status}
      tabIndex={-1}
    >
      <span className={clsx('task-kind', `task-kind-${task.kind}`)} aria-hidden="true">
        {KIND_ICONS[task.kind]}
      </span>
      <div className="task-main">
        <div className="task-head">
          <span className="task-name">
            <span className="task-server">{task.server}</span>
            <span className="muted" aria-hidden="true">
              {' '}
              ›{' '}
            </span>
            <span className={clsx('task-subject', task.kind !== 'tool' && 'task-subject-request')}>{subject}</span>
          </span>
          <Chip tone={chip.tone}>{t(chip.label)}</Chip>
        </div>
        {detail !== undefined ? (
          <p
            className={clsx(
              'task-detail',
              (task.status === 'failed' || task.status === 'lost') && 'task-detail-problem',
            )}
            title={detail}
          >
            {detail}
          </p>
        ) : null}
        {/* No moving bar while the task waits for the person: nothing progresses until they answer. */}
        {status === 'working' ? (
          <div className="task-progress">
            <div
              className={clsx('progress', fraction === undefined && 'indeterminate')}
              role="progressbar"
              aria-label={t('tasks.row.progressLabel', { subject })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={fraction === undefined ? undefined : Math.round(fraction * 100)}
            >
              <span
                className="progress-fill"
                style={fraction === undefined ? undefined : { width: `${fraction * 100}%` }}
              />
            </div>
            {progress !== undefined ? <span className="task-progress-text">{progress}</span> : null}
          </div>
        ) : null}
        <div className="task-meta">
          <span className="task-origin">
            {task.side === 'requester' && task.conversationId !== undefined ? <ChatIcon /> : null}
            {origin(t, task, conversationTitle, conversationsLoaded)}
          </span>
          <span aria-hidden="true">·</span>
          <time dateTime={new Date(task.createdAt).toISOString()} title={formatDateTime(task.createdAt)}>
            {t('tasks.row.started', { age: age(now - task.createdAt) })}
          </time>
          {!running ? (
            <>
              <span aria-hidden="true">·</span>
              <time dateTime={new Date(task.updatedAt).toISOString()} title={formatDateTime(task.updatedAt)}>
                {t('tasks.row.ended', { age: age(now - task.updatedAt) })}
              </time>
            </>
          ) : null}
        </div>
      </div>
      <div className="task-actions">
        {running && answerId !== undefined ? (
          <Button size="sm" variant="primary" icon={<FormIcon />} onClick={() => focusPending(answerId)}>
            {t('tasks.row.answer')}
          </Button>
        ) : null}
        {card !== undefined ? (
          <Button
            size="sm"
            variant="ghost"
            icon={<ChatIcon />}
            onClick={() => showToolCallInChat(card.conversationId, card.toolUseId)}
          >
            {t('tasks.row.showInChat')}
          </Button>
        ) : null}
        {running ? (
          <Button size="sm" icon={<StopIcon />} onClick={() => void cancel()} disabled={cancelling}>
            {t(cancelling ? 'tasks.row.cancelling' : 'tasks.row.cancel')}
          </Button>
        ) : null}
      </div>
    </Row>
  );
});
