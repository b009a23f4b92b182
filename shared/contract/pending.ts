import { z } from 'zod';
import { PendingChangeSchema, PendingRequestSchema } from '../domain/pending';
import { method } from './define';

/** Everything that waits for the person, in one queue. */
export const pendingMethods = {
  'pending.list': method({
    summary: 'Everything waiting for the person (tool-call consent, sampling, elicitation), oldest first.',
    input: z.object({}).strict(),
    output: z.array(PendingRequestSchema),
  }),
  'pending.answer': method({
    summary:
      "Answer one waiting request; the response must match its kind's schema (INVALID_INPUT otherwise, request stays open).",
    // Every kind's answer is an object; its exact shape is checked against the request's kind.
    input: z.object({ id: z.string().min(1).max(200), response: z.record(z.string(), z.unknown()) }).strict(),
    output: z.object({ answered: z.string() }),
  }),
};

export const pendingTopics = {
  /** One request opened, answered or withdrawn, with the counts after it. */
  'pending.changed': PendingChangeSchema,
};
