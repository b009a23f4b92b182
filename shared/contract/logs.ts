import { z } from 'zod';
import { LogEntrySchema, LogSourceSchema } from '../domain/log';
import { LogLevelSchema } from '../domain/server';
import { method } from './define';

export const LogQuerySchema = z
  .object({
    /** Omit for every server. */
    server: z.string().min(1).optional(),
    sources: z.array(LogSourceSchema).min(1).optional(),
    /** Entries without a level (stderr, trace) always pass. */
    minLevel: LogLevelSchema.optional(),
    /** Case-insensitive substring of the text or body. */
    text: z.string().max(1_000).optional(),
    /** Only entries with seq greater than this. */
    afterSeq: z.number().int().min(-1).optional(),
    /** Newest N entries matching (default 5000). */
    limit: z.number().int().min(1).max(250_000).optional(),
  })
  .strict();
export type LogQuery = z.infer<typeof LogQuerySchema>;

export const logMethods = {
  'logs.query': method({
    summary: "Entries from the host's ring buffers, oldest first.",
    input: LogQuerySchema,
    output: z.object({ entries: z.array(LogEntrySchema), dropped: z.number().int() }),
  }),
  'logs.followTrace': method({
    summary:
      'A window shows the trace live: for the next followingForMs, trace entries also go out in logs.appended (the Logs view renews this while it is open). Otherwise the trace is kept for logs.query only, so no window receives every message of every server.',
    input: z.object({}).strict(),
    output: z.object({ followingForMs: z.number().int().positive() }),
  }),
  'logs.clear': method({
    summary: 'Forget buffered entries of one server (or all).',
    input: z.object({ server: z.string().min(1).optional() }).strict(),
    output: z.object({ cleared: z.number().int() }),
  }),
};

export const logTopics = {
  /** New entries, coalesced by the host (at most ~30 batches a second). */
  'logs.appended': z.object({ entries: z.array(LogEntrySchema) }),
  'logs.cleared': z.object({ server: z.string().optional() }),
};
