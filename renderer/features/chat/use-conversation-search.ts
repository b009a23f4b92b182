import { useEffect, useState } from 'react';
import type { SearchResult } from '../../../shared/contract/chat';
import { useBerth } from '../../store';

/** How long typing must pause before the host is asked: one search per word, not per keystroke. */
export const SEARCH_DEBOUNCE_MS = 150;
/** Hits asked for: more than the list shows at once. */
const SEARCH_LIMIT = 50;

/** The host's answer for one query; `failed` when it could not answer (the list then matches titles only). */
export interface ConversationSearchState {
  query: string;
  result?: SearchResult;
  failed?: boolean;
}

/**
 * The host's full-text search for what is typed, debounced; an answer that arrives after the query changed is
 * dropped. Empty query: nothing is asked.
 */
export function useConversationSearch(query: string): ConversationSearchState | undefined {
  const searchConversations = useBerth((s) => s.searchConversations);
  const [state, setState] = useState<ConversationSearchState>();
  const trimmed = query.trim();
  useEffect(() => {
    if (trimmed === '') return;
    let current = true;
    const timer = setTimeout(() => {
      void searchConversations(query, SEARCH_LIMIT).then((result) => {
        if (!current) return;
        setState(result.ok ? { query, result: result.value } : { query, failed: true });
      });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // `query` itself (not only trimmed) matters: a trailing space ends the word being typed.
  }, [query, trimmed, searchConversations]);
  return trimmed === '' ? undefined : state;
}
