import { useEffect, useState } from 'react';
import clsx from 'clsx';
import type { InboxEntry } from '../../../shared/domain/mcp-events';
import { useBerth } from '../../store';
import { Button, Chip, EmptyState, InlineAlert } from '../../ui/controls';
import { InboxIcon, TrashIcon } from '../../ui/icons';
import { formatBytes, formatDateTime } from '../../i18n/format';
import { useT } from '../../i18n/use-t';

/** Beyond this the data is folded behind "Show all", as a big tool result is. */
export const INBOX_DATA_PREVIEW = 2_000;

/** The events kept for the person, newest first, with their data as the server's words. */
export function InboxView() {
  const t = useT();
  const inbox = useBerth((s) => s.inbox);
  const unread = useBerth((s) => s.inboxUnread);
  const error = useBerth((s) => s.inboxError);
  const loadInbox = useBerth((s) => s.loadInbox);
  const markRead = useBerth((s) => s.markInboxRead);
  useEffect(() => {
    void loadInbox();
  }, [loadInbox]);

  return (
    <div className="inbox-view">
      <section className="inbox-page" aria-labelledby="inbox-title">
        <header className="inbox-head">
          <h1 id="inbox-title">{t('events.inbox.title')}</h1>
          {unread > 0 ? <Chip tone="accent">{t('events.inbox.unreadCount', { count: unread })}</Chip> : null}
          <div className="spacer" />
          {unread > 0 ? (
            <Button size="sm" onClick={() => void markRead()}>
              {t('events.inbox.markAllRead')}
            </Button>
          ) : null}
        </header>
        {error ? (
          <InlineAlert
            action={
              <Button size="sm" onClick={() => void loadInbox()}>
                {t('events.inbox.retry')}
              </Button>
            }
          >
            {t('events.inbox.readFailed', { error })}
          </InlineAlert>
        ) : null}
        {inbox === undefined ? (
          error ? null : (
            <p className="muted">{t('events.inbox.loading')}</p>
          )
        ) : inbox.length === 0 ? (
          <EmptyState icon={<InboxIcon />} title={t('events.inbox.empty')}>
            <p>{t('events.inbox.emptyWhat')}</p>
            <p>{t('events.inbox.emptyHow')}</p>
          </EmptyState>
        ) : (
          <ul className="inbox-list" aria-label={t('events.inbox.list')}>
            {inbox.map((entry) => (
              <InboxRow key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function InboxRow({ entry }: { entry: InboxEntry }) {
  const t = useT();
  const markRead = useBerth((s) => s.markInboxRead);
  const remove = useBerth((s) => s.removeFromInbox);
  const [whole, setWhole] = useState(false);
  const json = JSON.stringify(entry.data, null, 2);
  const long = json.length > INBOX_DATA_PREVIEW;
  return (
    <li
      className={clsx('inbox-entry', !entry.read && 'unread')}
      aria-label={t('events.inbox.entry', { event: entry.event, server: entry.server })}
    >
      <div className="inbox-entry-head">
        {!entry.read ? <Chip tone="accent">{t('events.inbox.unread')}</Chip> : null}
        <strong>{entry.event}</strong>
        <span className="muted">{entry.server}</span>
        <div className="spacer" />
        <time
          dateTime={new Date(entry.receivedAt).toISOString()}
          title={t('events.inbox.serverTime', { timestamp: entry.timestamp })}
        >
          {t('events.inbox.received', { when: formatDateTime(entry.receivedAt) })}
        </time>
      </div>
      <figure className="inbox-entry-data">
        <figcaption className="field-hint">{t('events.inbox.serverWords')}</figcaption>
        <pre className="mono">{long && !whole ? `${json.slice(0, INBOX_DATA_PREVIEW)}…` : json}</pre>
        {long ? (
          <Button size="sm" variant="ghost" onClick={() => setWhole(!whole)}>
            {whole
              ? t('events.inbox.showLess')
              : t('events.inbox.showAll', { size: formatBytes(new TextEncoder().encode(json).length) })}
          </Button>
        ) : null}
      </figure>
      <div className="inbox-entry-actions">
        {!entry.read ? (
          <Button size="sm" variant="ghost" onClick={() => void markRead([entry.id])}>
            {t('events.inbox.markRead')}
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" icon={<TrashIcon />} onClick={() => void remove([entry.id])}>
          {t('events.inbox.remove')}
        </Button>
      </div>
    </li>
  );
}
