import { z } from 'zod';
import { ConsentRuleSchema } from './consent-rules';

/** Any JSON object: tool arguments as the model wrote them or the person edited them. */
export const JsonObjectSchema = z.record(z.string(), z.json());
export type JsonObject = z.infer<typeof JsonObjectSchema>;

/** The person's choices in a tool-call consent prompt. */
export const TOOL_CALL_DECISIONS = [
  'allow-once',
  // An app's calls only: this app's calls to this tool while its card is open (never stored).
  'allow-app-card',
  'allow-conversation',
  'always-tool',
  'always-server',
  'deny',
] as const;
export const ToolCallDecisionSchema = z.enum(TOOL_CALL_DECISIONS);
export type ToolCallDecision = z.infer<typeof ToolCallDecisionSchema>;

/** What the audit log records: the person's choices, and `allow-rule` for a call a rule of theirs allowed. */
export const AUDIT_DECISIONS = [...TOOL_CALL_DECISIONS, 'allow-rule'] as const;
export const AuditDecisionSchema = z.enum(AUDIT_DECISIONS);
export type AuditDecision = z.infer<typeof AuditDecisionSchema>;

/**
 * Which server a permission was given to: its command, arguments and working
 * folder (local) or its address (remote). Two configs with the same key run
 * the same program; anything else is a different server, whatever its name.
 */
export function serverIdentityKey(config: {
  command?: string | undefined;
  args?: readonly string[] | undefined;
  cwd?: string | undefined;
  url?: string | undefined;
}): string {
  if (config.url !== undefined) return JSON.stringify({ url: config.url });
  return JSON.stringify({ command: config.command ?? null, args: config.args ?? [], cwd: config.cwd ?? null });
}

/** What the person saw of a tool when they allowed it: a change to any of these asks again. */
export const APPROVED_TOOL_FIELDS = ['title', 'description', 'inputSchema', 'annotations'] as const;
export const ApprovedToolFieldSchema = z.enum(APPROVED_TOOL_FIELDS);
export type ApprovedToolField = z.infer<typeof ApprovedToolFieldSchema>;
export const ApprovedToolSchema = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
});
export type ApprovedTool = z.infer<typeof ApprovedToolSchema>;

/**
 * Why a stored permission no longer applies (the next call asks again):
 * `unrecorded` — given before Berth recorded what was approved;
 * `server-changed` — the server's command or address is not the one approved;
 * `tool-changed` — the tool's description, input schema, title or annotations changed.
 */
export const POLICY_STALE_REASONS = ['unrecorded', 'server-changed', 'tool-changed'] as const;
export const PolicyStaleSchema = z.enum(POLICY_STALE_REASONS);
export type PolicyStale = z.infer<typeof PolicyStaleSchema>;

/** One field of a tool that changed since it was approved, as text (JSON pretty-printed with sorted keys); empty when absent. */
export const ToolFieldChangeSchema = z.object({
  field: ApprovedToolFieldSchema,
  before: z.string(),
  after: z.string(),
});
export type ToolFieldChange = z.infer<typeof ToolFieldChangeSchema>;

/** A permission covered this call but no longer applies: the prompt says why, and what changed. */
export const ApprovalChangeSchema = z.object({
  policyScope: z.enum(['server', 'rule', 'tool', 'conversation']),
  reason: PolicyStaleSchema,
  /** `tool-changed`: every field that differs from what was approved. */
  changes: z.array(ToolFieldChangeSchema),
});
export type ApprovalChange = z.infer<typeof ApprovalChangeSchema>;

