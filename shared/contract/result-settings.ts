import { z } from 'zod';
import { MAX_RESULT_LIMIT_TOKENS, MIN_RESULT_LIMIT_TOKENS } from '../domain/result-limits';
import { method } from './define';

/** How much of one of a server's tool results reaches the model. */
export const ServerResultLimitSchema = z.object({
  server: z.string(),
  /**
   * The most estimated tokens one of its results takes in a model request (a longer one is sent as
   * its head and tail with a note); absent: Berth's default (10,000, or a tenth of a small model's context).
   */
  limitTokens: z.number().int().optional(),
});
export type ServerResultLimit = z.infer<typeof ServerResultLimitSchema>;

const limitWords = `A result limit is a whole number of tokens from ${MIN_RESULT_LIMIT_TOKENS} to ${MAX_RESULT_LIMIT_TOKENS.toLocaleString('en-US')}`;

/** Per-server result limits (kept in settings.json; a removed server's is forgotten). */
export const resultSettingsMethods = {
  'servers.resultLimits': method({
    summary: "Each configured server's result limit (absent: Berth's default).",
    input: z.object({}).strict(),
    output: z.array(ServerResultLimitSchema),
  }),
  'servers.setResultLimit': method({
    summary:
      "One server's result limit for results that arrive from now on (null: back to the default); NOT_FOUND for a server Berth does not have.",
    input: z
      .object({
        server: z.string().min(1).max(200),
        limitTokens: z
          .number({ error: limitWords })
          .int(limitWords)
          .min(MIN_RESULT_LIMIT_TOKENS, limitWords)
          .max(MAX_RESULT_LIMIT_TOKENS, limitWords)
          .nullable(),
      })
      .strict(),
    output: ServerResultLimitSchema,
  }),
};

export const resultSettingsTopics = {
  /** A server's result limit changed (in another window too), or went back to the default when it was removed. */
  'servers.resultLimitChanged': ServerResultLimitSchema,
};
