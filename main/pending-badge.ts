import type { Host } from '../app/host/host-types';
import type { MainLog } from './log';

/**
 * The dock/taskbar badge shows how many requests wait for the person (macOS
 * dock, Linux launchers that support Unity counts; elsewhere Electron ignores
 * it and the window title, set by the renderer, carries the count).
 * Returns the unsubscribe function.
 */
export function bindPendingBadge(
  host: Pick<Host, 'subscribe'>,
  setBadgeCount: (count: number) => boolean,
  log: MainLog,
): () => void {
  let shown = -1;
  let warned = false;
  const warnOnce = (message: string): void => {
    if (warned) return;
    warned = true;
    log.warn(message);
  };
  return host.subscribe((topic, payload) => {
    if (topic !== 'pending.changed') return;
    const total = (payload as { counts: { total: number } }).counts.total;
    if (total === shown) return;
    shown = total;
    try {
      if (!setBadgeCount(total)) warnOnce('this desktop shows no badge count; the window title carries it');
    } catch (error) {
      warnOnce(`could not set the badge count: ${String(error)}`);
    }
  });
}
