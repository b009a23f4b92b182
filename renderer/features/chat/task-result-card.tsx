import { useId, useState, type ComponentProps } from 'react';
import type { BackgroundTaskMode, ChatTaskResultBlock } from '../../../shared/domain/chat';
import { useT, type Translate } from '../../i18n/use-t';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { TasksIcon } from '../../ui/icons';

/** The most characters of the result the card's line shows; the whole is behind "Show the result". */
const SUMMARY_CHARS = 160;

const TONE = {
  completed: 'success',
  failed: 'danger',
  cancelled: 'neutral',
  lost: 'neutral',
} as const satisfies Record<ChatTaskResultBlock['status'], ComponentProps<typeof Chip>['tone']>;

function statusLabel(status: ChatTaskResultBlock['status'], t: Translate): string {
  switch (status) {
    case 'completed':
      return t('chat.taskResult.status.completed');
    case 'failed':
      return t('chat.taskResult.status.failed');
    case 'cancelled':
      return t('chat.taskResult.status.cancelled');
    case 'lost':
      return t('chat.taskResult.status.lost');
  }
}

/** The result's text as the card shows it (images and resources by their kind). */
export function taskResultText(block: ChatTaskResultBlock): string {
  return block.result.content
    .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
    .join('\n')
    .trim();
}

/** The first line of the result, cut to SUMMARY_CHARS. */
export function taskResultSummary(block: ChatTaskResultBlock): string {
  const first = taskResultText(block).split('\n', 1)[0] ?? '';
  return first.length > SUMMARY_CHARS ? `${first.slice(0, SUMMARY_CHARS - 1)}…` : first;
}

/**
 * A background task's end in the conversation. The notice: "Task finished: <tool> — <summary>", the result behind a
 * toggle, Send to the model (once), and what the conversation does when the next one finishes. The copy the person
 * sent: one line saying so.
 */
export function TaskResultCard({
  conversationId,
  block,
  sent,
  copy,
  running,
}: {
  conversationId: string;
  block: ChatTaskResultBlock;
  sent: boolean;
  copy: boolean;
  /** A reply is being written: the result can be sent once it ends. */
  running: boolean;
}) {
  const t = useT();
  const sendTaskResult = useBerth((s) => s.sendTaskResult);
  const setBackgroundTasks = useBerth((s) => s.setBackgroundTasks);
  const mode = useBerth((s) => s.conversationDetails[conversationId]?.backgroundTasks ?? 'tell');
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const modeId = useId();
  const summary = taskResultSummary(block);
  if (copy)
    return (
      <p className="task-result-sent-line" data-task-result={block.taskId}>
        <TasksIcon /> {t('chat.taskResult.sentLine', { tool: block.tool, server: block.server })}
      </p>
    );
  async function send() {
    setSending(true);
    await sendTaskResult(conversationId, block.taskId);
    setSending(false);
  }
  return (
    <section
      className="task-result-card"
      aria-label={t('chat.taskResult.label', { tool: block.tool })}
      data-task-result={block.taskId}
      data-status={block.status}
    >
      <div className="task-result-head">
        <TasksIcon />
        <span className="task-result-title">
          {t('chat.taskResult.title', { tool: block.tool })}
          {summary !== '' ? <span className="task-result-summary"> — {summary}</span> : null}
        </span>
        <Chip tone={TONE[block.status]}>{statusLabel(block.status, t)}</Chip>
      </div>
      <p className="task-result-origin muted">
        {t('chat.taskResult.origin', { server: block.server, taskId: block.serverTaskId })}
      </p>
      {open ? <pre className="task-result-text">{taskResultText(block) || t('chat.taskResult.empty')}</pre> : null}
      <div className="task-result-actions">
        <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t('chat.taskResult.hide') : t('chat.taskResult.show')}
        </Button>
        <div className="spacer" />
        {sent ? (
          <span className="task-result-done" role="status">
            {t('chat.taskResult.sent')}
          </span>
        ) : (
          <Button
            size="sm"
            variant="primary"
            disabled={running || sending}
            title={running ? t('chat.taskResult.waitForReply') : undefined}
            onClick={() => void send()}
          >
            {t('chat.taskResult.send')}
          </Button>
        )}
      </div>
      <div className="task-result-mode">
        <label htmlFor={modeId}>{t('chat.taskResult.mode.label')}</label>
        <select
          id={modeId}
          className="input select-input"
          value={mode}
          onChange={(event) => void setBackgroundTasks(conversationId, event.target.value as BackgroundTaskMode)}
        >
          <option value="tell">{t('chat.taskResult.mode.tell')}</option>
          <option value="continue">{t('chat.taskResult.mode.continue')}</option>
        </select>
      </div>
    </section>
  );
}
