import { words, type Words } from '../../i18n/words';

/**
 * The per-card budget for what an app sends (requests and notifications):
 * a token bucket that answers "over the limit" to bursts, and a watch that
 * closes an app that keeps pushing past it, so a runaway app can neither
 * flood the host nor freeze the chat.
 */
export interface RequestGateOptions {
  /** Tokens added per second (the sustained rate an app may keep up). */
  ratePerSecond: number;
  /** The bucket's size: how many requests may arrive at once. */
  burst: number;
  /** Refused requests within `abuseWindowMs` that close the app. */
  refusalsToClose: number;
  abuseWindowMs: number;
}

export const DEFAULT_GATE: RequestGateOptions = {
  ratePerSecond: 20,
  burst: 40,
  refusalsToClose: 100,
  abuseWindowMs: 5_000,
};

/** `admit`: go ahead. `refuse`: answer with an error. `close`: tear the app down (it was told `closeReason`). */
export type GateVerdict = { kind: 'admit' } | { kind: 'refuse' } | { kind: 'close'; requests: number; seconds: number };

export interface RequestGate {
  /** One request or notification from the app at `now` (ms). */
  check(now: number): GateVerdict;
}

export function createRequestGate(options: RequestGateOptions = DEFAULT_GATE): RequestGate {
  let tokens = options.burst;
  let refilledAt: number | undefined;
  // Times of recent requests and refusals, oldest first, trimmed to the abuse window.
  const requests: number[] = [];
  const refusals: number[] = [];
  let closed: GateVerdict | undefined;

  const trim = (times: number[], now: number) => {
    while (times.length > 0 && times[0]! <= now - options.abuseWindowMs) times.shift();
  };

  return {
    check(now) {
      if (closed) return closed;
      if (refilledAt !== undefined)
        tokens = Math.min(options.burst, tokens + ((now - refilledAt) / 1000) * options.ratePerSecond);
      refilledAt = now;
      requests.push(now);
      trim(requests, now);
      if (tokens >= 1) {
        tokens -= 1;
        return { kind: 'admit' };
      }
      refusals.push(now);
      trim(refusals, now);
      if (refusals.length < options.refusalsToClose) return { kind: 'refuse' };
      const seconds = Math.max(1, Math.ceil((now - requests[0]!) / 1000));
      closed = { kind: 'close', requests: requests.length, seconds };
      return closed;
    },
  };
}

/** What the card says when the gate closed an app, worded where it is shown. */
export function closedNote(requests: number, seconds: number): Words {
  return words('apps.gate.closed', { requests: String(requests), seconds });
}
