import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type FocusEvent } from 'react';
import type { Conversation } from '../../../shared/domain/chat';
import { turnUsages } from '../../../shared/domain/chat-usage';
import type { LiveTurn } from '../../store';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { PlayIcon, RestartIcon, WarningIcon } from '../../ui/icons';
import { buildTimeline, stopReasonNote, type AssistantPart, type TimelineItem } from './chat-model';
import { versionMarks } from '../../../shared/domain/chat-versions';
import { liveCallsOfRow, LiveReplyRow, MessageRow, rowFollowsRunning } from './message-rows';
import { recallScroll, rememberScroll } from './scroll-memory';
import { useToolCardFocus } from './tool-card-focus';
import { useMessageFocus } from './message-focus';
import { useT } from '../../i18n/use-t';
import { HostMessageText } from '../../i18n/host-message';
import { ChatErrorActionButton } from './chat-error-action-button';

/** Within this many pixels of the bottom, new text keeps the view pinned to the end. */
const STICK_PX = 80;
/** The space between rows (the list's former flex gap, `--space-4`). */
const ROW_GAP = 16;
/** Rows rendered beyond each edge of the viewport. */
const OVERSCAN = 6;
/** A scroll this soon (ms) after the person's wheel, touch, pointer or key counts as theirs. */
const PERSON_SCROLL_MS = 1_000;
/** The key of the row that shows the reply being written. */
const LIVE_ROW_KEY = 'live-reply';

/** A first guess at a row's height, until it is measured. */
function estimateRowHeight(item: TimelineItem | undefined): number {
  if (!item) return 48;
  if (item.kind === 'person') return 48 + (item.attachments.length > 0 ? 40 : 0);
  if (item.kind === 'task-result') return item.copy ? 32 : 140;
  return Math.max(
    48,
    item.parts.reduce(
      (height, part) => height + (part.kind === 'text' ? 24 + Math.ceil(part.text.length / 90) * 26 : 120),
      0,
    ),
  );
}

/**
 * The conversation: person messages, replies in Markdown, tool-call cards, and the reply being streamed.
 *
 * Virtualized: only the rows near the viewport are in the DOM (plus the one holding keyboard focus),
 * each measured as it renders. So the browser's own find-in-page only finds text in rendered rows;
 * a person scrolls to older messages to find their text.
 */
