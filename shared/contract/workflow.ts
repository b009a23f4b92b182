import { z } from 'zod';
import { AuditEntrySchema, ConsentPolicySchema, SamplingPolicySchema } from '../domain/consent';
import { PendingChangeSchema, PendingRequestSchema } from '../domain/pending';
import { method } from './define';

/** Per-server sampling policy; servers not listed are 'ask'. */
export const SamplingPoliciesSchema = z.record(z.string(), SamplingPolicySchema);
export type SamplingPolicies = z.infer<typeof SamplingPoliciesSchema>;

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

const Empty = z.object({}).strict();
const IdInput = z.object({ id: z.string().min(1).max(500) }).strict();

export const workflowMethods = {
  'pending.list': method({
    summary: 'Everything waiting for the person (tool-call consent, sampling, elicitation), oldest first.',
    input: Empty,
    output: z.array(PendingRequestSchema),
  }),
  'pending.answer': method({
    summary: "Answer one waiting request; the response must match its kind's schema (INVALID_INPUT otherwise, request stays open).",
    // Every kind's answer is an object; its exact shape is checked against the request's kind.
    input: z.object({ id: z.string().min(1).max(200), response: z.record(z.string(), z.unknown()) }).strict(),
    output: z.object({ answered: z.string() }),
  }),
  'consent.policies': method({ summary: 'Stored tool-call consent policies, broadest first.', input: Empty, output: z.array(ConsentPolicySchema) }),
  'consent.revoke': method({ summary: 'Revoke one consent policy: the next matching call asks again.', input: IdInput, output: z.object({ revoked: z.string() }) }),
  'consent.audit': method({
    summary: 'The newest tool-call decisions from the audit log.',
    input: z.object({ limit: z.number().int().min(1).max(1_000).optional() }).strict(),
    output: z.object({ entries: z.array(AuditEntrySchema), unreadableLines: z.number().int().min(0) }),
  }),
  'sampling.policies': method({ summary: "Each server's sampling policy other than the default 'ask'.", input: Empty, output: SamplingPoliciesSchema }),
  'sampling.setPolicy': method({
    summary: "Ask every time, allow for this session, or never (kept across restarts) for one server's sampling requests.",
    input: z.object({ server: z.string().min(1).max(200), policy: SamplingPolicySchema }).strict(),
    output: SamplingPoliciesSchema,
  }),
  'elicitation.awaiting': method({
    summary: 'Links opened for URL-mode elicitations that the server has not reported complete.',
    input: Empty,
    output: z.array(AwaitingElicitationSchema),
  }),
  'elicitation.dismiss': method({
    summary: 'Close a waiting note for a URL-mode elicitation; false when it was gone already.',
    input: IdInput,
    output: z.object({ dismissed: z.boolean() }),
  }),
};

export const workflowTopics = {
  /** One request opened, answered or withdrawn, with the counts after it. */
  'pending.changed': PendingChangeSchema,
  'consent.policiesChanged': z.object({ policies: z.array(ConsentPolicySchema) }),
  /** A sampling policy changed (also when the person chose "allow for this session" in a review). */
  'sampling.policiesChanged': z.object({ policies: SamplingPoliciesSchema }),
  'elicitation.awaitingChanged': z.object({ awaiting: z.array(AwaitingElicitationSchema) }),
};
