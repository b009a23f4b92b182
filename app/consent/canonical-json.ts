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

/** Deeper than this is left to the general path (which sorts as it goes) rather than walked twice. */
const MAX_CANONICAL_CHECK_DEPTH = 64;

/**
 * True when `value` is made of plain objects with sorted keys, arrays and
 * primitives only: `JSON.stringify` of it as it is already gives the
 * canonical text. Anything else (a toJSON method, a class instance) takes
 * the general path.
 */
function isAlreadyCanonical(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (depth >= MAX_CANONICAL_CHECK_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!isAlreadyCanonical(item, depth + 1)) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function' || !keysInOrder(value)) return false;
  for (const key in value) if (!isAlreadyCanonical((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/**
 * JSON with object keys sorted at every depth, so `{a, b}` and `{b, a}` give
 * the same text and the same digest. A value whose keys are all in order
 * already (most tool arguments) is written by plain `JSON.stringify`, with no
 * replacer call per value; objects whose keys are sorted are not copied.
 */
export function canonicalJson(value: unknown, indent?: number): string {
  if (isAlreadyCanonical(value, 0)) return JSON.stringify(value, undefined, indent);
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
