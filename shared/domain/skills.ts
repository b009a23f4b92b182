import { z } from 'zod';

// MCP skills (SEP-2640, `io.modelcontextprotocol/skills`) as the host shows
// them: what each ready server offers, the state of the person's approval,
// and the questions Berth asks before a skill reaches the model.

/** One file of a skill's manifest (path relative to the skill's folder). */
export const SkillFileInfoSchema = z.object({ uri: z.string(), path: z.string(), size: z.number().int().min(0) });

/**
 * available: listed, never approved; approved: the person allowed this exact manifest;
 * changed: allowed before, but the server's manifest changed since (asks again); refused: Berth will not load it (see problem).
 */
export const SkillStateSchema = z.enum(['available', 'approved', 'changed', 'refused']);
export type SkillState = z.infer<typeof SkillStateSchema>;

export const SkillInfoSchema = z.object({
  server: z.string(),
  /** URI of its SKILL.md: with the server, the skill's identity. */
  uri: z.string(),
  name: z.string(),
  /** The name the model and the composer use: `<server>/<name>` (the path when one server has two of that name). */
  qualifiedName: z.string(),
  description: z.string(),
  files: z.array(SkillFileInfoSchema),
  totalBytes: z.number().int().min(0),
  state: SkillStateSchema,
  /** Why Berth refuses it (state refused). */
  problem: z.string().optional(),
  /** Other servers that offer a skill of the same bare name (kept apart by the qualified name). */
  sameNameOn: z.array(z.string()),
});
export type SkillInfo = z.infer<typeof SkillInfoSchema>;

export const SkillCatalogSchema = z.object({
  skills: z.array(SkillInfoSchema),
  /** Servers whose skills could not be listed, and why. */
  problems: z.array(z.object({ server: z.string(), problem: z.string() })),
});
export type SkillCatalog = z.infer<typeof SkillCatalogSchema>;

/** A reach of one server's skill into another server's tools or folders. */
export const SkillCrossReferenceSchema = z.object({
  server: z.string(),
  tools: z.array(z.string()),
  roots: z.array(z.string()),
});

/** The question before a skill is loaded (stage load), or before its text may steer the model to other servers (stage cross-server). */
export const SkillApprovalPayloadSchema = z.object({
  stage: z.enum(['load', 'cross-server']),
  skill: z.string(),
  description: z.string(),
  uri: z.string(),
  files: z.array(SkillFileInfoSchema),
  totalBytes: z.number().int().min(0),
  /** Who asked: the model in a chat turn, or the person from the composer. */
  requestedBy: z.enum(['model', 'person']),
  /** The person allowed an earlier version; this manifest differs. */
  changed: z.boolean(),
  sameNameOn: z.array(z.string()),
  crossReferences: z.array(SkillCrossReferenceSchema),
  /**
   * The tools its `allowed-tools` frontmatter names, as the server wrote them: shown to the person as what the
   * skill expects to use, never a grant (each call still asks for consent) and never told to the model.
   */
  expectsTools: z.array(z.string()).optional(),
});
export type SkillApprovalPayload = z.infer<typeof SkillApprovalPayloadSchema>;

export const SkillApprovalResponseSchema = z.object({ decision: z.enum(['allow', 'deny']) });
export type SkillApprovalResponse = z.infer<typeof SkillApprovalResponseSchema>;
