import { z } from 'zod';

/**
 * A message from the host to the person as a code and its parameters, so the renderer words it in
 * the person's language from its catalog (the code is the catalog id, e.g.
 * `server-start.command-not-on-path`); the English text travels beside it (`reason`, `message`…)
 * and is what a renderer shows for a code its catalog lacks (an older renderer, a newer host).
 * Parameters are the host's facts (a command, a path), never words of its own: those would stay English.
 */
export const HostMessageSchema = z.strictObject({
  code: z
    .string()
    .max(120)
    .regex(/^[a-z][a-z0-9-]*(\.[a-z][a-zA-Z0-9-]*)+$/, 'a message code is <family>.<name> in lowercase'),
  params: z.record(z.string().max(64), z.union([z.string().max(8_000), z.number()])).optional(),
});
export type HostMessage = z.infer<typeof HostMessageSchema>;
