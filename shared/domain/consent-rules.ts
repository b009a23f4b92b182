import { z } from 'zod';

/**
 * A tool-name pattern: a glob over the whole name, `*` any run of characters
 * (none included), `?` exactly one; everything else literal and
 * case-sensitive, as tool names are. A glob, not a regular expression: a
 * person reads `get_*` at a glance, and there is no syntax to get wrong.
 */
export const TOOL_PATTERN_MAX = 100;
export const ToolNamePatternSchema = z
  .string()
  .trim()
  .min(1, 'write a pattern, e.g. get_* or read?file')
  .max(TOOL_PATTERN_MAX, `a pattern is at most ${TOOL_PATTERN_MAX} characters`)
  .regex(/^[A-Za-z0-9_.\-/*?]+$/, 'a pattern may hold letters, digits, _ . - / and the wildcards * and ?');

/**
 * A rule a person writes for one server: allow its tools whose names match a
 * pattern, or the tools the server itself marks read-only (`readOnlyHint`: the
 * server's own claim, which Berth cannot check).
 */
export const ConsentRuleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('name-pattern'), pattern: ToolNamePatternSchema }).strict(),
  z.object({ kind: z.literal('read-only') }).strict(),
]);
export type ConsentRule = z.infer<typeof ConsentRuleSchema>;

/** Whether a glob (see {@linkcode ToolNamePatternSchema}) matches the whole name. */
export function globMatches(pattern: string, name: string): boolean {
  // Iterative matcher with one backtrack point: linear in practice, no regex built from input.
  let p = 0;
  let n = 0;
  let star = -1;
  let mark = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[n])) {
      p += 1;
      n += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      mark = n;
      p += 1;
    } else if (star !== -1) {
      p = star + 1;
      mark += 1;
      n = mark;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}

/** Whether a tool as listed now falls under a rule. */
export function ruleCovers(
  rule: ConsentRule,
  tool: { name: string; annotations?: Record<string, unknown> | undefined },
): boolean {
  if (rule.kind === 'name-pattern') return globMatches(rule.pattern, tool.name);
  // Only an explicit `true`: a missing or malformed hint is no claim at all.
  return tool.annotations?.readOnlyHint === true;
}

/** The rule in words, for lists and audit views. */
export function describeRule(rule: ConsentRule): string {
  return rule.kind === 'name-pattern'
    ? `tools whose names match ${rule.pattern}`
    : 'tools the server marks read-only (its own claim)';
}
