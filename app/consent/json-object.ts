import type { JsonObject } from '../../shared/domain/consent';

/** Deeper than this is refused (a cycle would never end; no tool's arguments nest this deep). */
const MAX_DEPTH = 1_000;

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isJsonValue(value: unknown, depth: number): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        for (const item of value) if (!isJsonValue(item, depth + 1)) return false;
        return true;
      }
      return isJsonRecord(value, depth + 1);
    default:
      return false;
  }
}

function isJsonRecord(value: object, depth: number): boolean {
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (!isJsonValue((value as Record<string, unknown>)[key], depth)) return false;
  return true;
}

/**
 * Whether `value` is a JSON object (what `JsonObjectSchema` accepts: a plain
 * object whose values are strings, finite numbers, booleans, null, arrays and
 * plain objects of the same), checked in place. Every tool call's arguments
 * pass here; a zod parse of them built a copy of the whole value per call.
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && isJsonRecord(value, 0);
}
