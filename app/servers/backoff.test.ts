import { describe, expect, it } from 'vitest';
import { serverStateReason } from '../../shared/domain/server-state-reasons';
import { afterCrash, proportionalJitter, restartDelayMs, shouldGiveUp } from './backoff';
import type { RestartPolicy } from './backoff';

const policy: RestartPolicy = { enabled: true, maxRestarts: 5, initialDelayMs: 1_000, maxDelayMs: 30_000 };

describe('restartDelayMs', () => {
  it('doubles from initialDelayMs and stops at maxDelayMs', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => restartDelayMs(attempt, policy))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('stays finite for huge attempt numbers', () => {
    expect(restartDelayMs(5_000, policy)).toBe(30_000);
  });

  it('never goes below initialDelayMs when maxDelayMs is smaller', () => {
    expect(restartDelayMs(3, { ...policy, initialDelayMs: 5_000, maxDelayMs: 1_000 })).toBe(5_000);
  });

  it('applies an injected jitter and keeps the result a non-negative integer', () => {
    expect(restartDelayMs(2, policy, (delay) => delay * 1.25)).toBe(2_500);
    expect(restartDelayMs(2, policy, () => -50)).toBe(0);
    expect(restartDelayMs(2, policy, () => Number.NaN)).toBe(2_000);
  });

  it('rejects attempts that are not positive integers', () => {
    expect(() => restartDelayMs(0, policy)).toThrow(RangeError);
    expect(() => restartDelayMs(1.5, policy)).toThrow(/positive integer/);
  });
});

describe('shouldGiveUp', () => {
  it('gives up once maxRestarts consecutive restarts happened', () => {
    expect(shouldGiveUp(4, policy)).toBe(false);
    expect(shouldGiveUp(5, policy)).toBe(true);
  });

  it('always gives up when restarts are disabled or not allowed', () => {
    expect(shouldGiveUp(0, { ...policy, enabled: false })).toBe(true);
    expect(shouldGiveUp(0, { ...policy, maxRestarts: 0 })).toBe(true);
  });
});

describe('proportionalJitter', () => {
  it('spreads within ±ratio of the delay', () => {
    expect(proportionalJitter(0.2, () => 0)(1_000)).toBeCloseTo(800);
    expect(proportionalJitter(0.2, () => 1)(1_000)).toBeCloseTo(1_200);
    expect(proportionalJitter(0.2, () => 0.5)(1_000)).toBeCloseTo(1_000);
  });
});

describe('afterCrash', () => {
  it('restart off, give up, or the next attempt with its delay', () => {
    expect(afterCrash('exited', 0, { ...policy, enabled: false })).toEqual({
      reason: 'exited (automatic restart is off)',
      gaveUp: false,
    });
    expect(afterCrash('exited', 0, { ...policy, maxRestarts: 0 })).toEqual({
      reason: 'exited (automatic restart is off)',
      gaveUp: false,
    });
    expect(afterCrash('exited', 5, policy)).toEqual({ reason: 'gave up after 5 restarts: exited', gaveUp: true });
    expect(afterCrash('exited', 1, { ...policy, maxRestarts: 1 })).toEqual({
      reason: 'gave up after 1 restart: exited',
      gaveUp: true,
    });
    // The state's coded reason is used only while its English is the policy's, word for word.
    expect(serverStateReason('server-state.gave-up', { restarts: 1, reason: 'exited' }).text).toBe(
      'gave up after 1 restart: exited',
    );
    expect(afterCrash('exited', 2, policy, (delay) => delay + 1)).toEqual({
      reason: 'exited',
      gaveUp: false,
      restart: { attempt: 3, delayMs: 4_001 },
    });
  });
});
