// The defaults without zod (./sampling-limits holds the schemas), so the renderer's
// first screen can use them without loading zod.

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

/** The limits of a server nobody set any for (the shape of ./sampling-limits' SamplingLimits, written out so this file needs no zod). */
export const DEFAULT_SAMPLING_LIMITS: { readonly maxTokens: number; readonly sessionBudget: number } = {
  maxTokens: DEFAULT_SAMPLING_MAX_TOKENS,
  sessionBudget: DEFAULT_SAMPLING_BUDGET,
};