export function MessageList({ conversation, live }: { conversation: Conversation; live: LiveTurn | undefined }) {
  const t = useT();
  const all = useMemo(() => buildTimeline(conversation.messages), [conversation.messages]);
  // Each finished answer's cost, under its last message; the running turn's shows once it ends.
  const usages = useMemo(() => turnUsages(conversation.messages), [conversation.messages]);
  const versions = useMemo(() => versionMarks(conversation), [conversation]);
  // The compaction (or drop) belongs to the last row it left out (a tool round's results have no row of their own).
  const cut = useBerth((s) => s.contextFills[conversation.id]?.cut);
  const cutAt = useMemo(() => {
    if (cut === undefined) return undefined;
    const through = conversation.messages.findIndex((message) => message.id === cut.throughMessageId);
    const ids = new Set(conversation.messages.slice(0, through + 1).map((message) => message.id));
    return all.findLast((item) => ids.has(item.message.id))?.message.id;
  }, [cut, conversation.messages, all]);
  // Folded by default, as Claude Desktop does: the block stands in for the rows it left out, shown on demand.
  const [originalsShown, setOriginalsShown] = useState(false);
  const cutIndex = cutAt === undefined ? -1 : all.findIndex((item) => item.message.id === cutAt);
  const folded = cutIndex >= 0 && !originalsShown;
  const items = useMemo(() => (folded ? all.slice(cutIndex) : all), [all, folded, cutIndex]);
  const lastPersonItem = useMemo(() => items.findLastIndex((item) => item.kind === 'person'), [items]);
  const scroller = useRef<HTMLDivElement>(null);
  // Read once: where the person left this conversation (the list remounts per conversation).
  const [saved] = useState(() => recallScroll(conversation.id));
  const stuck = useRef(saved?.stuck ?? true);
  const lastTop = useRef(saved?.offset ?? 0);
  // After a toggle, the block stays in view: the originals open above it, to be scrolled up to.
  const revealCut = useRef(false);
  const toggleOriginals = useCallback(() => {
    stuck.current = false;
    revealCut.current = true;
    setOriginalsShown((shown) => !shown);
  }, []);
  // "Show in chat" for a tool call the fold hides: show the originals, then the card is scrolled to.
  const focusTarget = useBerth((s) =>
    s.toolCardFocus?.conversationId === conversation.id ? s.toolCardFocus.toolUseId : undefined,
  );
  useEffect(() => {
    if (!folded || focusTarget === undefined) return;
    const hidden = all.slice(0, cutIndex + 1);
    if (hidden.some((item) => item.kind === 'assistant' && item.parts.some((p) => callOf(p) === focusTarget)))
      setOriginalsShown(true);
  }, [folded, focusTarget, all, cutIndex]);
  const running = live?.running === true;
  const draft = running ? live.draft : '';
  const showLiveRow = running && (draft !== '' || !hasActiveTool(live));
  const count = items.length + (showLiveRow ? 1 : 0);
  const canRetry = !running && items.length > 0 && items.some((i) => i.kind === 'person');
  // A reply that ends the conversation unfinished carries its own mark (stopped, or cut off and why): no second note.
  const unfinished = !running && conversation.messages.at(-1)?.partial !== undefined;
  // A message that got no reply ends the conversation: its mark says why and offers Retry, so no banner or bar repeats it.
  const failedLast = !running && conversation.messages.at(-1)?.failed !== undefined;

  // The row holding keyboard focus stays rendered when scrolled far away, so focus is not lost.
  const [focusedKey, setFocusedKey] = useState<string>();
  const focusedIndex = focusedKey === undefined ? -1 : items.findIndex((item) => item.message.id === focusedKey);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusedIndex < 0 || indexes.includes(focusedIndex)) return indexes;
      return [...indexes, focusedIndex].sort((a, b) => a - b);
    },
    [focusedIndex],
  );
  const getItemKey = useCallback((index: number) => items[index]?.message.id ?? LIVE_ROW_KEY, [items]);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateRowHeight(items[index]),
    getItemKey,
    rangeExtractor,
    overscan: OVERSCAN,
    gap: ROW_GAP,
    ...(saved ? { initialMeasurementsCache: saved.measurements } : {}),
    ...(saved && !saved.stuck ? { initialOffset: saved.offset } : {}),
  });
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (!revealCut.current) return;
    revealCut.current = false;
    const index = items.findIndex((item) => item.message.id === cutAt);
    // Shown: the block ends the originals, at the bottom of the view; folded again: it is the first row.
    if (index >= 0) virtualizer.scrollToIndex(index, { align: folded ? 'start' : 'end' });
  }, [items, cutAt, folded, virtualizer]);
  // "Show in chat" from the Tasks view: scroll to a tool card and focus it.
  useToolCardFocus(conversation.id, items, virtualizer, scroller, stuck);
  useMessageFocus(conversation, items, virtualizer, scroller, stuck);

  // Follow the stream only while the person is at the bottom; scrolling up to read stops it.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && stuck.current) el.scrollTop = el.scrollHeight;
  }, [totalSize, items, draft, live?.thinking, live?.toolCalls, live?.error, running]);

  // Back where the person left it; on leaving, remember where that is.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && saved && !saved.stuck) el.scrollTop = saved.offset;
    return () => {
      rememberScroll(conversation.id, {
        stuck: stuck.current,
        offset: lastTop.current,
        measurements: virtualizer.takeSnapshot(),
      });
    };
  }, [conversation.id, saved, virtualizer]);

  // Only the person unsticks the list: the virtualizer also moves scrollTop (keeping the view
  // steady while rows are measured), and that must not count as scrolling up to read.
  const personScrolledAt = useRef(0);
  const notePersonScrolling = () => {
    personScrolledAt.current = performance.now();
  };
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    const byPerson = performance.now() - personScrolledAt.current < PERSON_SCROLL_MS;
    // Moving up means reading; only reaching the bottom again resumes following.
    if (atBottom) stuck.current = true;
    else if (byPerson && el.scrollTop < lastTop.current) stuck.current = false;
    lastTop.current = el.scrollTop;
  };

  const onFocus = (event: FocusEvent<HTMLOListElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    const index = row ? Number(row.dataset.index) : -1;
    setFocusedKey(items[index]?.message.id);
  };
  const onBlur = (event: FocusEvent<HTMLOListElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusedKey(undefined);
  };

  const virtualRows = virtualizer.getVirtualItems();
  return (
    <div
      ref={scroller}
      className="message-scroller"
      onScroll={onScroll}
      onWheel={notePersonScrolling}
      onTouchMove={notePersonScrolling}
      onPointerDown={notePersonScrolling}
      onKeyDown={notePersonScrolling}
    >
      <ol
        className="message-list virtualized"
        aria-label={t('chat.messages.label')}
        style={{ height: totalSize }}
        onFocus={onFocus}
        onBlur={onBlur}
      >
        {virtualRows.map((row) => {
          const item = items[row.index];
          const placement = { index: row.index, top: row.start, measureRef: virtualizer.measureElement };
          if (!item)
            return (
              <LiveReplyRow
                key={LIVE_ROW_KEY}
                draft={draft}
                thinking={live?.thinking}
                conversationId={conversation.id}
                waiting={live?.waiting}
                {...placement}
              />
            );
          const follows = rowFollowsRunning(item);
          return (
            <MessageRow
              key={item.message.id}
              item={item}
              conversationId={conversation.id}
              running={follows && running}
              liveCalls={liveCallsOfRow(item, live?.toolCalls)}
              usage={running && row.index > lastPersonItem ? undefined : usages.get(item.message.id)}
              {...(item.message.id === cutAt ? { cut, folded, onToggleOriginals: toggleOriginals } : {})}
              nearViewport={isInRange(virtualizer.range, row.index)}
              version={versions.get(item.message.id)}
              model={item.kind === 'assistant' ? conversation.model : undefined}
              {...placement}
            />
          );
        })}
      </ol>
      {!running && !unfinished && !failedLast && live?.error ? (
        <div className="turn-error" role="alert">
          <WarningIcon />
          <div>
            <strong>{t('chat.messages.failed')}</strong>
            <p>
              <HostMessageText message={live.errorMessage} fallback={live.error} />
            </p>
            <ChatErrorActionButton message={live.errorMessage} />
          </div>
        </div>
      ) : null}
      {!running && !unfinished && !live?.error && stopReasonNote(live?.stopReason, t) ? (
        <p className="turn-note">{stopReasonNote(live?.stopReason, t)}</p>
      ) : null}
      {canRetry && (!failedLast || live?.contextFull === true) ? (
        <RetryBar conversationId={conversation.id} contextFull={live?.contextFull === true} unfinished={unfinished} />
      ) : null}
    </div>
  );
}

