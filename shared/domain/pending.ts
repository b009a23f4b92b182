import { z } from 'zod';
import { HostMessageSchema } from './host-message';
import { PENDING_KINDS } from './pending-kinds';
import { ElicitationFieldSchema } from '../elicitation/form-schema';
import { JsonObjectSchema, ToolCallConsentPayloadSchema, ToolCallConsentResponseSchema } from './consent';
import { RootConsentPayloadSchema, RootConsentResponseSchema } from './roots';
import { SkillApprovalPayloadSchema, SkillApprovalResponseSchema } from './skills';
import { SamplingChoiceSchema } from './sampling-choice';
import { SamplingMaxTokensSchema, SamplingTokenPlanSchema, TokenUsageSchema } from './sampling-limits';

// Sampling content as MCP 2025-11-25 defines it. Objects are loose so that
// `annotations` and `_meta` survive a round trip through the review dialog.

export const SamplingTextSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
export const SamplingImageSchema = z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string() });
export const SamplingAudioSchema = z.looseObject({ type: z.literal('audio'), data: z.string(), mimeType: z.string() });
/** The model asked to call a tool (sampling with tools). */
export const SamplingToolUseSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: JsonObjectSchema,
});
/** A tool's result, supplied by the server (sampling with tools). */
export const SamplingToolResultSchema = z.looseObject({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  content: z.array(z.looseObject({ type: z.string() })),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});

/** Content that may stand alone as an answer when no tools are involved. */
export const SamplingContentSchema = z.discriminatedUnion('type', [
  SamplingTextSchema,
  SamplingImageSchema,
  SamplingAudioSchema,
]);
export type SamplingContentBlock = z.infer<typeof SamplingContentSchema>;

/** Any block of a sampling message. */
export const SamplingBlockSchema = z.discriminatedUnion('type', [
  SamplingTextSchema,
  SamplingImageSchema,
  SamplingAudioSchema,
  SamplingToolUseSchema,
  SamplingToolResultSchema,
]);
export type SamplingBlock = z.infer<typeof SamplingBlockSchema>;

export const SamplingMessageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([SamplingBlockSchema, z.array(SamplingBlockSchema)]),
});
export type SamplingMessageView = z.infer<typeof SamplingMessageSchema>;

/** A model Berth can use, as the review dialog lists it: `id` is its model key (shared/domain/model-key). */
export const ModelChoiceSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** The provider's name ("Anthropic", "Ollama"), for grouping and to show beside the model. */
  provider: z.string().optional(),
});
export type ModelChoice = z.infer<typeof ModelChoiceSchema>;

/** Everything a `sampling/createMessage` asked for, as the person reviews it. */
export const SamplingRequestViewSchema = z.object({
  messages: z.array(SamplingMessageSchema),
  systemPrompt: z.string().optional(),
  includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
  maxTokens: z.number().int(),
  temperature: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  modelPreferences: z
    .object({
      hints: z.array(z.object({ name: z.string().optional() })).optional(),
      costPriority: z.number().optional(),
      speedPriority: z.number().optional(),
      intelligencePriority: z.number().optional(),
    })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** Tools the server offers the model inside this sampling request. */
  tools: z
    .array(
      z.looseObject({
        name: z.string(),
        description: z.string().optional(),
        inputSchema: z.record(z.string(), z.unknown()),
      }),
    )
    .optional(),
  toolChoice: z.object({ mode: z.enum(['auto', 'required', 'none']).optional() }).optional(),
});
export type SamplingRequestView = z.infer<typeof SamplingRequestViewSchema>;

/** Stage 1: the request, before anything is sent to a model. */
export const SamplingPayloadSchema = z.object({
  request: SamplingRequestViewSchema,
  model: ModelChoiceSchema,
  /** One sentence: why this model (hints, priorities, or the default). */
  explanation: z.string(),
  /** The explanation as a code, when it has one: the review words it in the person's language. */
  explanationMessage: HostMessageSchema.optional(),
  /** The explanation as facts when the server's hints or priorities chose (sampling-choice.ts): worded by the review. */
  explanationChoice: SamplingChoiceSchema.optional(),
  /** Models the person may pick instead. */
  models: z.array(ModelChoiceSchema),
  /** The person's default model: what "allow for this session" uses unless they pick another. */
  defaultModel: ModelChoiceSchema,
  /** The max tokens the server asked for, what Berth will send (capped, within the session budget), and why. */
  tokens: SamplingTokenPlanSchema,
});
export type SamplingPayload = z.infer<typeof SamplingPayloadSchema>;

