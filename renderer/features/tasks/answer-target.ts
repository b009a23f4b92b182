import type { PendingRequest } from '../../../shared/domain/pending';
import { useBerth } from '../../store';

/**
 * The waiting request that "Answer" opens for a task or a tool call: the one
 * the host named (`waitingFor`), else a question (not the call's own consent)
 * raised inside the same tool call. Undefined when nothing waits.
 */
export function answerTarget(
  pending: readonly PendingRequest[],
  waitingFor: string | undefined,
  toolUseId: string | undefined,
): string | undefined {
  if (waitingFor !== undefined) return waitingFor;
  if (toolUseId === undefined) return undefined;
  return pending.find((request) => request.kind !== 'tool-call' && request.toolUseId === toolUseId)?.id;
}

export function useAnswerTarget(waitingFor: string | undefined, toolUseId: string | undefined): string | undefined {
  return useBerth((s) => answerTarget(s.pending, waitingFor, toolUseId));
}
