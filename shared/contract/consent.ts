import { z } from 'zod';
import { AuditEntrySchema, ConsentPolicySchema } from '../domain/consent';
import { ConsentRuleSchema } from '../domain/consent-rules';
import { method } from './define';

/** Tool-call consent: the policies that stand, and the audit log of decisions. */
export const consentMethods = {
  'consent.policies': method({
    summary: 'Stored tool-call consent policies, broadest first.',
    input: z.object({}).strict(),
    output: z.array(ConsentPolicySchema),
  }),
  'consent.addRule': method({
    summary:
      'Store a rule for one ready server: allow its tools whose names match a pattern, or those it marks read-only; it covers those tools as listed now.',
    input: z.object({ server: z.string().min(1).max(200), rule: ConsentRuleSchema }).strict(),
    output: ConsentPolicySchema,
  }),
  'consent.revoke': method({
    summary: 'Revoke one consent policy: the next matching call asks again.',
    input: z.object({ id: z.string().min(1).max(500) }).strict(),
    output: z.object({ revoked: z.string() }),
  }),
  'consent.audit': method({
    summary: 'The newest tool-call decisions from the audit log.',
    input: z.object({ limit: z.number().int().min(1).max(1_000).optional() }).strict(),
    output: z.object({ entries: z.array(AuditEntrySchema), unreadableLines: z.number().int().min(0) }),
  }),
};

export const consentTopics = {
  'consent.policiesChanged': z.object({ policies: z.array(ConsentPolicySchema) }),
};
