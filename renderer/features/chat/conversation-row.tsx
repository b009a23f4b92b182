import clsx from 'clsx';
import { lazy, memo, Suspense, useRef, useState } from 'react';
import type { ConversationSummary } from '../../../shared/domain/chat';
import type { SearchSnippet } from '../../../shared/contract/chat';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { EditIcon, PinIcon, TrashIcon } from '../../ui/icons';
import { formatDateTime } from '../../i18n/format';
import { useT } from '../../i18n/use-t';
import { words, type Words } from '../../i18n/words';
import { WordsText } from '../../i18n/words-text';

const ConversationRowMenu = lazy(() => import('./conversation-row-menu'));
// Only while a search shows where it found its words.
const SearchSnippetText = lazy(async () => ({ default: (await import('./search-snippet')).SearchSnippetText }));

// In the active locale; format.ts keeps one formatter per locale and options (making them per row cost more than the rest of the row).
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
const WEEKDAY: Intl.DateTimeFormatOptions = { weekday: 'short', hour: '2-digit', minute: '2-digit' };
const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric' };

/** “14:05” today, “Mon 14:05” this week, else the date. */
export function formatWhen(time: number, now = Date.now()): string {
  const date = new Date(time);
  const today = new Date(now);
  const sameDay =
    date.getFullYear() === today.getFullYear() &&
    date.getMonth() === today.getMonth() &&
    date.getDate() === today.getDate();
  if (sameDay) return formatDateTime(date, TIME);
  if (now - time < 6 * 24 * 3600_000) return formatDateTime(date, WEEKDAY);
  return formatDateTime(date, DATE);
}

export interface ConversationRowProps {
  conversation: ConversationSummary;
  index: number;
  active: boolean;
  running: boolean;
  /** Where a search found its words in this conversation's messages. */
  snippet?: SearchSnippet | undefined;
  onOpen: (id: string) => void;
  onRename: (id: string) => void;
  onDelete: (id: string) => void;
  onPin: (id: string, pinned: boolean) => void;
}

/**
 * One conversation. Memoized: a row re-renders only when its own summary,
 * selection or running state changes. Its icon buttons carry a native title,
 * not a tooltip component, to keep a row cheap.
 */
export const ConversationRow = memo(function ConversationRow({
  conversation,
  index,
  active,
  running,
  snippet,
  onOpen,
  onRename,
  onDelete,
  onPin,
}: ConversationRowProps) {
  const t = useT();
  const { id, title, updatedAt, messageCount } = conversation;
  const pinned = conversation.pinned === true;
  const pinLabel = pinned ? t('chat.row.unpin') : t('chat.row.pin');
  const [menuAt, setMenuAt] = useState<{ x: number; y: number }>();
  return (
    <>
      <div
        className={clsx('conversation-item', active && 'active', pinned && 'pinned')}
        data-conversation={id}
        onContextMenu={(event) => {
          event.preventDefault();
          setMenuAt({ x: event.clientX, y: event.clientY });
        }}
        onKeyDown={(event) => {
          // The keyboard's way to a context menu: the Menu key or Shift+F10, opened at the row.
          if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
            event.preventDefault();
            const box = event.currentTarget.getBoundingClientRect();
            setMenuAt({ x: box.left + 16, y: box.bottom });
          }
        }}
      >
        <button
          type="button"
          className="conversation-main"
          data-index={index}
          aria-current={active ? 'true' : undefined}
          onClick={() => onOpen(id)}
          onDoubleClick={() => onRename(id)}
        >
          <span className="conversation-title">
            {pinned ? (
              <span className="conversation-pin" title={t('chat.row.pinned')}>
                <PinIcon />
              </span>
            ) : null}
            {title}
          </span>
          {snippet ? (
            <Suspense fallback={null}>
              <SearchSnippetText snippet={snippet} />
            </Suspense>
          ) : null}
          <span className="conversation-meta">
            {running ? <span className="status-dot status-starting" aria-label={t('chat.row.replying')} /> : null}
            {t('chat.row.meta', { when: formatWhen(updatedAt), count: messageCount })}
            {/* Said after the title, where the icon shows before it: rows still read (and are found) by their title. */}
            {pinned ? <span className="sr-only"> · {t('chat.row.pinned')}</span> : null}
          </span>
        </button>
        <div className="conversation-actions">
          <Button
            variant="ghost"
            className="btn-icon"
            aria-label={pinned ? t('chat.row.unpinNamed', { title }) : t('chat.row.pinNamed', { title })}
            aria-pressed={pinned}
            title={t('chat.row.pinShortcut', { action: pinLabel })}
            icon={<PinIcon />}
            onClick={() => onPin(id, !pinned)}
          />
          <Button
            variant="ghost"
            className="btn-icon"
            aria-label={t('chat.row.renameNamed', { title })}
            title={t('chat.row.rename')}
            icon={<EditIcon />}
            onClick={() => onRename(id)}
          />
          <Button
            variant="ghost"
            className="btn-icon"
            aria-label={t('chat.row.deleteNamed', { title })}
            title={t('chat.row.delete')}
            icon={<TrashIcon />}
            onClick={() => onDelete(id)}
          />
        </div>
      </div>
      {menuAt ? (
        <Suspense fallback={null}>
          <ConversationRowMenu
            at={menuAt}
            pinned={pinned}
            onPin={() => onPin(id, !pinned)}
            onRename={() => onRename(id)}
            onDelete={() => onDelete(id)}
            onClose={() => setMenuAt(undefined)}
          />
        </Suspense>
      ) : null}
    </>
  );
});

/** The title in an input; Enter or leaving saves (shown at once, see renameConversation), Escape cancels. */
export function RenameRow({ conversation, onDone }: { conversation: ConversationSummary; onDone: () => void }) {
  const t = useT();
  const renameConversation = useBerth((s) => s.renameConversation);
  const [title, setTitle] = useState(conversation.title);
  const [error, setError] = useState<Words>();
  // Enter saves and closes the row; the blur that can follow must not save twice.
  const finished = useRef(false);

  function save() {
    if (finished.current) return;
    const trimmed = title.trim();
    if (trimmed === conversation.title) return onDone();
    if (trimmed === '') {
      setError(words('chat.row.titleRequired'));
      return;
    }
    // The store shows the new title at once and puts the old one back (with a message) if the host refuses.
    finished.current = true;
    void renameConversation(conversation.id, trimmed);
    onDone();
  }

  return (
    <div className="conversation-item renaming">
      <input
        className="input"
        aria-label={t('chat.row.titleInput')}
        value={title}
        maxLength={200}
        autoFocus
        onFocus={(e) => e.target.select()}
        aria-invalid={Boolean(error)}
        onChange={(e) => setTitle(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          }
        }}
      />
      {error ? (
        <p className="field-error" role="alert">
          <WordsText words={error} />
        </p>
      ) : null}
    </div>
  );
}
