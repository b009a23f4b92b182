import { z } from 'zod';

/** Any JSON object: tool arguments as the model wrote them or the person edited them. */
export const JsonObjectSchema = z.record(z.string(), z.json());
export type JsonObject = z.infer<typeof JsonObjectSchema>;

/** The person's choices in a tool-call consent prompt. */
export const TOOL_CALL_DECISIONS = ['allow-once', 'allow-conversation', 'always-tool', 'always-server', 'deny'] as const;
export const ToolCallDecisionSchema = z.enum(TOOL_CALL_DECISIONS);
export type ToolCallDecision = z.infer<typeof ToolCallDecisionSchema>;

/** What the consent prompt shows for one `tools/call` the model wants to make. */
export const ToolCallConsentPayloadSchema = z.object({
  server: z.string(),
  /** The person marked this server as trusted: its annotations are shown as trusted. */
  serverTrusted: z.boolean(),
  tool: z.string(),
  toolTitle: z.string().optional(),
  description: z.string().optional(),
  /** The server's own claims (readOnlyHint, destructiveHint…). */
  annotations: z.record(z.string(), z.unknown()).optional(),
  /** False unless the server is trusted: the UI must label annotations as unverified claims. */
  annotationsTrusted: z.boolean(),
  /** The full arguments, exactly as the model wrote them. */
  arguments: JsonObjectSchema,
});
export type ToolCallConsentPayload = z.infer<typeof ToolCallConsentPayloadSchema>;

/** The person's answer; any "allow" may carry edited arguments (a JSON object). */
export const ToolCallConsentResponseSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('allow-once'), arguments: JsonObjectSchema.optional() }),
  z.object({ decision: z.literal('allow-conversation'), arguments: JsonObjectSchema.optional() }),
  z.object({ decision: z.literal('always-tool'), arguments: JsonObjectSchema.optional() }),
  z.object({ decision: z.literal('always-server'), arguments: JsonObjectSchema.optional() }),
  z.object({ decision: z.literal('deny'), reason: z.string().max(2_000).optional() }),
]);
export type ToolCallConsentResponse = z.infer<typeof ToolCallConsentResponseSchema>;

/**
 * A stored "yes". `server` and `tool` scopes are persisted; `conversation`
 * scope (one tool in one conversation) lives in memory only.
 */
export const ConsentPolicySchema = z.discriminatedUnion('scope', [
  z.object({ id: z.string(), scope: z.literal('server'), server: z.string(), createdAt: z.number() }),
  z.object({ id: z.string(), scope: z.literal('tool'), server: z.string(), tool: z.string(), createdAt: z.number() }),
  z.object({ id: z.string(), scope: z.literal('conversation'), server: z.string(), tool: z.string(), conversationId: z.string(), createdAt: z.number() }),
]);
export type ConsentPolicy = z.infer<typeof ConsentPolicySchema>;

/** Who decided: the person, a stored policy (`policy:<id>`), or the host (prompt withdrawn: window closed, server gone, call stopped). */
export const DecidedBySchema = z.union([z.literal('person'), z.literal('host'), z.templateLiteral(['policy:', z.string()])]);
export type DecidedBy = z.infer<typeof DecidedBySchema>;

/** One line of `audit.jsonl`. Arguments are never stored, only their digest. */
export const AuditEntrySchema = z.object({
  /** ISO 8601. */
  time: z.string(),
  server: z.string(),
  tool: z.string(),
  conversationId: z.string().optional(),
  /** `sha256:<hex>` of the canonical JSON (sorted keys) of the arguments the model asked for. */
  argumentsDigest: z.string(),
  /** Digest of the arguments actually sent, when the person edited them. */
  sentArgumentsDigest: z.string().optional(),
  decision: ToolCallDecisionSchema,
  decidedBy: DecidedBySchema,
  edited: z.boolean(),
  /** Why the host decided (e.g. "window closed"); never the person's own text. */
  note: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** The newest audit entries first, and how many lines could not be read. */
export interface AuditPage {
  entries: AuditEntry[];
  unreadableLines: number;
}

/**
 * How Berth answers one server's `sampling/createMessage`: ask every time
 * (default), approve without asking for the rest of this session, or refuse.
 */
export const SAMPLING_POLICIES = ['ask', 'allow-session', 'never'] as const;
export const SamplingPolicySchema = z.enum(SAMPLING_POLICIES);
export type SamplingPolicy = z.infer<typeof SamplingPolicySchema>;
