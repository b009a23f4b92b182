import type { ChatToolResultBlock } from '../../../shared/domain/chat';
import { isStoppedResult } from '../../../shared/domain/chat-text';
import type { TaskStatus } from '../../../shared/domain/task-status';

// What a tool call's card says in place of a result when the call did not run to its end: denied (by the person or
// because its question went away), stopped, its task cancelled, or cut short by quitting. Loaded on demand (these
// are the rarer cards), out of the first screen's bundle.

/** Where a task left behind by quitting is now, for the card of the call that started it. */
const QUIT_TASK_WORDS: Record<TaskStatus, string> = {
  working: 'It is being followed again; its line above shows where it is.',
  input_required: 'It is being followed again and waits for your answer.',
  completed: 'It finished after Berth started again.',
  failed: 'It failed after Berth started again; its line above says why.',
  cancelled: 'It was cancelled after Berth started again.',
  lost: 'The task was lost with it; its line above says why.',
};

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
  if (result.denied?.byHost === true) {
    return (
      <div className="tool-result tool-result-stopped" role="note">
        <strong>Cancelled before you answered</strong>
        {result.denied.reason ? <span>: {result.denied.reason}.</span> : <span>.</span>}{' '}
        <span>It did not run; the model was told.</span>
      </div>
    );
  }
  if (result.denied) {
    return (
      <div className="tool-result tool-result-denied" role="note">
        <strong>You denied this call.</strong>
        {result.denied.reason ? (
          <span> Reason given to the model: “{result.denied.reason}”</span>
        ) : (
          <span> The model was told.</span>
        )}
      </div>
    );
  }
  if (quitTaskStatus !== undefined) {
    return (
      <div className="tool-result tool-result-stopped" role="note">
        <strong>Berth quit while this call’s task ran.</strong> <span>{QUIT_TASK_WORDS[quitTaskStatus]}</span>{' '}
        <span>The model was told the call did not finish.</span>
      </div>
    );
  }
  if (isStoppedResult(result)) {
    return (
      <div className="tool-result tool-result-stopped" role="note">
        <strong>You stopped this call before it finished.</strong> <span>The model was told.</span>
      </div>
    );
  }
  if (taskCancelled) {
    return (
      <div className="tool-result tool-result-stopped" role="note">
        <strong>Its task was cancelled before it finished.</strong> <span>The model was told.</span>
      </div>
    );
  }
  return null;
}
