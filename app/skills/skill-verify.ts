import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { JSON_SCHEMA, load } from 'js-yaml';
import type { SkillEntry, SkillFile } from './skill-entry';

/** Why a fetched file may not be used: the words go to the model and into the UI. */
export type Verification = { ok: true; text: string } | { ok: false; problem: string };

/** The bytes of one `resources/read` content item: text as UTF-8, a blob decoded from base64. */
export function contentBytes(content: { text?: unknown; blob?: unknown }): Buffer | undefined {
  if (typeof content.text === 'string') return Buffer.from(content.text, 'utf8');
  if (typeof content.blob === 'string') return Buffer.from(content.blob, 'base64');
  return undefined;
}

export function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * The YAML frontmatter at the top of a SKILL.md, as a plain object; a string
 * saying what is wrong otherwise. JSON schema only: YAML's timestamps and
 * other tags would not compare equal to the entry's JSON rendering.
 */
export function parseFrontmatter(text: string): Record<string, unknown> | string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(body);
  if (match === null) return 'it does not begin with a --- delimited YAML frontmatter block';
  try {
    const value = load(match[1] ?? '', { schema: JSON_SCHEMA });
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return 'its frontmatter is not a YAML mapping';
    return value as Record<string, unknown>;
  } catch (error) {
    return `its frontmatter is not valid YAML (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'parse error'})`;
  }
}

/** The fields whose values differ between the file's frontmatter and the entry's. */
export function frontmatterDifferences(file: Record<string, unknown>, entry: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(file), ...Object.keys(entry)]);
  return [...keys].filter((key) => !isDeepStrictEqual(file[key] ?? null, entry[key] ?? null)).sort();
}

/**
 * Checks fetched bytes against the manifest entry the host holds: size first
 * (a size mismatch fails whatever the digest), then SHA-256, then, for the
 * skill's SKILL.md, its frontmatter field by field against the entry's. Any
 * mismatch means the bytes are not what was approved and must not be used.
 */
export function verifyFile(entry: SkillEntry, file: SkillFile, bytes: Buffer): Verification {
  const where = `${file.uri} of skill '${entry.frontmatter.name}'`;
  if (bytes.length !== file.size) {
    return {
      ok: false,
      problem: `${where} is ${bytes.length.toLocaleString('en-US')} bytes, but the server's manifest says ${file.size.toLocaleString('en-US')}: refused (changed, corrupted or tampered with)`,
    };
  }
  const digest = sha256Digest(bytes);
  if (digest !== file.digest)
    return {
      ok: false,
      problem: `${where} does not match its SHA-256 digest in the server's manifest: refused (changed, corrupted or tampered with)`,
    };
  const text = bytes.toString('utf8');
  if (file.uri !== entry.uri) return { ok: true, text };
  const frontmatter = parseFrontmatter(text);
  if (typeof frontmatter === 'string') return { ok: false, problem: `${where}: ${frontmatter}; refused` };
  const differences = frontmatterDifferences(frontmatter, entry.frontmatter);
  if (differences.length > 0) {
    return {
      ok: false,
      problem: `${where} has frontmatter that differs from the server's listing (${differences.join(', ')}): refused, since what was approved is not what would reach the model`,
    };
  }
  return { ok: true, text };
}