function callOf(part: AssistantPart): string | undefined {
  return part.kind === 'tool-call' ? part.use.id : undefined;
}

function isInRange(range: { startIndex: number; endIndex: number } | null, index: number): boolean {
  return range !== null && index >= range.startIndex - OVERSCAN && index <= range.endIndex + OVERSCAN;
}

function hasActiveTool(live: LiveTurn | undefined): boolean {
  return Object.values(live?.toolCalls ?? {}).some((call) => call.status !== 'finished');
}

/**
 * Under the last reply: Retry (a new reply in place of the last one), Compact and retry when the conversation outgrew
 * the window, and Continue when the last reply did not finish (the model goes on from where it stopped).
 */
function RetryBar({
  conversationId,
  contextFull,
  unfinished,
}: {
  conversationId: string;
  contextFull: boolean;
  unfinished: boolean;
}) {
  const retryTurn = useBerth((s) => s.retryTurn);
  const compactAndRetry = useBerth((s) => s.compactAndRetry);
  const continueTurn = useBerth((s) => s.continueTurn);
  const t = useT();
  return (
    <div className="retry-bar">
      {unfinished ? (
        <Button
          size="sm"
          variant="primary"
          icon={<PlayIcon />}
          title={t('chat.messages.continueHint')}
          onClick={() => void continueTurn(conversationId)}
        >
          {t('chat.messages.continue')}
        </Button>
      ) : null}
      {contextFull ? (
        <Button size="sm" variant="primary" onClick={() => void compactAndRetry(conversationId)}>
          {t('chat.messages.compactRetry')}
        </Button>
      ) : null}
      <Button
        size="sm"
        variant="ghost"
        icon={<RestartIcon />}
        {...(unfinished ? { title: t('chat.messages.retryPartialHint') } : {})}
        onClick={() => void retryTurn(conversationId)}
      >
        {t('chat.messages.retry')}
      </Button>
    </div>
  );
}
