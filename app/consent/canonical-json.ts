import { hash } from 'node:crypto';

function byKey([a]: [string, unknown], [b]: [string, unknown]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when the object's own keys are already in sorted order (tool arguments mostly are: often one or two keys). */
function keysInOrder(object: object): boolean {
  let previous: string | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) return false;
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
  }
  return true;
}

/**
 * JSON with object keys sorted at every depth, so `{a, b}` and `{b, a}` give
 * the same text and the same digest. An object whose keys are already sorted
 * is written as it is, without a sorted copy (every tool call is digested).
 */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_key, inner: unknown) =>
      inner !== null && typeof inner === 'object' && !Array.isArray(inner) && !keysInOrder(inner)
        ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(byKey))
        : inner,
    indent,
  );
}

/**
 * `sha256:<hex>` of the canonical JSON: identifies arguments in the audit log
 * without storing them. One-shot `hash` (every tool call is digested): no Hash
 * object to build and collect per call.
 */
export function argumentsDigest(value: unknown): string {
  return `sha256:${hash('sha256', canonicalJson(value), 'hex')}`;
}
