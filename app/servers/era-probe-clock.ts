/**
 * How long a stdio server's `server/discover` probe may stay unanswered once
 * the server shows it runs (its first output), before Berth gives up and
 * speaks `initialize` to it.
 */
export const PROBE_QUIET_MS = 10_000;

/**
 * Without any output, the share of the start-up time the probe may take: a
 * silent server may still be loading (a loaded machine, an `npx -y`
 * download), and the rest of the time is kept for `initialize` and tools/list.
 */
const SILENT_SHARE = 2 / 3;

// npm's own lines while `npx -y` installs the package: they say the server has not started yet.
const INSTALLER_LINE = /^npm (?:warn|notice|info|http|WARN|ERR!)\b/;

/** Options for {@linkcode EraProbeClock}. */
export interface EraProbeClockOptions {
  /** See PROBE_QUIET_MS. */
  quietMs: number;
  /** The time the whole start may still take. */
  startupMs: number;
  /** The probe with this id is given up on: the connection ends it as unanswered. */
  giveUp: (id: string | number, waitedMs: number) => void;
  now?: () => number;
}

/**
 * The clock of the era probe on stdio. The SDK's own probe limit counts from
 * the spawn, so on a loaded machine a server that was still starting counted
 * as legacy; this one counts from the server's first output (npm's install
 * lines do not count), and without output it waits most of the start-up time.
 * Only a server's answer is evidence of its era: `timedOut` says the probe got
 * none, so the legacy fallback that follows is not remembered.
 */
export class EraProbeClock {
  private probeId: string | number | undefined;
  private sentAt: number | undefined;
  private firstOutputAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private givenUp = false;
  /** Answered, given up on, or stopped: the clock does not run again. */
  private settled = false;
  private readonly now: () => number;

  constructor(private readonly options: EraProbeClockOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The probe got no answer before Berth gave up on it. */
  get timedOut(): boolean {
    return this.givenUp;
  }

  /** A `server/discover` request went out. */
  sent(id: string | number): void {
    // A second probe (the SDK's corrective retry) gets the clock afresh; one given up on ends the probing.
    if (this.givenUp) return;
    this.probeId = id;
    this.sentAt = this.now();
    this.settled = false;
    this.arm();
  }

  /** The server wrote a line (stderr or stdout). */
  output(line?: string): void {
    if (this.firstOutputAt !== undefined) return;
    if (line !== undefined && INSTALLER_LINE.test(line.trim())) return;
    this.firstOutputAt = this.now();
    if (this.probeId !== undefined) this.arm();
  }

  /** A response came in: the probe's answer ends the clock. */
  answered(id: string | number): void {
    if (id === this.probeId) this.stop();
  }

  /** The start ended (or the probe went out no more): no timer is left behind. */
  stop(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    const sentAt = this.sentAt;
    if (sentAt === undefined || this.settled) return;
    clearTimeout(this.timer);
    const { quietMs, startupMs } = this.options;
    const silentDeadline = sentAt + Math.max(quietMs, Math.round(startupMs * SILENT_SHARE));
    const deadline =
      this.firstOutputAt === undefined
        ? silentDeadline
        : Math.min(silentDeadline, Math.max(sentAt, this.firstOutputAt) + quietMs);
    this.timer = setTimeout(() => this.fire(), Math.max(0, deadline - this.now()));
  }

  private fire(): void {
    this.timer = undefined;
    const id = this.probeId;
    if (id === undefined || this.sentAt === undefined || this.settled) return;
    this.settled = true;
    this.givenUp = true;
    this.options.giveUp(id, this.now() - this.sentAt);
  }
}
