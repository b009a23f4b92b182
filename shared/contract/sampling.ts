import { z } from 'zod';
import { SamplingPolicySchema } from '../domain/consent';
import { ModelRanksSchema } from '../domain/model-ranks';
import { SamplingLimitsSchema, SamplingUsageSchema } from '../domain/sampling-limits';
import { method } from './define';

const ServerInput = z.object({ server: z.string().min(1).max(200) }).strict();

/** Per-server sampling policy; servers not listed are 'ask'. */
export const SamplingPoliciesSchema = z.record(z.string(), SamplingPolicySchema);
export type SamplingPolicies = z.infer<typeof SamplingPoliciesSchema>;

/** Every server's sampling limits and spending: the defaults, and the servers that differ from them. */
export const SamplingUsageListSchema = z.object({
  /** What a server not listed in `servers` has: these limits and nothing spent. */
  defaults: SamplingLimitsSchema,
  servers: z.array(SamplingUsageSchema),
});
export type SamplingUsageList = z.infer<typeof SamplingUsageListSchema>;

/** One model sampling may choose, with the tier and ranks that map servers' preferences onto it. */
export const SamplingModelRowSchema = ModelRanksSchema.extend({
  /** The model key. */
  key: z.string(),
  label: z.string(),
  provider: z.string(),
  /** The person set this model's tier and ranks (else they are the defaults). */
  custom: z.boolean(),
});
export type SamplingModelRow = z.infer<typeof SamplingModelRowSchema>;

export const SamplingModelTableSchema = z.object({ models: z.array(SamplingModelRowSchema), defaultModel: z.string() });
export type SamplingModelTable = z.infer<typeof SamplingModelTableSchema>;

/** Servers' sampling requests: whether they are asked about, and what they may spend. */
export const samplingMethods = {
  'sampling.policies': method({
    summary: "Each server's sampling policy other than the default 'ask'.",
    input: z.object({}).strict(),
    output: SamplingPoliciesSchema,
  }),
  'sampling.setPolicy': method({
    summary:
      "Ask every time, allow for this session, or never (kept across restarts) for one server's sampling requests.",
    input: z.object({ server: ServerInput.shape.server, policy: SamplingPolicySchema }).strict(),
    output: SamplingPoliciesSchema,
  }),
  'sampling.usage': method({
    summary: "Each server's sampling cap and session budget, and the tokens it spent since Berth started.",
    input: z.object({}).strict(),
    output: SamplingUsageListSchema,
  }),
  'sampling.setLimits': method({
    summary:
      "Set one server's max tokens per sampling request and its token budget per Berth session (kept in settings.json); null goes back to the defaults.",
    input: z.object({ server: ServerInput.shape.server, limits: SamplingLimitsSchema.nullable() }).strict(),
    output: SamplingUsageSchema,
  }),
  'sampling.models': method({
    summary:
      'The models sampling chooses among (every provider), with the tier and cost/speed/intelligence ranks used to map servers’ preferences.',
    input: z.object({}).strict(),
    output: SamplingModelTableSchema,
  }),
  'sampling.setModelRanks': method({
    summary:
      "Set one model's tier and ranks (1 = cheapest/fastest/most capable; kept in settings.json); null goes back to its defaults.",
    input: z.object({ model: z.string().min(1).max(300), ranks: ModelRanksSchema.nullable() }).strict(),
    output: SamplingModelTableSchema,
  }),
  'sampling.declineAll': method({
    summary:
      "Decline every waiting sampling request (review or answer) of one server, each with MCP's user-rejected error; refuseForSession also refuses its later ones this session.",
    input: z.object({ server: ServerInput.shape.server, refuseForSession: z.boolean() }).strict(),
    output: z.object({ declined: z.number().int().min(0), policies: SamplingPoliciesSchema }),
  }),
  'sampling.resetUsage': method({
    summary: "Start one server's sampling budget again from zero for this Berth session.",
    input: ServerInput,
    output: SamplingUsageSchema,
  }),
};

export const samplingTopics = {
  /** A sampling policy changed (also when the person chose "allow for this session" in a review). */
  'sampling.policiesChanged': z.object({ policies: SamplingPoliciesSchema }),
  /** A server's limits or spending changed (a request was answered, the person reset or changed the budget). */
  'sampling.usageChanged': SamplingUsageSchema,
  /** A sampling request was refused because the server's budget is spent; `message` is what the server was told. */
  'sampling.budgetRefused': z.object({ server: z.string(), message: z.string(), usage: SamplingUsageSchema }),
};
