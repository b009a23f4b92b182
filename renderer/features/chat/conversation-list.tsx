import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import type { Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { PlusIcon } from '../../ui/icons';
import { ConversationRow, RenameRow } from './conversation-row';
import { useT } from '../../i18n/use-t';
import type { SearchSnippet } from '../../../shared/contract/chat';
import type { ConversationSummary } from '../../../shared/domain/chat';
import { useConversationSearch } from './use-conversation-search';

export { formatWhen } from './conversation-row';

/** Every row is this tall (title and one meta line); the rename row is taller for its error line. */
export const CONVERSATION_ROW_HEIGHT = 54;
const RENAME_ROW_HEIGHT = 76;
/** A search hit's row: two more lines for the snippet. */
export const SNIPPET_ROW_HEIGHT = 92;
/** Where the list was scrolled, kept across leaving Chat and coming back. */
let keptScrollTop = 0;

/** The conversations whose title contains `query` (any case); `lowerTitles[i]` is the lower-cased title of `conversations[i]`. */
export function filterByTitle<T>(
  conversations: readonly T[],
  lowerTitles: readonly string[],
  query: string,
): readonly T[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return conversations;
  return conversations.filter((_, index) => lowerTitles[index]!.includes(needle));
}

/**
 * What a search shows: the host's full-text hits first (best first, each with its snippet), then titles that hold
 * the query anywhere (inside a word too) and were not hits. Hits the list no longer holds are skipped.
 */
export function mergeSearch(
  hits: readonly { id: string; snippet?: SearchSnippet | undefined }[],
  byId: ReadonlyMap<string, ConversationSummary>,
  titleMatches: readonly ConversationSummary[],
): { shown: ConversationSummary[]; snippets: Map<string, SearchSnippet> } {
  const shown: ConversationSummary[] = [];
  const snippets = new Map<string, SearchSnippet>();
  const taken = new Set<string>();
  for (const hit of hits) {
    const summary = byId.get(hit.id);
    if (summary === undefined || taken.has(hit.id)) continue;
    taken.add(hit.id);
    shown.push(summary);
    if (hit.snippet !== undefined) snippets.set(hit.id, hit.snippet);
  }
  for (const summary of titleMatches) if (!taken.has(summary.id)) shown.push(summary);
  return { shown, snippets };
}

const NO_SNIPPETS: ReadonlyMap<string, SearchSnippet> = new Map();

/** Ids of the conversations replying now: a short array, compared by content, so token events do not re-render the list. */
function useRunningIds(): ReadonlySet<string> {
  const ids = useBerth(useShallow((s) => Object.keys(s.liveTurns).filter((id) => s.liveTurns[id]!.running)));
  return useMemo(() => new Set(ids), [ids]);
}

/**
 * Conversations, pinned first, then newest first: new, pin (button, context menu, Alt+P), search (every message, through the host's index, and titles), open, rename
 * in place, delete (with Undo). Virtualized: only the rows in view (and the focused one)
 * are in the DOM, so 5,000 conversations cost what 30 do.
 */
export function ConversationList({ onNew, creating }: { onNew: () => void; creating: boolean }) {
  const t = useT();
  const conversations = useBerth((s) => s.conversations);
  const active = useBerth((s) => s.activeConversationId);
  const openConversation = useBerth((s) => s.openConversation);
  const deleteConversation = useBerth((s) => s.deleteConversation);
  const setPinned = useBerth((s) => s.setConversationPinned);
  const running = useRunningIds();
  const [renaming, setRenaming] = useState<string>();
  const [query, setQuery] = useState('');
  const [focusIndex, setFocusIndex] = useState<number>();
  const headingId = useId();
  const scrollRef = useRef<HTMLDivElement>(null);

  // Lower-cased once per list change while searching, so each keystroke is one pass of `includes`;
  // not at all otherwise, so a saved message (a list change) costs no pass over 5,000 titles.
  const searching = query.trim() !== '';
  const lowerTitles = useMemo(
    () => (searching ? conversations.map((conversation) => conversation.title.toLowerCase()) : []),
    [conversations, searching],
  );
  const titleMatches = useMemo(
    () => filterByTitle(conversations, lowerTitles, query),
    [conversations, lowerTitles, query],
  );
  // The host's answer counts only for what is typed now: until it comes, titles alone are shown.
  const hostSearch = useConversationSearch(query);
  const answered = hostSearch !== undefined && hostSearch.query.trim() === query.trim() ? hostSearch : undefined;
  const byId = useMemo(
    () =>
      answered?.result ? new Map(conversations.map((conversation) => [conversation.id, conversation])) : undefined,
    [conversations, answered?.result],
  );
  const { shown, snippets } = useMemo(
    () =>
      answered?.result && byId
        ? mergeSearch(answered.result.hits, byId, titleMatches)
        : { shown: titleMatches, snippets: NO_SNIPPETS },
    [answered?.result, byId, titleMatches],
  );

  const getItemKey = useCallback((index: number) => shown[index]!.id, [shown]);
  // The focused row stays rendered when scrolled away, so focus is never lost to a removed node.
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusIndex === undefined || focusIndex >= range.count || indexes.includes(focusIndex)) return indexes;
      return [...indexes, focusIndex].sort((a, b) => a - b);
    },
    [focusIndex],
  );
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const id = shown[index]?.id;
      if (id === renaming) return RENAME_ROW_HEIGHT;
      return id !== undefined && snippets.has(id) ? SNIPPET_ROW_HEIGHT : CONVERSATION_ROW_HEIGHT;
    },
    getItemKey,
    rangeExtractor,
    overscan: 8,
    initialOffset: () => keptScrollTop,
  });
  useLayoutEffect(() => virtualizer.measure(), [renaming, snippets, virtualizer]);

  // Arrow keys move focus row by row; the row is scrolled into view first, then focused once rendered.
  // Only after a key press: a list update must never pull focus from wherever the person is typing.
  const focusPending = useRef(false);
  useEffect(() => {
    if (!focusPending.current || focusIndex === undefined) return;
    const button = scrollRef.current?.querySelector<HTMLButtonElement>(
      `.conversation-main[data-index="${focusIndex}"]`,
    );
    if (!button) return;
    focusPending.current = false;
    button.focus();
  });
  const focusRow = (index: number) => {
    focusPending.current = true;
    setFocusIndex(index);
    virtualizer.scrollToIndex(index, { align: 'auto' });
  };
  const moveFocus = (event: KeyboardEvent<HTMLElement>) => {
    const from = Number((event.target as HTMLElement).dataset.index ?? -1);
    // Alt+P pins or unpins the focused row (by key position: on a Mac, Alt+P types “π”).
    if (event.altKey && event.code === 'KeyP' && from >= 0) {
      const conversation = shown[from];
      if (conversation === undefined) return;
      event.preventDefault();
      void setPinned(conversation.id, conversation.pinned !== true);
      return;
    }
    const last = shown.length - 1;
    const to = { ArrowDown: from + 1, ArrowUp: from - 1, Home: 0, End: last }[event.key];
    if (to === undefined || last < 0 || (from < 0 && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    focusRow(Math.max(0, Math.min(last, to)));
  };

  const onRename = useCallback((id: string) => setRenaming(id), []);
  const openConversationAt = useBerth((s) => s.openConversationAt);
  // A hit in a message opens the conversation at that message; a title hit (or no search) at its end.
  const onOpen = useCallback(
    (id: string) => {
      const messageId = snippets.get(id)?.messageId;
      void (messageId === undefined ? openConversation(id) : openConversationAt(id, messageId));
    },
    [openConversation, openConversationAt, snippets],
  );
  const onDelete = useCallback((id: string) => void deleteConversation(id), [deleteConversation]);
  const onPin = useCallback((id: string, pinned: boolean) => void setPinned(id, pinned), [setPinned]);

  return (
    <section className="conversation-column" aria-labelledby={headingId}>
      <div className="column-head">
        <h2 id={headingId}>{t('chat.list.heading')}</h2>
        <Button size="sm" variant="primary" icon={<PlusIcon />} onClick={onNew} disabled={creating}>
          {t('chat.list.new')}
        </Button>
      </div>
      {conversations.length > 0 ? (
        <div className="conversation-search">
          <input
            className="input"
            type="search"
            aria-label={t('chat.list.search')}
            placeholder={t('chat.list.searchPlaceholder')}
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setFocusIndex(undefined);
              virtualizer.scrollToOffset(0);
            }}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown' && shown.length > 0) {
                event.preventDefault();
                focusRow(0);
              } else if (event.key === 'Escape' && query !== '') {
                event.preventDefault();
                setQuery('');
              }
            }}
          />
        </div>
      ) : null}
      {conversations.length === 0 ? <p className="sidebar-empty column-empty">{t('chat.list.none')}</p> : null}
      {searching && answered?.failed ? (
        <p className="conversation-search-note" role="status">
          {t('chat.list.searchFailed')}
        </p>
      ) : null}
      {searching && answered?.result?.complete === false ? (
        <p className="conversation-search-note" role="status">
          {t('chat.list.indexing')}
        </p>
      ) : null}
      {conversations.length > 0 && shown.length === 0 && answered === undefined ? (
        <p className="conversation-search-note" role="status">
          {t('chat.list.searching')}
        </p>
      ) : null}
      {conversations.length > 0 && shown.length === 0 && answered !== undefined ? (
        <div className="column-empty conversation-search-empty" role="status">
          <p>{t('chat.list.noMatch', { query: query.trim() })}</p>
          <Button size="sm" onClick={() => setQuery('')}>
            {t('chat.list.clearSearch')}
          </Button>
        </div>
      ) : null}
      <div
        ref={scrollRef}
        className="conversation-scroll"
        data-testid="conversation-scroll"
        onScroll={(event) => {
          keptScrollTop = event.currentTarget.scrollTop;
        }}
      >
        <ul
          className="conversation-list"
          aria-label={t('chat.list.heading')}
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={moveFocus}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const conversation = shown[item.index]!;
            return (
              <li
                key={item.key}
                className="conversation-slot"
                style={{ transform: `translateY(${item.start}px)`, height: item.size }}
                aria-setsize={shown.length}
                aria-posinset={item.index + 1}
                onFocus={() => setFocusIndex(item.index)}
              >
                {renaming === conversation.id ? (
                  <RenameRow conversation={conversation} onDone={() => setRenaming(undefined)} />
                ) : (
                  <ConversationRow
                    conversation={conversation}
                    index={item.index}
                    active={active === conversation.id}
                    running={running.has(conversation.id)}
                    snippet={snippets.get(conversation.id)}
                    onOpen={onOpen}
                    onRename={onRename}
                    onDelete={onDelete}
                    onPin={onPin}
                  />
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
