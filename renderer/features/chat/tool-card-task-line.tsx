import { useState } from 'react';
import type { TaskRecord, TaskStatus } from '../../../shared/domain/task';
import { isTerminalTaskStatus } from '../../../shared/domain/task-status';
import { useBerth, type LiveToolCall } from '../../store';
import { shownStatusMessage, taskChip } from '../tasks/task-model';
import { Button, Chip } from '../../ui/controls';
import { FormIcon, StopIcon, TasksIcon } from '../../ui/icons';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

/**
 * The task line of a tool card: the call runs as an MCP task (its status in
 * words, the server's message, Cancel for that task alone, a link to the
 * Tasks view) and/or a question of the call waits for the person (Answer).
 * Loaded on demand (see tool-card-task), so its words and buttons cost the
 * first screen nothing.
 */
export function ToolCardTaskLine({
  live,
  record,
  answerId,
  headAnswers,
}: {
  live: LiveToolCall | undefined;
  record: TaskRecord | undefined;
  answerId: string | undefined;
  headAnswers: boolean;
}) {
  const t = useT();
  const cancelTask = useBerth((s) => s.cancelTask);
  const openTaskInView = useBerth((s) => s.openTaskInView);
  const focusPending = useBerth((s) => s.focusPending);
  const [cancelling, setCancelling] = useState(false);
  const task: { id: string; status: TaskStatus; statusMessage?: string } | undefined = live?.task ?? record;
  if (task === undefined && answerId === undefined) return null;

  const running = task !== undefined && !isTerminalTaskStatus(task.status);
  // The live event carries the words only: Berth's own words ("stopped by you") have their code on the record.
  const wording = record?.statusMessage === task?.statusMessage ? record?.statusWording : undefined;
  const message = task === undefined ? undefined : shownStatusMessage(task.status, task.statusMessage, wording);
  // The live event carries the status only; whether the server purged the task is on its record.
  const chip = task === undefined ? undefined : taskChip(task.status, record?.expired);
  // After a reload the live events are gone: the task record still names the question it waits on
  // (while the call is live, the head's Answer opens that same question: one button is enough).
  const recordAnswerId = answerId === undefined && !headAnswers && running ? record?.waitingFor : undefined;
  async function cancel(id: string) {
    setCancelling(true);
    await cancelTask(id);
    setCancelling(false);
  }

  return (
    <div className="tool-task">
      {answerId !== undefined ? (
        <div className="tool-task-line tool-task-waiting" role="status">
          <FormIcon />
          <span className="tool-task-text">
            <T id="chat.task.waiting" components={{ strong: <strong /> }} />
          </span>
          <Button size="sm" variant="primary" onClick={() => focusPending(answerId)}>
            {t('chat.call.answer')}
          </Button>
        </div>
      ) : null}
      {task !== undefined ? (
        <div className="tool-task-line" role="group" aria-label={t('chat.task.label')} data-task-status={task.status}>
          <TasksIcon />
          {/* A live region: the server's messages ("Analyzing content…") are read out as they change, the buttons are not. */}
          <span className="tool-task-text" role="status" title={message}>
            <span className="tool-task-caption">{t('chat.task.label')}</span>{' '}
            {chip !== undefined ? <Chip tone={chip.tone}>{t(chip.label)}</Chip> : null}
            {message !== undefined ? <span className="tool-task-message"> {message}</span> : null}
          </span>
          {recordAnswerId !== undefined ? (
            <Button size="sm" variant="primary" icon={<FormIcon />} onClick={() => focusPending(recordAnswerId)}>
              {t('chat.call.answer')}
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" onClick={() => openTaskInView(task.id)}>
            {t('chat.task.open')}
          </Button>
          {running ? (
            <Button
              size="sm"
              icon={<StopIcon />}
              onClick={() => void cancel(task.id)}
              disabled={cancelling}
              title={t('chat.task.cancelHint')}
            >
              {t(cancelling ? 'chat.task.cancelling' : 'chat.task.cancel')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
