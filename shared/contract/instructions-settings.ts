import { z } from 'zod';
import { method } from './define';

/** Whether one server's instructions reach the model. */
export const ServerInstructionsSettingSchema = z.object({
  server: z.string(),
  /** Its `instructions` (from initialize) go into the system prompt of conversations that offer its tools. */
  sendInstructions: z.boolean(),
});
export type ServerInstructionsSetting = z.infer<typeof ServerInstructionsSettingSchema>;

/** Per-server choice about server instructions (kept in settings.json; a removed server's is forgotten). */
export const instructionsSettingsMethods = {
  'servers.instructionsSettings': method({
    summary: "Whether each configured server's instructions go to the model (a server that was never set: yes).",
    input: z.object({}).strict(),
    output: z.array(ServerInstructionsSettingSchema),
  }),
  'servers.setSendInstructions': method({
    summary:
      "Whether one server's instructions go into the system prompt from the next model request on; NOT_FOUND for a server Berth does not have.",
    input: z.object({ server: z.string().min(1).max(200), sendInstructions: z.boolean() }).strict(),
    output: ServerInstructionsSettingSchema,
  }),
};

export const instructionsSettingsTopics = {
  /** A server's instructions switch changed (in another window too), or went back to the default when it was removed. */
  'servers.instructionsSettingChanged': ServerInstructionsSettingSchema,
};
