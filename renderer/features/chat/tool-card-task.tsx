import type { MessageId } from '../../i18n/message-ids';
import { lazy, Suspense } from 'react';
import { useBerth, type LiveToolCall } from '../../store';
import { useAnswerTarget } from '../tasks/answer-target';

// The card is on the first screen; its task line is not needed until a call
// runs as a task or waits for an answer, so it loads then (a few ms from the
// local host). Keep in step with test-support/preload-lazy-chunks.
const ToolCardTaskLine = lazy(async () => ({ default: (await import('./tool-card-task-line')).ToolCardTaskLine }));

/** What a running card's status chip says while one of its questions waits for the person. */
export const WAITING_FOR_ANSWER = { label: 'chat.call.status.answer', tone: 'warning' } as const satisfies {
  label: MessageId;
  tone: string;
};

/** The waiting request of a call still running, if any: the card's chip and Answer button follow it. */
export function useCallAnswerTarget(live: LiveToolCall | undefined, toolUseId: string): string | undefined {
  const target = useAnswerTarget(live?.waitingFor, toolUseId);
  return live?.status === 'running' ? target : undefined;
}

/**
 * A tool card's task and waiting question, when it has either. The task
 * comes from the live events, else from the task list, so it is still
 * shown after the window was reloaded.
 */
export function ToolCardTask({
  conversationId,
  toolUseId,
  live,
  answerId,
  headAnswers,
}: {
  conversationId: string;
  toolUseId: string;
  live: LiveToolCall | undefined;
  answerId: string | undefined;
  /** The card's head already has an Answer button for the call's question: the task line adds none. */
  headAnswers: boolean;
}) {
  const record = useBerth((s) => s.tasks.find((t) => t.toolUseId === toolUseId && t.conversationId === conversationId));
  if (live?.task === undefined && record === undefined && answerId === undefined) return null;
  return (
    <Suspense fallback={null}>
      <ToolCardTaskLine live={live} record={record} answerId={answerId} headAnswers={headAnswers} />
    </Suspense>
  );
}
