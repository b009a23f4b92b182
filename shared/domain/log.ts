import { z } from 'zod';
import { LogLevelSchema } from './server';

/**
 * Where a log line came from: the server's stderr, an MCP
 * `notifications/message`, the JSON-RPC trace, or Berth itself (lifecycle).
 */
/** `app`: a message an MCP App (a server's UI in a card) logged. */
export const LOG_SOURCES = ['stderr', 'notification', 'trace', 'host', 'app'] as const;
export const LogSourceSchema = z.enum(LOG_SOURCES);
export type LogSource = z.infer<typeof LogSourceSchema>;

export const LogEntrySchema = z.object({
  /** Monotonic across all servers in one run; used for ordering and paging. */
  seq: z.number().int(),
  server: z.string(),
  /** Epoch ms. */
  time: z.number(),
  source: LogSourceSchema,
  level: LogLevelSchema.optional(),
  /** `notifications/message` logger name. */
  logger: z.string().optional(),
  /** The line as shown: stderr text, log message, or a one-line trace summary. */
  text: z.string(),
  /** trace only */
  direction: z.enum(['in', 'out']).optional(),
  method: z.string().optional(),
  id: z.union([z.string(), z.number()]).optional(),
  /** Size of the raw JSON-RPC message in bytes (trace only). */
  size: z.number().int().optional(),
  /** Full JSON body (trace), possibly truncated for very large messages. */
  body: z.string().optional(),
});
export type LogEntry = z.infer<typeof LogEntrySchema>;
