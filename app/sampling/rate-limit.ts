/** Options for {@linkcode RateLimiter}. */
export interface RateLimitOptions {
  /** Requests allowed in a burst, and refilled per `windowMs` (default 10). */
  capacity?: number;
  /** Default 60_000: `capacity` per minute. */
  windowMs?: number;
  now?: () => number;
}

/** The verdict for one request. */
export type RateVerdict = { ok: true } | { ok: false; retryAfterMs: number };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * One token bucket per key (per server): a burst of `capacity` requests, then
 * `capacity` per window, refilled continuously so a steady caller is not
 * locked out for a whole window.
 */
export class RateLimiter {
  readonly capacity: number;
  readonly windowMs: number;
  private readonly now: () => number;
  private readonly buckets = new Map<string, Bucket>();

  constructor(options: RateLimitOptions = {}) {
    this.capacity = Math.max(1, options.capacity ?? 10);
    this.windowMs = Math.max(1, options.windowMs ?? 60_000);
    this.now = options.now ?? Date.now;
  }

  take(key: string): RateVerdict {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    const refilled = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) * this.capacity) / this.windowMs);
    if (refilled >= 1) {
      this.buckets.set(key, { tokens: refilled - 1, at: now });
      return { ok: true };
    }
    this.buckets.set(key, { tokens: refilled, at: now });
    return { ok: false, retryAfterMs: Math.ceil(((1 - refilled) * this.windowMs) / this.capacity) };
  }

  /** Forget a key (its server was removed). */
  reset(key: string): void {
    this.buckets.delete(key);
  }
}
