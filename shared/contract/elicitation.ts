import { z } from 'zod';
import { method } from './define';

/**
 * A URL-mode elicitation the person agreed to open, waiting for the server's
 * `notifications/elicitation/complete`. `id` is `<server>/<elicitationId>`
 * (server names never contain '/'); pass it to `elicitation.dismiss`.
 */
export const AwaitingElicitationSchema = z.object({
  id: z.string(),
  server: z.string(),
  elicitationId: z.string(),
  url: z.string(),
  domain: z.string(),
  message: z.string(),
  /** Epoch ms when the browser was opened. */
  since: z.number(),
  conversationId: z.string().optional(),
  toolUseId: z.string().optional(),
});
export type AwaitingElicitation = z.infer<typeof AwaitingElicitationSchema>;

/** URL-mode elicitations the person opened and the server has not reported complete. */
export const elicitationMethods = {
  'elicitation.awaiting': method({
    summary: 'Links opened for URL-mode elicitations that the server has not reported complete.',
    input: z.object({}).strict(),
    output: z.array(AwaitingElicitationSchema),
  }),
  'elicitation.dismiss': method({
    summary: 'Close a waiting note for a URL-mode elicitation; false when it was gone already.',
    input: z.object({ id: z.string().min(1).max(500) }).strict(),
    output: z.object({ dismissed: z.boolean() }),
  }),
};

export const elicitationTopics = {
  'elicitation.awaitingChanged': z.object({ awaiting: z.array(AwaitingElicitationSchema) }),
};
