import clsx from 'clsx';
import { memo, useRef, useState } from 'react';
import type { ConversationSummary } from '../../../shared/domain/chat';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { EditIcon, TrashIcon } from '../../ui/icons';

// One formatter each, made once: constructing them per row cost more than the rest of the row.
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const weekdayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'numeric', day: 'numeric' });

/** “14:05” today, “Mon 14:05” this week, else the date. */
export function formatWhen(time: number, now = Date.now()): string {
  const date = new Date(time);
  const today = new Date(now);
  const sameDay =
    date.getFullYear() === today.getFullYear() &&
    date.getMonth() === today.getMonth() &&
    date.getDate() === today.getDate();
  if (sameDay) return timeFormat.format(date);
  if (now - time < 6 * 24 * 3600_000) return weekdayFormat.format(date);
  return dateFormat.format(date);
}

export interface ConversationRowProps {
  conversation: ConversationSummary;
  index: number;
  active: boolean;
  running: boolean;
  onOpen: (id: string) => void;
  onRename: (id: string) => void;
  onDelete: (id: string) => void;
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
  onOpen,
  onRename,
  onDelete,
}: ConversationRowProps) {
  const { id, title, updatedAt, messageCount } = conversation;
  return (
    <div className={clsx('conversation-item', active && 'active')} data-conversation={id}>
      <button
        type="button"
        className="conversation-main"
        data-index={index}
        aria-current={active ? 'true' : undefined}
        onClick={() => onOpen(id)}
        onDoubleClick={() => onRename(id)}
      >
        <span className="conversation-title">{title}</span>
        <span className="conversation-meta">
          {running ? <span className="status-dot status-starting" aria-label="replying" /> : null}
          {formatWhen(updatedAt)} · {messageCount} message{messageCount === 1 ? '' : 's'}
        </span>
      </button>
      <div className="conversation-actions">
        <Button
          variant="ghost"
          className="btn-icon"
          aria-label={`Rename “${title}”`}
          title="Rename"
          icon={<EditIcon />}
          onClick={() => onRename(id)}
        />
        <Button
          variant="ghost"
          className="btn-icon"
          aria-label={`Delete “${title}”`}
          title="Delete"
          icon={<TrashIcon />}
          onClick={() => onDelete(id)}
        />
      </div>
    </div>
  );
});

/** The title in an input; Enter or leaving saves (shown at once, see renameConversation), Escape cancels. */
export function RenameRow({ conversation, onDone }: { conversation: ConversationSummary; onDone: () => void }) {
  const renameConversation = useBerth((s) => s.renameConversation);
  const [title, setTitle] = useState(conversation.title);
  const [error, setError] = useState<string>();
  // Enter saves and closes the row; the blur that can follow must not save twice.
  const finished = useRef(false);

  function save() {
    if (finished.current) return;
    const trimmed = title.trim();
    if (trimmed === conversation.title) return onDone();
    if (trimmed === '') {
      setError('Give the conversation a title');
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
        aria-label="Conversation title"
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
          {error}
        </p>
      ) : null}
    </div>
  );
}
