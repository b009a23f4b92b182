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

/** The status word, with the restart countdown while `restarting`. */
export function statusLabel(server: Pick<ServerState, 'status' | 'nextRestartAt'>, now: number): string {
  if (server.status === 'restarting' && server.nextRestartAt !== undefined) {
    const seconds = Math.max(0, Math.ceil((server.nextRestartAt - now) / 1000));
    return seconds > 0 ? `Restarting in ${seconds}s` : 'Restarting now';
  }
  return STATUS_WORDS[server.status];
}

export function StatusDot({ status }: { status: ServerStatus }) {
  return <span className={clsx('status-dot', `status-${status}`)} aria-hidden="true" />;
}

/** Dot + word; the word carries the meaning, so colour is never the only cue. */
export function StatusBadge({ server, compact }: { server: Pick<ServerState, 'status' | 'nextRestartAt'>; compact?: boolean }) {
  const now = useNow(server.status === 'restarting');
  return (
    <span className={clsx('status-badge', `status-${server.status}`, compact && 'compact')} data-status={server.status}>
      <StatusDot status={server.status} />
      <span className="status-word">{statusLabel(server, now)}</span>
    </span>
  );
}
