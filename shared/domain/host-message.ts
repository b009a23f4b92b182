import { z } from 'zod';

/** How many reasons a message may hold inside it (a reconnect failure around "gave up" around a start failure is 2). */
export const MAX_CAUSE_DEPTH = 4;

/**
 * A message from the host to the person as a code and its parameters, so the renderer words it in
 * the person's language from its catalog (the code is the catalog id, e.g.
 * `server-start.command-not-on-path`); the English text travels beside it (`reason`, `message`…)
 * and is what a renderer shows for a code its catalog lacks (an older renderer, a newer host).
 * Parameters are the host's facts (a command, a path), never words of its own: those would stay English.
 * A reason inside the message (a crash inside the restart policy's words) is its `cause`: the renderer
 * words it and gives it to the outer message as its `reason` param, whose English is the fallback.
 */
export interface HostMessage {
  code: string;
  params?: Record<string, string | number> | undefined;
  cause?: HostMessage | undefined;
}

const code = z
  .string()
  .max(120)
  .regex(/^[a-z][a-z0-9-]*(\.[a-z][a-zA-Z0-9-]*)+$/, 'a message code is <family>.<name> in lowercase');
const params = z.record(z.string().max(64), z.union([z.string().max(8_000), z.number()]));

// Built level by level rather than lazily, so a message nested deeper than MAX_CAUSE_DEPTH is refused.
function messageSchema(causes: number): z.ZodType<HostMessage> {
  const fields = { code, params: params.optional() };
  return causes === 0
    ? z.strictObject(fields)
    : z.strictObject({ ...fields, cause: messageSchema(causes - 1).optional() });
}

export const HostMessageSchema: z.ZodType<HostMessage> = messageSchema(MAX_CAUSE_DEPTH);
