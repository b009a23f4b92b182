import clsx from 'clsx';
import { useBerth } from '../../store';
import type { RendererTransport } from '../../transport';
import { PendingTray } from '../pending/pending-tray';
import { useNow } from '../servers/use-now';
import { Button } from '../../ui/controls';
import { WarningIcon } from '../../ui/icons';

const TITLES = {
  chat: 'Chat',
  servers: 'Servers',
  discover: 'Discover servers',
  tasks: 'Tasks',
  roots: 'Workspace roots',
  logs: 'Logs',
  settings: 'Settings',
} as const;

export function TopBar() {
  const view = useBerth((s) => s.view);
  const logServer = useBerth((s) => s.logServer);
  const connection = useBerth((s) => s.connection);
  const label =
    connection.state === 'open' ? 'Connected' : connection.state === 'connecting' ? 'Connecting…' : 'Disconnected';
  return (
    <header className="top-bar">
      <h1 className="view-title">
        {TITLES[view]}
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
        <strong>{neverConnected ? 'Cannot reach Berth' : 'Connection to Berth lost'}</strong>
        <span>
          {connection.state === 'connecting'
            ? 'Reconnecting…'
            : seconds !== undefined
              ? `Retrying in ${seconds}s.`
              : 'Not retrying.'}{' '}
          {neverConnected
            ? 'Is Berth still running? If it was restarted, open the new address it printed (npm start prints it).'
            : 'Changes you make now are not sent; what you see may be out of date.'}
        </span>
      </div>
      {connection.state === 'lost' ? (
        <Button size="sm" onClick={() => transport.connection.retryNow()}>
          Retry now
        </Button>
      ) : null}
    </div>
  );
}
