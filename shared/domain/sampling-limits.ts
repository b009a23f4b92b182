import { z } from 'zod';

/**
 * The largest `max_tokens` Berth sends for one sampling request unless the
 * person sets another cap for the server: enough for a long answer, far from
 * the 100,000 a server may ask for.
 */
export const DEFAULT_SAMPLING_MAX_TOKENS = 4_096;
/** Tokens (input + output, as the model reports them) one server may spend per Berth session. */
export const DEFAULT_SAMPLING_BUDGET = 100_000;
/** The highest cap a person may set: above any Claude model's output limit. */
export const MAX_SAMPLING_MAX_TOKENS = 200_000;
/** The highest session budget a person may set. */
export const MAX_SAMPLING_BUDGET = 100_000_000;

/**
 * What "session" means for the budget, in words the UI shows: the count starts
 * when Berth starts and is kept across the server's restarts and reconnects (a
 * server cannot reset it by crashing); the person may reset it by hand.
 */
export const SAMPLING_SESSION_NOTE = 'Counted since Berth started; restarting the server does not reset it.';

const wholeTokens = (what: string, max: number) =>
  z
    .number({ error: `${what} must be a number of tokens` })
    .int(`${what} must be a whole number of tokens`)
    .min(1, `${what} must be at least 1 token`)
    .max(max, `${what} can be at most ${max.toLocaleString('en-US')} tokens`);

/** The per-request cap, as the person enters it. */
export const SamplingMaxTokensSchema = wholeTokens('The max tokens per request', MAX_SAMPLING_MAX_TOKENS);
/** The per-session budget, as the person enters it. */
export const SamplingBudgetSchema = wholeTokens('The session budget', MAX_SAMPLING_BUDGET);

/** One server's sampling limits. */
export const SamplingLimitsSchema = z
  .object({
    /** The most `max_tokens` sent for one request (the server's own value when it asks for less). */
    maxTokens: SamplingMaxTokensSchema,
    /** Input + output tokens this server may spend per Berth session. */
    sessionBudget: SamplingBudgetSchema,
  })
  .strict();
export type SamplingLimits = z.infer<typeof SamplingLimitsSchema>;

export const DEFAULT_SAMPLING_LIMITS: SamplingLimits = { maxTokens: DEFAULT_SAMPLING_MAX_TOKENS, sessionBudget: DEFAULT_SAMPLING_BUDGET };

/** One server's limits and what it has spent this Berth session. */
export const SamplingUsageSchema = z.object({
  server: z.string(),
  limits: SamplingLimitsSchema,
  /** False while the server uses Berth's defaults. */
  custom: z.boolean(),
  /** Input + output tokens the model reported for this server's requests this session. */
  used: z.number().int().min(0),
  /** `max_tokens` of requests at the model right now (held back from the budget until they finish). */
  inFlight: z.number().int().min(0),
  /** Answered model calls this session. */
  requests: z.number().int().min(0),
  /** Requests refused because the budget was spent. */
  refused: z.number().int().min(0),
});
export type SamplingUsage = z.infer<typeof SamplingUsageSchema>;

/** How the `max_tokens` Berth proposes for one request came about, as the review shows it. */
export const SamplingTokenPlanSchema = z.object({
  /** What the server asked for. */
  requested: z.number().int(),
  /** What Berth will send unless the person changes it. */
  proposed: z.number().int().min(1),
  /** `cap`: the server's per-request cap; `budget`: what is left of its session budget; absent: the server's own value. */
  limitedBy: z.enum(['cap', 'budget']).optional(),
  limits: SamplingLimitsSchema,
  /** Tokens spent this session before this request. */
  used: z.number().int().min(0),
});
export type SamplingTokenPlan = z.infer<typeof SamplingTokenPlanSchema>;

/** Tokens one model call used, as the model reported them. */
export const TokenUsageSchema = z.object({ inputTokens: z.number().int().min(0), outputTokens: z.number().int().min(0) });
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** A server's limits as the settings hold them. */
export interface ConfiguredLimits {
  limits: SamplingLimits;
  /** False when these are Berth's defaults. */
  custom: boolean;
}
