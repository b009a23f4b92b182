/**
 * The message of anything thrown, for logs, notices and error replies. The
 * one helper every layer uses, so a thrown value reads the same everywhere:
 * an Error's message (its name when the message is empty), a string as is, a
 * plain object or array as JSON, anything else as `String()` gives it. Never
 * throws itself, even for a value whose `toString` does.
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) return error.message || error.name;
    if (typeof error === 'string') return error;
    if (isPlainData(error)) {
      try {
        return JSON.stringify(error);
      } catch {
        // A cycle or a BigInt inside: String() still says what it is.
      }
    }
    return String(error);
  } catch {
    return 'an error that cannot be described';
  }
}

/** An array or an object literal: JSON says more about it than "[object Object]". */
function isPlainData(value: unknown): value is object {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
