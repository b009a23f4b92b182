import type { ChatToolResultBlock } from '../../../shared/domain/chat';
import { isStoppedResult } from '../../../shared/domain/chat-text';
import type { TaskStatus } from '../../../shared/domain/task-status';
import { T } from '../../i18n/t';
import type { MessageId } from '../../i18n/message-ids';
import { useT } from '../../i18n/use-t';
import { hostText } from '../../i18n/host-message';

// What a tool call's card says in place of a result when the call did not run to its end: denied (by the person or
// because its question went away), stopped, its task cancelled, or cut short by quitting. Loaded on demand (these
// are the rarer cards), out of the first screen's bundle.

/** Where a task left behind by quitting is now, for the card of the call that started it. */
const QUIT_TASK_WORDS: Record<TaskStatus, MessageId> = {
  working: 'chat.note.quit.working',
  input_required: 'chat.note.quit.input',
  completed: 'chat.note.quit.completed',
  failed: 'chat.note.quit.failed',
  cancelled: 'chat.note.quit.cancelled',
  lost: 'chat.note.quit.lost',
};

const strong = { strong: <strong /> };

export default function ToolResultNote({
  result,
  taskCancelled,
  quitTaskStatus,
}: {
  result: ChatToolResultBlock;
  taskCancelled: boolean;
  /** Berth quit while this call's task ran: where the task is now. */
  quitTaskStatus?: TaskStatus | undefined;
}) {
  const t = useT();
  if (result.denied?.byHost === true) {
    return (
      <div className="tool-result tool-result-stopped" role="note">
        {result.denied.reason ? (
          <T
            id="chat.note.withdrawnWhy"
            values={{ reason: hostText(result.denied.reasonMessage, result.denied.reason) }}
            components={strong}
          />
        ) : (
          <T id="chat.note.withdrawn" components={strong} />
        )}
      </div>
    );
  }
  if (result.denied) {
    return (
      <div className="tool-result tool-result-denied" role="note">
        {result.denied.reason ? (
          <T id="chat.note.deniedWhy" values={{ reason: result.denied.reason }} components={strong} />
        ) : (
          <T id="chat.note.denied" components={strong} />
        )}
      </div>
    );
  }
  if (quitTaskStatus !== undefined) {
    return (
      <div className="tool-result tool-result-stopped" role="note">
        <strong>{t('chat.note.quit')}</strong> <span>{t(QUIT_TASK_WORDS[quitTaskStatus])}</span>{' '}
        <span>{t('chat.note.quit.told')}</span>
      </div>
    );
  }
  if (isStoppedResult(result)) {
    return (
      <div className="tool-result tool-result-stopped" role="note">
        <T id="chat.note.stopped" components={strong} />
      </div>
    );
  }
  if (taskCancelled) {
    return (
      <div className="tool-result tool-result-stopped" role="note">
        <T id="chat.note.taskCancelled" components={strong} />
      </div>
    );
  }
  return null;
}
