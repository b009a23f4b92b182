import type { HostMessage } from '../../shared/domain/host-message';
import type { CodedText } from '../../shared/domain/host-wording';
import type { LogLevel } from '../../shared/domain/server';
import { errorMessage } from '../../shared/error-message';

/** How long a lost link stays open for the requests already on their way to get their own answer. */
const LOST_GRACE_MS = 2_000;

/** What a LinkWatch needs from its connection. */
export interface WatchedLink {
  /** Ready, and not being closed by Berth: only such a link can be lost. */
  live(): boolean;
  /** A request that shows whether the server is still there and knows the session. */
  ping(): Promise<unknown>;
  /** Why `error` means the link is gone for good (unreachable, session forgotten), or undefined if it does not. */
  lostReason(error: unknown): CodedText | undefined;
  /** Why the link closed while nobody closed it. */
  closedReason(): CodedText;
  log(level: LogLevel, text: string): void;
  /** Tells the connection's listeners (its `lost` event): the reason's English and its code. */
  lost(reason: string, message: HostMessage): void;
  close(): Promise<void>;
}

/**
 * Whether a live link is still there, and what happens when it is not:
 * a remote link is found lost by a request that fails that way, or by a
 * ping after a transport error; any link is lost when it closes by itself.
 * The connection's listeners are told once (the supervisor then reconnects
 * per the restart policy).
 */
export class LinkWatch {
  private lostWith: CodedText | undefined;
  /** A liveness ping after a transport error is running. */
  private checking = false;
  /** Requests sent and not yet answered (see markLost). */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly link: WatchedLink) {}

  /** Why the link went away by itself after it was ready, with its code; undefined while it is there. */
  get lost(): CodedText | undefined {
    return this.lostWith;
  }

  /** Keeps `sent` among the requests on their way until it settles; resolves or rejects as it does. */
  async track<T>(sent: Promise<T>): Promise<T> {
    this.inFlight.add(sent);
    try {
      return await sent;
    } finally {
      this.inFlight.delete(sent);
    }
  }

  /**
   * A remote link broke for good (the server is gone, or forgot our
   * session). The old transport is closed so its stream stops retrying on
   * its own, but only once the requests already on their way have their own
   * answer (within a grace period): closing first would fail them all as
   * "stopped", while a 404 tells that one was never run and may be sent again.
   */
  markLost(reason: CodedText): void {
    if (!this.link.live() || this.lostWith !== undefined) return;
    this.lostWith = reason;
    this.link.log('warning', reason.text);
    this.link.lost(reason.text, reason.hostMessage);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((resolve) => (timer = setTimeout(resolve, LOST_GRACE_MS)));
    Promise.race([Promise.allSettled([...this.inFlight]), grace])
      .then(() => this.link.close())
      .catch((error: unknown) => this.link.log('debug', `closing the lost connection: ${errorMessage(error)}`))
      .finally(() => clearTimeout(timer));
  }

  /**
   * A transport error on a live remote link is not fatal by itself (a
   * replayed stream, one failed GET): a ping tells whether the server can
   * still be reached and still knows the session.
   */
  checkAfterError(): void {
    if (this.checking || this.lostWith !== undefined) return;
    this.checking = true;
    this.link
      .ping()
      .catch((failure: unknown) => {
        const lost = this.link.lostReason(failure);
        if (lost !== undefined) this.markLost(lost);
        else this.link.log('debug', `liveness ping after a transport error: ${errorMessage(failure)}`);
      })
      .finally(() => {
        this.checking = false;
      });
  }

  /** The link closed by itself (the process exited, the server broke it off). */
  closed(): void {
    if (!this.link.live()) return;
    const reason = this.link.closedReason();
    this.lostWith = reason;
    this.link.lost(reason.text, reason.hostMessage);
  }
}
