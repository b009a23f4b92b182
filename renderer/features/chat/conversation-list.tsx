import clsx from 'clsx';
import { useId, useState } from 'react';
import type { ConversationSummary } from '../../../shared/domain/chat';
import { useBerth } from '../../store';
import { Button, IconButton } from '../shell/controls';
import { EditIcon, PlusIcon, TrashIcon } from '../shell/icons';

/** “14:05” today, “Mon 14:05” this week, else the date. */
export function formatWhen(time: number, now = Date.now()): string {
  const date = new Date(time);
  const sameDay = new Date(now).toDateString() === date.toDateString();
  if (sameDay) return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (now - time < 6 * 24 * 3600_000) return date.toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
  return date.toLocaleDateString();
}

/** Conversations, newest first: new, open, rename in place, delete (with Undo). */
export function ConversationList({ onNew, creating }: { onNew: () => void; creating: boolean }) {
  const conversations = useBerth((s) => s.conversations);
  const active = useBerth((s) => s.activeConversationId);
  const openConversation = useBerth((s) => s.openConversation);
  const runningIds = useBerth((s) => s.liveTurns);
  const [renaming, setRenaming] = useState<string>();
  const headingId = useId();

  return (
    <section className="conversation-column" aria-labelledby={headingId}>
      <div className="column-head">
        <h2 id={headingId}>Conversations</h2>
        <Button size="sm" variant="primary" icon={<PlusIcon />} onClick={onNew} disabled={creating}>
          New
        </Button>
      </div>
      {conversations.length === 0 ? <p className="sidebar-empty column-empty">No conversations yet.</p> : null}
      <ul className="conversation-list" aria-label="Conversations">
        {conversations.map((conversation) =>
          renaming === conversation.id ? (
            <RenameRow key={conversation.id} conversation={conversation} onDone={() => setRenaming(undefined)} />
          ) : (
            <li key={conversation.id} className={clsx('conversation-item', active === conversation.id && 'active')} data-conversation={conversation.id}>
              <button
                type="button"
                className="conversation-main"
                aria-current={active === conversation.id ? 'true' : undefined}
                onClick={() => void openConversation(conversation.id)}
                onDoubleClick={() => setRenaming(conversation.id)}
              >
                <span className="conversation-title">{conversation.title}</span>
                <span className="conversation-meta">
                  {runningIds[conversation.id]?.running ? <span className="status-dot status-starting" aria-label="replying" /> : null}
                  {formatWhen(conversation.updatedAt)} · {conversation.messageCount} message{conversation.messageCount === 1 ? '' : 's'}
                </span>
              </button>
              <div className="conversation-actions">
                <IconButton label={`Rename “${conversation.title}”`} icon={<EditIcon />} onClick={() => setRenaming(conversation.id)} />
                <DeleteButton conversation={conversation} />
              </div>
            </li>
          ),
        )}
      </ul>
    </section>
  );
}

function DeleteButton({ conversation }: { conversation: ConversationSummary }) {
  const deleteConversation = useBerth((s) => s.deleteConversation);
  return <IconButton label={`Delete “${conversation.title}”`} icon={<TrashIcon />} onClick={() => void deleteConversation(conversation.id)} />;
}

function RenameRow({ conversation, onDone }: { conversation: ConversationSummary; onDone: () => void }) {
  const renameConversation = useBerth((s) => s.renameConversation);
  const [title, setTitle] = useState(conversation.title);
  const [error, setError] = useState<string>();

  async function save() {
    const trimmed = title.trim();
    if (trimmed === conversation.title) return onDone();
    if (trimmed === '') {
      setError('Give the conversation a title');
      return;
    }
    const result = await renameConversation(conversation.id, trimmed);
    if (result.ok) onDone();
    else setError(result.message);
  }

  return (
    <li className="conversation-item renaming">
      <input
        className="input"
        aria-label="Conversation title"
        value={title}
        maxLength={200}
        autoFocus
        onFocus={(e) => e.target.select()}
        aria-invalid={Boolean(error)}
        onChange={(e) => setTitle(e.target.value)}
        onBlur={() => void save()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void save();
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
    </li>
  );
}