export const SamplingResponseSchema = z.discriminatedUnion('decision', [
  z.object({
    decision: z.literal('approve'),
    /** Edited messages; absent = as requested. */
    messages: z.array(SamplingMessageSchema).min(1).optional(),
    systemPrompt: z.string().optional(),
    /** A different model id from `models`. */
    model: z.string().optional(),
    /** Max tokens for this request instead of `tokens.proposed`; at most what the server asked for. */
    maxTokens: SamplingMaxTokensSchema.optional(),
    /** Temperature instead of the server's (0–2, the widest range providers take); null = the model's default. */
    temperature: z.number().min(0).max(2).nullable().optional(),
    /** Approve this server's requests without asking for the rest of the session. */
    allowForSession: z.boolean().optional(),
  }),
  z.object({ decision: z.literal('reject'), reason: z.string().max(2_000).optional() }),
]);
export type SamplingResponse = z.infer<typeof SamplingResponseSchema>;

/** Stage 2: the model's answer, before it goes back to the server. */
export const SamplingAnswerPayloadSchema = z.object({
  /** The request as sent (after the person's edits). */
  request: SamplingRequestViewSchema,
  model: ModelChoiceSchema,
  /** The model's name as the provider reported it (an alias or a router may resolve to another); what the server is told. */
  answeredBy: z.string().optional(),
  result: z.object({
    content: z.union([SamplingBlockSchema, z.array(SamplingBlockSchema)]),
    stopReason: z.string().optional(),
    /** Tokens the model reported for this call (counted against the server's session budget). */
    usage: TokenUsageSchema.optional(),
    /**
     * The model's reasoning before its answer: only when the person let sampling reason (settings.json
     * `reasoning.sampling`). Shown to the person, never sent to the server.
     */
    reasoning: z
      .object({
        text: z.string(),
        /** The provider hid (some of) it: Anthropic's redacted_thinking. */
        redacted: z.boolean().optional(),
        /** How long it streamed, as Berth measured it. */
        durationMs: z.number().int().min(0).optional(),
      })
      .optional(),
  }),
});
export type SamplingAnswerPayload = z.infer<typeof SamplingAnswerPayloadSchema>;

export const SamplingAnswerResponseSchema = z.discriminatedUnion('decision', [
  z.object({
    decision: z.literal('approve'),
    content: z.union([SamplingBlockSchema, z.array(SamplingBlockSchema).min(1)]).optional(),
  }),
  z.object({ decision: z.literal('reject'), reason: z.string().max(2_000).optional() }),
]);
export type SamplingAnswerResponse = z.infer<typeof SamplingAnswerResponseSchema>;

/** Form mode shows fields; URL mode shows the full URL and, prominently, its domain. */
export const ElicitationPayloadSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('form'), message: z.string(), fields: z.array(ElicitationFieldSchema) }),
  z.object({
    mode: z.literal('url'),
    message: z.string(),
    url: z.string(),
    /** The host name as the browser will see it (punycode for non-ASCII names). */
    domain: z.string(),
    elicitationId: z.string(),
    /** Things the person should notice before agreeing (plain http, look-alike names…). */
    warnings: z.array(z.string()),
  }),
]);
export type ElicitationPayload = z.infer<typeof ElicitationPayloadSchema>;

export const ElicitationResponseSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('accept'),
    /** Form values as entered (strings for numbers are fine: the host parses them). Absent in URL mode. */
    content: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]))
      .optional(),
  }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
]);
export type ElicitationResponse = z.infer<typeof ElicitationResponseSchema>;

export { PENDING_KINDS } from './pending-kinds';
export const PendingKindSchema = z.enum(PENDING_KINDS);
export type PendingKind = z.infer<typeof PendingKindSchema>;

