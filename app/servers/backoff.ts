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
