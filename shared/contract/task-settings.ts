import { z } from 'zod';
import { method } from './define';

/** One server's task settings. */
export const TaskServerSettingsSchema = z.object({
  server: z.string(),
  /** Whether its tools that may run as an MCP task (`execution.taskSupport: optional`) do; tools that require one always do. */
  optionalToolsAsTasks: z.boolean(),
});
export type TaskServerSettings = z.infer<typeof TaskServerSettingsSchema>;

/** Per-server choices about MCP tasks (kept in settings.json; a removed server's are forgotten). */
export const taskSettingsMethods = {
  'tasks.serverSettings': method({
    summary:
      "Each configured server's task settings (a server that was never set runs its optional task tools as tasks).",
    input: z.object({}).strict(),
    output: z.array(TaskServerSettingsSchema),
  }),
  'tasks.setServerSettings': method({
    summary:
      "Whether one server's tools that may run as a task do, from its next tool call on; NOT_FOUND for a server Berth does not have.",
    input: z.object({ server: z.string().min(1).max(200), optionalToolsAsTasks: z.boolean() }).strict(),
    output: TaskServerSettingsSchema,
  }),
};

export const taskSettingsTopics = {
  /** A server's task settings changed (in another window too), or went back to the defaults when it was removed. */
  'tasks.serverSettingsChanged': TaskServerSettingsSchema,
};