/** The payload and answer schema of each kind. */
export const PENDING_SCHEMAS = {
  'tool-call': { payload: ToolCallConsentPayloadSchema, response: ToolCallConsentResponseSchema },
  sampling: { payload: SamplingPayloadSchema, response: SamplingResponseSchema },
  'sampling-answer': { payload: SamplingAnswerPayloadSchema, response: SamplingAnswerResponseSchema },
  elicitation: { payload: ElicitationPayloadSchema, response: ElicitationResponseSchema },
  /** A server asked for its roots and some of them it has never been shown: may it see them? */
  'root-consent': { payload: RootConsentPayloadSchema, response: RootConsentResponseSchema },
  /** A server's skill is about to reach the model (first time, or changed since allowed), or its text names another server's tools. */
  skill: { payload: SkillApprovalPayloadSchema, response: SkillApprovalResponseSchema },
} as const;

export type PendingPayload<K extends PendingKind> = z.infer<(typeof PENDING_SCHEMAS)[K]['payload']>;
export type PendingResponse<K extends PendingKind> = z.infer<(typeof PENDING_SCHEMAS)[K]['response']>;

const PendingBase = {
  id: z.string(),
  /** The server that asked (or whose tool would run). */
  server: z.string(),
  conversationId: z.string().optional(),
  /** The model's tool_use that caused this (tool-call consent, or an `input_required` round inside that call). */
  toolUseId: z.string().optional(),
  /** The Berth task (tasks.list) this question belongs to: a server's task-augmented request. It lives as long as the task, not as the call that caused it. */
  taskId: z.string().optional(),
  /** Epoch ms. */
  createdAt: z.number(),
};

export const PendingRequestSchema = z.discriminatedUnion('kind', [
  z.object({ ...PendingBase, kind: z.literal('tool-call'), payload: ToolCallConsentPayloadSchema }),
  z.object({ ...PendingBase, kind: z.literal('sampling'), payload: SamplingPayloadSchema }),
  z.object({ ...PendingBase, kind: z.literal('sampling-answer'), payload: SamplingAnswerPayloadSchema }),
  z.object({ ...PendingBase, kind: z.literal('elicitation'), payload: ElicitationPayloadSchema }),
  z.object({ ...PendingBase, kind: z.literal('root-consent'), payload: RootConsentPayloadSchema }),
  z.object({ ...PendingBase, kind: z.literal('skill'), payload: SkillApprovalPayloadSchema }),
]);
/** One request waiting for the person, as the tray and the dialogs show it. */
export type PendingRequest = z.infer<typeof PendingRequestSchema>;
export type PendingRequestOf<K extends PendingKind> = Extract<PendingRequest, { kind: K }>;

/** How a request ended without an answer: its server went away, it was cancelled, or the window closed. */
export const PendingWithdrawalSchema = z.object({
  withdrawn: z.literal(true),
  note: z.string(),
  /** The note as a code (withdrawal.*), for the renderer to word in the person's language; `note` is its English. */
  noteMessage: HostMessageSchema.optional(),
});
export type PendingWithdrawal = z.infer<typeof PendingWithdrawalSchema>;

/** What `open()` resolves with. */
export type PendingOutcome<K extends PendingKind> = PendingResponse<K> | PendingWithdrawal;

export function isWithdrawal(outcome: object): outcome is PendingWithdrawal {
  return 'withdrawn' in outcome && (outcome as { withdrawn: unknown }).withdrawn === true;
}

/** Waiting requests per kind, and in all. */
export const PendingCountsSchema = z.object({
  'tool-call': z.number().int(),
  sampling: z.number().int(),
  'sampling-answer': z.number().int(),
  elicitation: z.number().int(),
  'root-consent': z.number().int(),
  skill: z.number().int(),
  total: z.number().int(),
});
export type PendingCounts = z.infer<typeof PendingCountsSchema>;

/** One change to the queue, with the counts after it (a bridge topic payload). */
export const PendingChangeSchema = z.object({
  change: z.discriminatedUnion('type', [
    z.object({ type: z.literal('opened'), request: PendingRequestSchema }),
    z.object({ type: z.literal('answered'), id: z.string(), kind: PendingKindSchema }),
    z.object({
      type: z.literal('withdrawn'),
      id: z.string(),
      kind: PendingKindSchema,
      server: z.string(),
      note: z.string(),
      /** The note as a code (withdrawal.*) when the host wrote it; a server's own reason has none and shows as is. */
      noteMessage: HostMessageSchema.optional(),
    }),
  ]),
  counts: PendingCountsSchema,
});
export type PendingChange = z.infer<typeof PendingChangeSchema>;
