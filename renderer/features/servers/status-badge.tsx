import clsx from 'clsx';
import type { ServerState, ServerStatus } from '../../../shared/domain';
import { useNow } from './use-now';

const STATUS_WORDS: Record<ServerStatus, string> = {
  stopped: 'Stopped',
  starting: 'Starting',
  ready: 'Ready',
  error: 'Error',
  restarting: 'Restarting',
  crashed: 'Crashed',
};

/** What the person sees: a status, or "needs sign-in" for an error that a sign-in fixes. */
export type ShownStatus = ServerStatus | 'needs-sign-in';

/**
 * A start that failed only because the server wants an OAuth sign-in. The
 * status stays `error` (filters and counts treat it as not running); only
 * its presentation changes, since the fix is a sign-in, not a repair.
 */
export function needsSignIn(server: Pick<ServerState, 'status' | 'auth'>): boolean {
  return server.status === 'error' && server.auth?.state === 'needs-sign-in';
}

export function shownStatus(server: Pick<ServerState, 'status' | 'auth'>): ShownStatus {
  return needsSignIn(server) ? 'needs-sign-in' : server.status;
}

/** The status word, with the restart countdown while `restarting`. */
export function statusLabel(server: Pick<ServerState, 'status' | 'nextRestartAt' | 'auth'>, now: number): string {
  if (needsSignIn(server)) return 'Needs sign-in';
  if (server.status === 'restarting' && server.nextRestartAt !== undefined) {
    const seconds = Math.max(0, Math.ceil((server.nextRestartAt - now) / 1000));
    return seconds > 0 ? `Restarting in ${seconds}s` : 'Restarting now';
  }
  return STATUS_WORDS[server.status];
}

export function StatusDot({ status }: { status: ShownStatus }) {
  return <span className={clsx('status-dot', `status-${status}`)} aria-hidden="true" />;
}

/** Dot + word; the word carries the meaning, so colour is never the only cue. */
export function StatusBadge({
  server,
  compact,
}: {
  server: Pick<ServerState, 'status' | 'nextRestartAt' | 'auth'>;
  compact?: boolean;
}) {
  const now = useNow(server.status === 'restarting');
  const shown = shownStatus(server);
  return (
    <span
      className={clsx('status-badge', `status-${shown}`, compact && 'compact')}
      role="status"
      data-status={server.status}
    >
      <StatusDot status={shown} />
      <span className="status-word">{statusLabel(server, now)}</span>
    </span>
  );
}
