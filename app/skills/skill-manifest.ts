import { createHash } from 'node:crypto';
import type { SkillEntry } from './skill-entry';

/**
 * One digest for the whole entry an approval covers: every file's URI and
 * digest (sorted), and the frontmatter the person was shown. A file rotated,
 * added or removed, or a changed description, gives another digest, so the
 * approval no longer applies (the spec's content-bound approval).
 */
export function manifestDigest(entry: SkillEntry): string {
  const files = entry.files.map((file) => `${file.uri}\u0000${file.digest}`).sort();
  const hash = createHash('sha256');
  hash.update(`${entry.uri}\n${canonicalJson(entry.frontmatter)}\n${files.join('\n')}`);
  return `sha256:${hash.digest('hex')}`;
}

/** JSON with object keys sorted: a server that reorders its frontmatter's keys has not changed it. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