/** What the consent prompt shows for one `tools/call` the model wants to make. */
export const ToolCallConsentPayloadSchema = z.object({
  server: z.string(),
  /** The person marked this server as trusted: its annotations are shown as trusted. */
  serverTrusted: z.boolean(),
  tool: z.string(),
  /** The server lists another tool with this name first: Berth calls this one `tool` (shared/domain/tool-twins.ts). */
  listedName: z.string().optional(),
  toolTitle: z.string().optional(),
  description: z.string().optional(),
  /** The server's own claims (readOnlyHint, destructiveHint…). */
  annotations: z.record(z.string(), z.unknown()).optional(),
  /** False unless the server is trusted: the UI must label annotations as unverified claims. */
  annotationsTrusted: z.boolean(),
  /** The full arguments, exactly as the model wrote them. */
  arguments: JsonObjectSchema,
  /** The tool's input schema (the server's claim), to check arguments the person edits against it. */
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  /** A permission would have allowed this call, but what it approved has changed since. */
  approvalChanged: ApprovalChangeSchema.optional(),
  /** Who asked: absent, the model; `app`, the server's own app in the card of the request's toolUseId (MCP Apps). */
  requestedBy: z.literal('app').optional(),
  /** The app runs in an open card: the person may allow its calls to this tool while the card is open (`allow-app-card`). */
  appCard: z.boolean().optional(),
});
export type ToolCallConsentPayload = z.infer<typeof ToolCallConsentPayloadSchema>;

/** The person's answer; any "allow" may carry edited arguments (a JSON object). */
export const ToolCallConsentResponseSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('allow-once'), arguments: JsonObjectSchema.optional() }),
  z.object({ decision: z.literal('allow-app-card'), arguments: JsonObjectSchema.optional() }),
  z.object({ decision: z.literal('allow-conversation'), arguments: JsonObjectSchema.optional() }),
  z.object({ decision: z.literal('always-tool'), arguments: JsonObjectSchema.optional() }),
  z.object({ decision: z.literal('always-server'), arguments: JsonObjectSchema.optional() }),
  z.object({ decision: z.literal('deny'), reason: z.string().max(2_000).optional() }),
]);
export type ToolCallConsentResponse = z.infer<typeof ToolCallConsentResponseSchema>;

/**
 * A stored "yes". `server`, `tool` and `rule` scopes are persisted; `conversation`
 * scope (one tool in one conversation) lives in memory only. `stale` (in
 * lists only): it no longer applies, and the next matching call asks again.
 */
const policyBase = { id: z.string(), server: z.string(), createdAt: z.number(), stale: PolicyStaleSchema.optional() };
export const ConsentPolicySchema = z.discriminatedUnion('scope', [
  z.object({ ...policyBase, scope: z.literal('server') }),
  z.object({ ...policyBase, scope: z.literal('tool'), tool: z.string() }),
  z.object({ ...policyBase, scope: z.literal('conversation'), tool: z.string(), conversationId: z.string() }),
  /** A rule the person wrote in Settings; `tools`: the tools it covers, each as it was listed when the rule was made. */
  z.object({ ...policyBase, scope: z.literal('rule'), rule: ConsentRuleSchema, tools: z.array(z.string()) }),
]);
export type ConsentPolicy = z.infer<typeof ConsentPolicySchema>;

/** Who decided: the person, a stored policy (`policy:<id>`), or the host (prompt withdrawn: window closed, server gone, call stopped). */
export const DecidedBySchema = z.union([
  z.literal('person'),
  z.literal('host'),
  z.templateLiteral(['policy:', z.string()]),
]);
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
  decision: AuditDecisionSchema,
  decidedBy: DecidedBySchema,
  edited: z.boolean(),
  /** Why the host decided (e.g. "window closed"); never the person's own text. */
  note: z.string().optional(),
  /** The call came from the server's app in a card (MCP Apps), not from the model. */
  requestedBy: z.literal('app').optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** The newest audit entries first, and how many lines could not be read. */
export interface AuditPage {
  entries: AuditEntry[];
  unreadableLines: number;
}

/**
 * How Berth answers one server's `sampling/createMessage`: ask every time
 * (default), approve without asking for the rest of this session, refuse for
 * the rest of this session (a flooding server, blocked from its review), or
 * refuse always (kept across restarts).
 */
export const SAMPLING_POLICIES = ['ask', 'allow-session', 'refuse-session', 'never'] as const;
export const SamplingPolicySchema = z.enum(SAMPLING_POLICIES);
export type SamplingPolicy = z.infer<typeof SamplingPolicySchema>;
