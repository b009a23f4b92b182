import { z } from 'zod';

/** How a model compares with the others, for mapping MCP model preferences (hint words like "flash" or "opus" name a tier). */
export const MODEL_TIERS = ['fast', 'balanced', 'smart'] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

/** One axis's rank: 1 = the best of all models on it (cheapest, fastest, most capable); ties allowed. */
export const ModelRankSchema = z.number().int().min(1).max(100);

/**
 * The tier and ranks the person set for one model in Settings. Kept by model
 * key in settings.json `modelRanks`, apart from the model list, so they apply
 * to whichever provider lists that model and survive the list changing.
 */
export const ModelRanksSchema = z
  .object({
    tier: z.enum(MODEL_TIERS),
    costRank: ModelRankSchema,
    speedRank: ModelRankSchema,
    intelligenceRank: ModelRankSchema,
  })
  .strict();
export type ModelRanks = z.infer<typeof ModelRanksSchema>;
