import { useCallback, useEffect, useRef, useState } from 'react';
import type { MethodOutput } from '../../../shared/contract';
import type { RegistryEntry } from '../../../shared/contract/registry';
import { useBerth } from '../../store';
import { translate } from '../../i18n/use-t';
import type { Failure } from '../../../shared/result';

/** Typing pauses this long before a search goes out. */
export const SEARCH_DEBOUNCE_MS = 250;
const PAGE_SIZE = 20;

export interface SearchState {
  status: 'loading' | 'done' | 'error';
  servers: RegistryEntry[];
  nextCursor?: string | undefined;
  /** Cached results are shown: why, and from when. */
  notice?: string | undefined;
  fetchedAt?: number | undefined;
  skipped: number;
  /** Kept as the failure, worded where shown (a language switch re-words it). */
  error?: Failure | undefined;
  loadingMore: boolean;
}

const INITIAL: SearchState = { status: 'loading', servers: [], skipped: 0, loadingMore: false };

/**
 * Search as you type: debounced, and an answer to a query the person has
 * since changed is dropped (only the newest request's answer is shown), so
 * results never jump back to an older query. "More" follows the cursor.
 */
export function useRegistrySearch(registry: string | undefined, query: string) {
  const transport = useBerth((s) => s.appsTransport);
  const [state, setState] = useState<SearchState>(INITIAL);
  const generation = useRef(0);
  const [retries, setRetries] = useState(0);

  useEffect(() => {
    if (registry === undefined) return;
    const mine = ++generation.current;
    setState((current) => ({ ...current, status: 'loading', error: undefined }));
    const timer = setTimeout(() => {
      void transport.call('registry.search', { registry, query, limit: PAGE_SIZE }).then((result) => {
        if (mine !== generation.current) return;
        if (!result.ok) setState({ ...INITIAL, status: 'error', error: result });
        else setState(fromAnswer(result.value, []));
      });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [transport, registry, query, retries]);

  const loadMore = useCallback(() => {
    const cursor = state.nextCursor;
    if (registry === undefined || cursor === undefined || state.loadingMore) return;
    const mine = generation.current;
    setState((current) => ({ ...current, loadingMore: true }));
    void transport.call('registry.search', { registry, query, cursor, limit: PAGE_SIZE }).then((result) => {
      if (mine !== generation.current) return;
      if (!result.ok) setState((current) => ({ ...current, loadingMore: false, error: result }));
      else setState((current) => fromAnswer(result.value, current.servers));
    });
  }, [transport, registry, query, state.nextCursor, state.loadingMore]);

  const retry = useCallback(() => setRetries((count) => count + 1), []);
  return { state, loadMore, retry };
}

function fromAnswer(answer: MethodOutput<'registry.search'>, before: RegistryEntry[]): SearchState {
  return {
    status: 'done',
    servers: [...before, ...answer.servers],
    nextCursor: answer.nextCursor,
    notice: answer.notice,
    fetchedAt: answer.fromCache ? answer.fetchedAt : undefined,
    skipped: answer.skipped,
    loadingMore: false,
  };
}

/** "3 minutes ago", for the age of cached results. */
export function ageText(fetchedAt: number, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - fetchedAt) / 60_000));
  if (minutes < 1) return translate('discover.age.justNow');
  if (minutes < 60) return translate('discover.age.minutes', { count: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return translate('discover.age.hours', { count: hours });
  return translate('discover.age.days', { count: Math.round(hours / 24) });
}
