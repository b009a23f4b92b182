import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so `{a, b}` and `{b, a}` give
 * the same text and the same digest.
 */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_key, inner: unknown) =>
      inner !== null && typeof inner === 'object' && !Array.isArray(inner)
        ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : inner,
    indent,
  );
}

/** `sha256:<hex>` of the canonical JSON: identifies arguments in the audit log without storing them. */
export function argumentsDigest(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}
