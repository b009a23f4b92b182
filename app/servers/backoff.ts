import type { ServerConfig } from '../../shared/domain/server';

/** The restart part of a server's config. */
export type RestartPolicy = ServerConfig['restart'];

/**
 * Spreads restarts of many servers that crashed together (e.g. after the
 * machine woke up) so they do not all hit the disk at once. Gets the plain
 * delay, returns the delay to use; injected so tests stay deterministic.
 */
export type Jitter = (delayMs: number) => number;

/**
 * Delay before automatic restart number `attempt` (1-based): `initialDelayMs`
 * doubling each time, never above `maxDelayMs`.
 */
export function restartDelayMs(attempt: number, policy: RestartPolicy, jitter?: Jitter): number {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`restart attempt must be a positive integer, got ${attempt}`);
  }
  const ceiling = Math.max(policy.maxDelayMs, policy.initialDelayMs);
  // Cap the exponent: 2 ** 1100 is Infinity, and the ceiling is reached long before.
  const doubled = policy.initialDelayMs * 2 ** Math.min(attempt - 1, 40);
  const delay = Math.min(doubled, ceiling);
  if (jitter === undefined) return delay;
  const jittered = jitter(delay);
  return Number.isFinite(jittered) ? Math.max(0, Math.round(jittered)) : delay;
}

/**
 * Whether the supervisor should stop restarting after `consecutiveRestarts`
 * restarts in a row that did not lead to a stable run.
 */
export function shouldGiveUp(consecutiveRestarts: number, policy: RestartPolicy): boolean {
  return !policy.enabled || consecutiveRestarts >= policy.maxRestarts;
}

/** A jitter of ±`ratio` (e.g. 0.2 → ±20 %) drawn from `random` (default Math.random). */
export function proportionalJitter(ratio: number, random: () => number = Math.random): Jitter {
  return (delayMs) => delayMs * (1 + ratio * (random() * 2 - 1));
}

/** What one crash leads to: the crashed state's `reason`, and the restart to schedule, if any. */
export interface CrashOutcome {
  reason: string;
  /** Berth stops restarting this server (the server's log says so too). */
  gaveUp: boolean;
  restart?: { attempt: number; delayMs: number };
}

/** The restart policy applied to a crash after `restartCount` restarts in a row: restart off, give up, or restart after a delay. */
export function afterCrash(reason: string, restartCount: number, policy: RestartPolicy, jitter?: Jitter): CrashOutcome {
  if (!policy.enabled || policy.maxRestarts === 0)
    return { reason: `${reason} (automatic restart is off)`, gaveUp: false };
  if (shouldGiveUp(restartCount, policy))
    return {
      reason: `gave up after ${restartCount} ${restartCount === 1 ? 'restart' : 'restarts'}: ${reason}`,
      gaveUp: true,
    };
  const attempt = restartCount + 1;
  return { reason, gaveUp: false, restart: { attempt, delayMs: restartDelayMs(attempt, policy, jitter) } };
}
