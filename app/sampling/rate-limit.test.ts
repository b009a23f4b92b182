import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('allows a burst of capacity, then refills continuously per key', () => {
    let now = 0;
    const limiter = new RateLimiter({ capacity: 3, windowMs: 60_000, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([
      { ok: true },
      { ok: true },
      { ok: true },
    ]);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 20_000 });
    expect(limiter.take('b')).toEqual({ ok: true });
    now = 15_000;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 5_000 });
    now = 20_000;
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 20_000 });
    // A long pause refills only up to capacity.
    now = 10 * 60_000;
    expect([1, 2, 3, 4].map(() => limiter.take('a').ok)).toEqual([true, true, true, false]);
    limiter.reset('a');
    expect(limiter.take('a')).toEqual({ ok: true });
  });

  it('defaults to 10 per minute', () => {
    const limiter = new RateLimiter({ now: () => 0 });
    expect(Array.from({ length: 11 }, () => limiter.take('s').ok).filter(Boolean)).toHaveLength(10);
  });
});
