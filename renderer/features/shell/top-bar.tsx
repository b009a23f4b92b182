import clsx from 'clsx';
import { useBerth, type View } from '../../store';
import type { RendererTransport } from '../../transport';
import { PendingTray } from '../pending/pending-tray';
import { NewConversationButton } from '../chat/chat-view';
import { PaneToggle, usePane } from './panes';
import { useNow } from '../servers/use-now';
import { Button } from '../../ui/controls';
import { WarningIcon } from '../../ui/icons';
import type { MessageId } from '../../i18n/message-ids';
import { useT } from '../../i18n/use-t';

const TITLES = {
  chat: 'shell.view.chat',
  servers: 'shell.view.servers',
  discover: 'shell.view.discover',
  tasks: 'shell.view.tasks',
  inbox: 'events.inbox.title',
  roots: 'shell.view.roots',
  logs: 'shell.view.logs',
  settings: 'shell.view.settings',
} as const satisfies Record<View, MessageId>;

export function TopBar() {
  const t = useT();
  const view = useBerth((s) => s.view);
  const logServer = useBerth((s) => s.logServer);
  const connection = useBerth((s) => s.connection);
  const conversations = usePane('conversations');
  const label = t(
    connection.state === 'open'
      ? 'shell.connection.open'
      : connection.state === 'connecting'
        ? 'shell.connection.connecting'
        : 'shell.connection.lost',
  );
  return (
    <header className="top-bar">
      <PaneToggle pane="sidebar" />
      {view === 'chat' ? <PaneToggle pane="conversations" /> : null}
      {view === 'chat' && conversations.collapsed ? <NewConversationButton /> : null}
      <h1 className="view-title">
        {t(TITLES[view])}
        {view === 'logs' && logServer ? <span className="view-subtitle"> · {logServer}</span> : null}
      </h1>
      <div className="spacer" />
      <PendingTray />
      <span
        className={clsx('connection-pill', `conn-${connection.state}`)}
        role="status"
        data-testid="connection-state"
      >
        <span className="status-dot" aria-hidden="true" />
        {label}
      </span>
    </header>
  );
}

/** Shown while the bridge is down: calls fail fast, and the banner says why and when the next try is. */
export function ConnectionBanner({ transport }: { transport: RendererTransport }) {
  const t = useT();
  const connection = useBerth((s) => s.connection);
  const now = useNow(connection.state === 'lost', 500);
  if (
    connection.state === 'open' ||
    (connection.state === 'connecting' && !connection.everOpened && connection.failedAttempts === 0)
  ) {
    return null;
  }
  const seconds =
    connection.retryAt !== undefined ? Math.max(0, Math.ceil((connection.retryAt - now) / 1000)) : undefined;
  const neverConnected = !connection.everOpened;
  return (
    <div className="banner banner-warning" role="alert" data-testid="connection-banner">
      <WarningIcon />
      <div className="banner-text">
        <strong>{t(neverConnected ? 'shell.banner.neverConnected' : 'shell.banner.lost')}</strong>
        <span>
          {connection.state === 'connecting'
            ? t('shell.banner.reconnecting')
            : seconds !== undefined
              ? t('shell.banner.retryIn', { seconds })
              : t('shell.banner.notRetrying')}{' '}
          {t(neverConnected ? 'shell.banner.neverConnectedHint' : 'shell.banner.lostHint')}
        </span>
      </div>
      {connection.state === 'lost' ? (
        <Button size="sm" onClick={() => transport.connection.retryNow()}>
          {t('shell.banner.retryNow')}
        </Button>
      ) : null}
    </div>
  );
}
