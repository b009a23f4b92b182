import { z } from 'zod';

/**
 * A turn that first answers busy: a rate limit (429) or an overload (Anthropic's 529 `overloaded_error`, an
 * OpenAI-compatible server's 503) for `times` requests, then its content, as the services do under load.
 */
export const BusySchema = z.object({
  times: z.number().int().min(1),
  status: z.union([z.literal(429), z.literal(529), z.literal(503)]).default(429),
  /** The `retry-after` header, in seconds; absent: the service does not say when to come back. */
  retryAfter: z.number().int().min(0).optional(),
  /** The `retry-after-ms` header (OpenAI's), in ms. */
  retryAfterMs: z.number().int().min(0).optional(),
});
export type Busy = z.infer<typeof BusySchema>;

/** How many busy answers each scripted turn has given (a turn stays first in the queue until they are all out). */
export class BusyCounter {
  private readonly given = new WeakMap<object, number>();

  /** True when `turn` answers busy this time: the caller puts it back at the head of the queue. */
  answersBusy(turn: object, busy: Busy | undefined): boolean {
    if (busy === undefined) return false;
    const given = this.given.get(turn) ?? 0;
    if (given >= busy.times) return false;
    this.given.set(turn, given + 1);
    return true;
  }
}

function retryHeaders(busy: Busy): Record<string, string> {
  return {
    ...(busy.retryAfter !== undefined ? { 'retry-after': String(busy.retryAfter) } : {}),
    ...(busy.retryAfterMs !== undefined ? { 'retry-after-ms': String(busy.retryAfterMs) } : {}),
  };
}

/** The Messages API's answer: its error types and words, `retry-after` on a 429, `x-should-retry` as it sends it. */
export function anthropicBusyError(busy: Busy): {
  status: number;
  type: string;
  message: string;
  headers: Record<string, string>;
} {
  if (busy.status === 429)
    return {
      status: 429,
      type: 'rate_limit_error',
      message:
        'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
      headers: { ...retryHeaders(busy), 'anthropic-ratelimit-requests-remaining': '0', 'x-should-retry': 'true' },
    };
  return {
    status: busy.status,
    type: 'overloaded_error',
    message: 'Overloaded',
    headers: { 'x-should-retry': 'true' },
  };
}

/** An OpenAI-compatible server's answer: OpenAI's 429 words, or a 503 of a server still loading the model. */
export function openAiBusyError(busy: Busy): {
  status: number;
  message: string;
  type: string;
  code: string | null;
  headers: Record<string, string>;
} {
  if (busy.status === 429)
    return {
      status: 429,
      message: 'Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again later.',
      type: 'requests',
      code: 'rate_limit_exceeded',
      headers: { ...retryHeaders(busy), 'x-ratelimit-remaining-requests': '0' },
    };
  return {
    status: busy.status,
    message: 'The server is busy loading the model.',
    type: 'server_error',
    code: null,
    headers: retryHeaders(busy),
  };
}
