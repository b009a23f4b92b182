import clsx from 'clsx';
import { memo, useState, type ReactNode } from 'react';
import { isTerminalTaskStatus, type TaskRecord } from '../../../shared/domain/task';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { ChatIcon, FormIcon, SparkleIcon, StopIcon, ToolIcon } from '../../ui/icons';
import { useAnswerTarget } from './answer-target';
import { progressText, relativeAge, shownTaskStatus, taskChip, taskDetail, taskSubject } from './task-model';
import { Row } from '../../ui/list';

const KIND_ICONS: Record<TaskRecord['kind'], ReactNode> = {
  tool: <ToolIcon />,
  sampling: <SparkleIcon />,
  elicitation: <FormIcon />,
};

/** Where the task came from, in words: its conversation, or who asked. */
function origin(task: TaskRecord, conversationTitle: string | undefined, conversationsLoaded: boolean): string {
  if (task.side === 'receiver') return `Asked by ${task.server}`;
  if (task.conversationId === undefined) return 'Not from a conversation';
  if (conversationTitle !== undefined) return conversationTitle;
  return conversationsLoaded ? 'A deleted conversation' : 'A conversation';
}

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
      aria-label={`${subject} on ${task.server}`}
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
          <Chip tone={taskChip(status, task.expired).tone}>{taskChip(status, task.expired).label}</Chip>
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
              aria-label={`Progress of ${subject}`}
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
            {origin(task, conversationTitle, conversationsLoaded)}
          </span>
          <span aria-hidden="true">·</span>
          <time dateTime={new Date(task.createdAt).toISOString()} title={new Date(task.createdAt).toLocaleString()}>
            Started {relativeAge(now - task.createdAt)}
          </time>
          {!running ? (
            <>
              <span aria-hidden="true">·</span>
              <time dateTime={new Date(task.updatedAt).toISOString()} title={new Date(task.updatedAt).toLocaleString()}>
                ended {relativeAge(now - task.updatedAt)}
              </time>
            </>
          ) : null}
        </div>
      </div>
      <div className="task-actions">
        {running && answerId !== undefined ? (
          <Button size="sm" variant="primary" icon={<FormIcon />} onClick={() => focusPending(answerId)}>
            Answer
          </Button>
        ) : null}
        {card !== undefined ? (
          <Button
            size="sm"
            variant="ghost"
            icon={<ChatIcon />}
            onClick={() => showToolCallInChat(card.conversationId, card.toolUseId)}
          >
            Show in chat
          </Button>
        ) : null}
        {running ? (
          <Button size="sm" icon={<StopIcon />} onClick={() => void cancel()} disabled={cancelling}>
            {cancelling ? 'Cancelling…' : 'Cancel task'}
          </Button>
        ) : null}
      </div>
    </Row>
  );
});
