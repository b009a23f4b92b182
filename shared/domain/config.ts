import { z } from 'zod';
import { HostMessageSchema } from './host-message';

/**
 * The state of the config file as the host found it. An invalid file is never
 * overwritten behind the person's back: its text is sent so they can fix it.
 */
export const ConfigProblemSchema = z.object({
  message: z.string(),
  /** 1-based, for JSON syntax errors. */
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  /** Dotted path for schema errors, e.g. `mcpServers.github.command`. */
  field: z.string().optional(),
  /** `message` as a code and its facts (shared/domain/config-problems.ts), for the renderer to word. */
  hostMessage: HostMessageSchema.optional(),
});
export type ConfigProblem = z.infer<typeof ConfigProblemSchema>;

export const ConfigStatusSchema = z.object({
  path: z.string(),
  state: z.enum(['ok', 'missing', 'invalid']),
  problems: z.array(ConfigProblemSchema),
  /** The file's text when it is invalid, for the fix-it editor, with plain secret values replaced by SECRET_MASK. */
  text: z.string().optional(),
  /** How many plain secret values `text` hides (saving the text with the masks in place keeps them). */
  hiddenSecrets: z.number().int().min(1).optional(),
});
export type ConfigStatus = z.infer<typeof ConfigStatusSchema>;

export const AppInfoSchema = z.object({
  version: z.string(),
  shell: z.enum(['electron', 'browser']),
  platform: z.string(),
  configPath: z.string(),
  configDir: z.string(),
  logsDir: z.string(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;
