import { createHash } from 'node:crypto';
import { z } from 'zod';
import { APPROVED_TOOL_FIELDS, ApprovedToolSchema, serverIdentityKey } from '../../shared/domain/consent';
import type { ApprovedTool, PolicyStale, ToolFieldChange } from '../../shared/domain/consent';
import { canonicalJson } from './canonical-json';

/**
 * What a stored permission approved: the server's identity (a digest of its
 * command, arguments and working folder, or its address: no argument or URL
 * is stored in clear) and, for a tool's permission, the tool as the person
 * saw it. A permission applies only while both still match.
 */
export const PolicyApprovalSchema = z.object({
  server: z.string(),
  tool: ApprovedToolSchema.optional(),
  /** A rule's: each tool it covers (by name), as it was listed when the person wrote the rule. */
  tools: z.record(z.string(), ApprovedToolSchema).optional(),
});
export type PolicyApproval = z.infer<typeof PolicyApprovalSchema>;

/** The fields of a server config that make it the server it is. */
export type ServerIdentitySource = Parameters<typeof serverIdentityKey>[0];

/** Identity key → digest, for the servers seen lately; cleared when it grows past this (a few servers are typical). */
const IDENTITY_MEMO_LIMIT = 1_024;
const identityMemo = new Map<string, string>();

/**
 * `sha256:<hex>` of the server's identity key ({@linkcode serverIdentityKey}).
 * Asked for on every tool call (the call's consent request and the policy it
 * matched), so each key's digest is remembered: the key is built from the
 * config every time, so a changed command, argument, folder or address is
 * never mistaken for the old one.
 */
export function serverIdentity(config: ServerIdentitySource): string {
  const key = serverIdentityKey(config);
  let digest = identityMemo.get(key);
  if (digest === undefined) {
    if (identityMemo.size >= IDENTITY_MEMO_LIMIT) identityMemo.clear();
    digest = `sha256:${createHash('sha256').update(key).digest('hex')}`;
    identityMemo.set(key, digest);
  }
  return digest;
}

/** The parts of a tool the person is shown and approves (absent fields stay absent). */
export function approvedToolOf(tool: {
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: Record<string, unknown> | undefined;
  annotations?: Record<string, unknown> | undefined;
}): ApprovedTool {
  return {
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    ...(tool.inputSchema !== undefined ? { inputSchema: tool.inputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  };
}

function fieldText(tool: ApprovedTool, field: (typeof APPROVED_TOOL_FIELDS)[number]): string {
  const value = tool[field];
  if (value === undefined) return '';
  return typeof value === 'string' ? value : canonicalJson(value, 2);
}

/** Every field that differs between what was approved and the tool now, as text (key order never counts as a change). */
export function toolChanges(approved: ApprovedTool, now: ApprovedTool): ToolFieldChange[] {
  return APPROVED_TOOL_FIELDS.flatMap((field) => {
    const before = fieldText(approved, field);
    const after = fieldText(now, field);
    // Absent and present-but-empty read the same as text yet differ: compare the values.
    const same = canonicalJson(approved[field] ?? null) === canonicalJson(now[field] ?? null);
    return same ? [] : [{ field, before, after }];
  });
}

/** The server and tool a call is made to now. `tool` is unknown for a server-wide check. */
export interface CurrentApproval {
  server: string;
  tool?: ApprovedTool;
}

/**
 * Why `approval` no longer covers what is there now, or undefined when it
 * still does. No approval at all (a permission stored before Berth recorded
 * one) is never trusted: it could hide a change made before the upgrade.
 */
export function staleness(
  approval: PolicyApproval | undefined,
  now: CurrentApproval,
  toolScoped: boolean,
): PolicyStale | undefined {
  if (approval === undefined) return 'unrecorded';
  if (approval.server !== now.server) return 'server-changed';
  if (!toolScoped || now.tool === undefined) return undefined;
  if (approval.tool === undefined) return 'unrecorded';
  return toolChanged(approval.tool, now.tool) ? 'tool-changed' : undefined;
}

/** The last tool each approved tool was compared with, by its fields' values, and whether it differed. */
const lastComparison = new WeakMap<ApprovedTool, { seen: ApprovedTool; changed: boolean }>();

/**
 * Whether `now` differs from what was approved. Every call under a tool's
 * permission asks this (twice: the match and the policy's view), and the
 * answer takes a canonical JSON of each field on both sides (input schemas
 * can be large). It is remembered per approval (a new permission is a new
 * object) against the very field values it was asked about: the tool list
 * hands out the same title, description, schema and annotations objects
 * until it is read again, and a list read again is compared again.
 */
function toolChanged(approved: ApprovedTool, now: ApprovedTool): boolean {
  const last = lastComparison.get(approved);
  if (last !== undefined && APPROVED_TOOL_FIELDS.every((field) => last.seen[field] === now[field])) return last.changed;
  const changed = toolChanges(approved, now).length > 0;
  lastComparison.set(approved, { seen: now, changed });
  return changed;
}

/**
 * A rule's staleness for one tool: like a tool's permission, judged against
 * the tool as the rule recorded it. Undefined `covered` when the rule never
 * covered this tool (it appeared later): the rule does not apply, and is not
 * stale for it either.
 */
export function ruleStaleness(
  approval: PolicyApproval | undefined,
  tool: string,
  now: CurrentApproval,
): { covered: boolean; stale?: PolicyStale } {
  if (approval === undefined) return { covered: true, stale: 'unrecorded' };
  const recorded = approval.tools?.[tool];
  if (recorded === undefined) return { covered: false };
  const stale = staleness({ server: approval.server, tool: recorded }, now, true);
  return stale === undefined ? { covered: true } : { covered: true, stale };
}
