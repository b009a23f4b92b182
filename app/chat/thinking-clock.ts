/**
 * How long each reasoning block of one reply streamed, measured by Berth (providers do not say): a block
 * starts with its first thinking delta and ends when anything else streams (text, a tool call) or the
 * reply ends. The n-th measured span belongs to the reply's n-th thinking block.
 */
export class ThinkingClock {
  private readonly spans: number[] = [];
  private startedAt: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** A thinking delta arrived (or a hidden block began). */
  thinking(): void {
    this.startedAt ??= this.now();
  }

  /** Something other than thinking streamed: the running block, if any, is over. */
  other(): void {
    if (this.startedAt === undefined) return;
    this.spans.push(Math.max(0, Math.round(this.now() - this.startedAt)));
    this.startedAt = undefined;
  }

  /** Each block's duration in ms, in order, once the reply has ended. */
  finish(): readonly number[] {
    this.other();
    return this.spans;
  }
}
