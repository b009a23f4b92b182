import type { PendingRequests } from './pending-requests';
import { withdrawal } from '../../shared/domain/withdrawal';

/** How long pending requests wait for a window to come back before they are withdrawn (browser mode reloads, reconnects). */
export const DEFAULT_CLIENT_GRACE_MS = 30_000;

/**
 * Keeps nothing waiting for a window that is gone: with no window connected
 * for the whole grace period, every pending request is withdrawn, and new
 * ones are refused at once until a window comes back.
 */
export class WindowGrace {
  private graceTimer: NodeJS.Timeout | undefined;
  /** No window has been connected for the whole grace period: new requests are refused at once. */
  private orphaned = false;
  private closed = false;

  /** Subscribes to `pending`: make it after the listeners that announce a request, so a refused one is announced as opened first. */
  constructor(
    private readonly pending: PendingRequests,
    private readonly graceMs = DEFAULT_CLIENT_GRACE_MS,
  ) {
    pending.onChange(({ change }) => {
      if (change.type !== 'opened' || !this.orphaned) return;
      queueMicrotask(() => pending.withdraw(change.request.id, withdrawal('withdrawal.no-window', {})));
    });
  }

  /** How many windows (IPC or WebSocket clients) are connected. */
  clientsChanged(count: number): void {
    if (this.closed) return;
    if (count > 0) {
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
      this.orphaned = false;
      return;
    }
    if (this.graceTimer !== undefined || this.orphaned) return;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      this.orphaned = true;
      this.pending.withdrawAll(withdrawal('withdrawal.window-closed', {}));
    }, this.graceMs);
    this.graceTimer.unref();
  }

  /** Berth is quitting: windows coming and going no longer matter. */
  close(): void {
    this.closed = true;
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }
}
