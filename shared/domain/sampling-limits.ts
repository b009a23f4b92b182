import { z } from 'zod';
import { MAX_SAMPLING_BUDGET, MAX_SAMPLING_MAX_TOKENS } from './sampling-defaults';

export {
  DEFAULT_SAMPLING_BUDGET,
  DEFAULT_SAMPLING_LIMITS,
  DEFAULT_SAMPLING_MAX_TOKENS,
  MAX_SAMPLING_BUDGET,
  MAX_SAMPLING_MAX_TOKENS,
  SAMPLING_SESSION_NOTE,
} from './sampling-defaults';

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
export const TokenUsageSchema = z.object({
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  /** Output tokens the model spent reasoning (already part of outputTokens), where the provider says. */
  reasoningTokens: z.number().int().min(0).optional(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** A server's limits as the settings hold them. */
export interface ConfiguredLimits {
  limits: SamplingLimits;
  /** False when these are Berth's defaults. */
  custom: boolean;
}
