import clsx from 'clsx';
import type { ServerState, ServerStatus } from '../../../shared/domain';
import { translate, useT, type Translate } from '../../i18n/use-t';
import type { MessageId } from '../../i18n/message-ids';
import { useNow } from './use-now';

const STATUS_WORDS: Record<ServerStatus, MessageId> = {
  stopped: 'servers.status.stopped',
  starting: 'servers.status.starting',
  ready: 'servers.status.ready',
  error: 'servers.status.error',
  restarting: 'servers.status.restarting',
  crashed: 'servers.status.crashed',
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

/** The status word, with the restart countdown while `restarting`; `t` from the caller's useT() follows a language switch. */
export function statusLabel(
  server: Pick<ServerState, 'status' | 'nextRestartAt' | 'auth'>,
  now: number,
  t: Translate = translate,
): string {
  if (needsSignIn(server)) return t('servers.status.needsSignIn');
  if (server.status === 'restarting' && server.nextRestartAt !== undefined) {
    const seconds = Math.max(0, Math.ceil((server.nextRestartAt - now) / 1000));
    return seconds > 0 ? t('servers.status.restartingIn', { seconds }) : t('servers.status.restartingNow');
  }
  return t(STATUS_WORDS[server.status]);
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
  const t = useT();
  const now = useNow(server.status === 'restarting');
  const shown = shownStatus(server);
  return (
    <span
      className={clsx('status-badge', `status-${shown}`, compact && 'compact')}
      role="status"
      data-status={server.status}
    >
      <StatusDot status={shown} />
      <span className="status-word">{statusLabel(server, now, t)}</span>
    </span>
  );
}
