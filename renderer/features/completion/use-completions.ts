import { useEffect, useRef, useState } from 'react';
import { useBerth } from '../../store';
import {
  CompletionScheduler,
  IDLE_COMPLETION,
  type CompletionQuery,
  type CompletionState,
} from './completion-scheduler';

export { COMPLETION_DEBOUNCE_MS, type CompletionQuery, type CompletionState } from './completion-scheduler';

/**
 * Suggestions for one prompt or resource-template argument as the person
 * types: debounced (~150 ms), newest keystroke wins. Pass `undefined` to stop
 * (field blurred, server without the completions capability).
 */
export function useCompletions(
  query: CompletionQuery | undefined,
  options: { delayMs?: number } = {},
): CompletionState {
  const completeArgument = useBerth((s) => s.completeArgument);
  const [state, setState] = useState<CompletionState>(IDLE_COMPLETION);
  const schedulerRef = useRef<CompletionScheduler | undefined>(undefined);
  const delayMs = options.delayMs;

  useEffect(() => {
    const scheduler = new CompletionScheduler({
      complete: completeArgument,
      onState: setState,
      ...(delayMs !== undefined ? { delayMs } : {}),
    });
    schedulerRef.current = scheduler;
    return () => scheduler.cancel();
  }, [completeArgument, delayMs]);

  // One string stands for the whole query, so a new object with the same content does not re-ask.
  const key =
    query === undefined ? undefined : JSON.stringify([query.server, query.ref, query.argument, query.context ?? {}]);
  const queryRef = useRef(query);
  queryRef.current = query;
  useEffect(() => {
    const scheduler = schedulerRef.current;
    const current = queryRef.current;
    if (scheduler === undefined) return;
    if (key === undefined || current === undefined) {
      scheduler.cancel();
      setState(IDLE_COMPLETION);
      return;
    }
    scheduler.request(current);
  }, [key]);

  return state;
}
