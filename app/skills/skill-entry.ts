import { z } from 'zod';

export { SKILLS_EXTENSION_ID } from '../../shared/domain/skills-extension';

/** Per-skill limits every host must accept (the spec's Limits); Berth accepts no more. */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** The Agent Skills naming rules: 1–64 lowercase letters, digits and single inner hyphens. */
const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(-[a-z0-9]+)*$/;

const SkillFileSchema = z.object({
  uri: z.string().min(1).max(2_048),
  digest: z.string().regex(DIGEST, 'digest must be sha256: and 64 lowercase hex digits'),
  size: z.number().int().min(0),
});
export type SkillFile = z.infer<typeof SkillFileSchema>;

/** One `skills/list` (or `skills/get`) entry as the server sent it, loosely shaped: the checks below word the problems. */
const RawEntrySchema = z.looseObject({
  uri: z.string().min(1).max(2_048),
  frontmatter: z.looseObject({ name: z.string().min(1), description: z.string().min(1) }),
  resources: z.union([z.array(SkillFileSchema), z.literal('dynamic')]),
});

/** A skill entry Berth can offer: a complete manifest of its files. */
export interface SkillEntry {
  uri: string;
  /** The SKILL.md frontmatter, verbatim as the server rendered it. */
  frontmatter: { name: string; description: string; [key: string]: unknown };
  files: SkillFile[];
}

/** An entry Berth refuses, with the reason in words (shown in the server's detail). */
export interface RefusedEntry {
  uri: string;
  name?: string;
  problem: string;
}

export type EntryCheck = { ok: true; entry: SkillEntry } | { ok: false; refused: RefusedEntry };

/** The skill's name from its URI: the path segment before `/SKILL.md`. */
export function nameFromUri(uri: string): string | undefined {
  const at = uri.indexOf('://');
  if (at < 0) return undefined;
  const segments = uri
    .slice(at + 3)
    .split('/')
    .filter((segment) => segment !== '');
  return segments.length >= 2 && segments.at(-1) === 'SKILL.md' ? segments.at(-2) : undefined;
}

/** The skill's path (`acme/billing/refunds`), used to tell apart same-named skills of one server. */
export function skillPath(uri: string): string {
  const at = uri.indexOf('://');
  return uri.slice(at < 0 ? 0 : at + 3).replace(/\/SKILL\.md$/, '');
}

/** Checks one entry against the spec's rules (name, manifest completeness, limits); every refusal says why. */
export function checkEntry(raw: unknown): EntryCheck {
  const uri =
    typeof raw === 'object' && raw !== null && typeof (raw as { uri?: unknown }).uri === 'string'
      ? (raw as { uri: string }).uri
      : '(no uri)';
  const refuse = (problem: string, name?: string): EntryCheck => ({
    ok: false,
    refused: { uri, problem, ...(name === undefined ? {} : { name }) },
  });
  const parsed = RawEntrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse(`the entry is malformed (${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'})`);
  }
  const { frontmatter, resources } = parsed.data;
  const name = frontmatter.name;
  if (!SKILL_NAME.test(name))
    return refuse(
      `its name "${name}" breaks the Agent Skills naming rules (lowercase letters, digits, single hyphens, at most 64)`,
      name,
    );
  if (nameFromUri(uri) !== name)
    return refuse(`its URI must end in /${name}/SKILL.md (the last path segment is the skill's name)`, name);
  if (resources === 'dynamic')
    return refuse(
      'its files are generated ("dynamic"), so they carry no digests an approval could be bound to; Berth loads only skills with a file manifest',
      name,
    );
  const skillMd = resources.find((file) => file.uri === uri);
  if (skillMd === undefined) return refuse('its file manifest does not list its own SKILL.md', name);
  const root = uri.slice(0, -'SKILL.md'.length);
  const outside = resources.find((file) => !file.uri.startsWith(root));
  if (outside !== undefined)
    return refuse(`its manifest lists ${outside.uri}, which is outside the skill's folder`, name);
  if (new Set(resources.map((file) => file.uri)).size !== resources.length)
    return refuse('its manifest lists a file twice', name);
  if (resources.length > MAX_SKILL_FILES)
    return refuse(`it has ${resources.length} files; the limit is ${MAX_SKILL_FILES}`, name);
  const total = resources.reduce((sum, file) => sum + file.size, 0);
  if (total > MAX_SKILL_BYTES)
    return refuse(`its files add up to ${total.toLocaleString('en-US')} bytes; the limit is 16 MiB`, name);
  return {
    ok: true,
    entry: { uri, frontmatter: { ...frontmatter, name, description: frontmatter.description }, files: resources },
  };
}

/** The manifest file of `uri` in an entry, if listed. */
export function manifestFile(entry: SkillEntry, uri: string): SkillFile | undefined {
  return entry.files.find((file) => file.uri === uri);
}

/** A relative path inside the skill (`references/FORMS.md`) as the file's URI; undefined when it climbs out. */
export function fileUri(entry: SkillEntry, path: string): string | undefined {
  const root = entry.uri.slice(0, -'SKILL.md'.length);
  const parts: string[] = [];
  for (const part of path.replace(/^\.?\//, '').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.pop() === undefined) return undefined;
      continue;
    }
    parts.push(part);
  }
  return parts.length === 0 ? undefined : root + parts.join('/');
}

/** At most this many `allowed-tools` names are shown, each cut at this length (the server writes them). */
const MAX_EXPECTED_TOOLS = 50;
const MAX_EXPECTED_TOOL_CHARS = 120;

/**
 * What a skill's `allowed-tools` frontmatter names (Agent Skills: a space-delimited string; a YAML list is
 * accepted too), for the approval dialog to show. Information only: Berth grants nothing because of it.
 */
export function expectedTools(frontmatter: Readonly<Record<string, unknown>>): string[] {
  const raw = frontmatter['allowed-tools'];
  const names =
    typeof raw === 'string'
      ? raw.split(/[\s,]+/)
      : Array.isArray(raw)
        ? raw.filter((item): item is string => typeof item === 'string')
        : [];
  const trimmed = names.map((name) => name.trim()).filter((name) => name !== '');
  const shown = trimmed
    .slice(0, MAX_EXPECTED_TOOLS)
    .map((name) => (name.length > MAX_EXPECTED_TOOL_CHARS ? `${name.slice(0, MAX_EXPECTED_TOOL_CHARS - 1)}…` : name));
  return trimmed.length > MAX_EXPECTED_TOOLS ? [...shown, `… and ${trimmed.length - MAX_EXPECTED_TOOLS} more`] : shown;
}
