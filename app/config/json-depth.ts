/**
 * How deep Berth lets `[` and `{` nest in a JSON file it parses. jsonc-parser
 * builds its tree recursively: a file of tens of thousands of `[` overflows
 * the stack and would take start-up down with it. A real config is a handful
 * of levels deep; 256 leaves room for any unknown keys a person keeps.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * The offset of the first `[` or `{` that opens a level beyond `maxDepth`, or
 * undefined. Brackets inside strings and comments do not count. Linear, no
 * recursion, so it is safe on any input.
 */
export function tooDeepAt(text: string, maxDepth: number = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (char === 0x22 /* " */) {
      // Skip the string; an unterminated one runs to the end of its line (as the parser reads it).
      for (i += 1; i < text.length; i += 1) {
        const inner = text.charCodeAt(i);
        if (inner === 0x5c /* \ */) i += 1;
        else if (inner === 0x22 || inner === 0x0a || inner === 0x0d) break;
      }
    } else if (char === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      while (i < text.length && text.charCodeAt(i) !== 0x0a) i += 1;
    } else if (char === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      depth += 1;
      if (depth > maxDepth) return i;
    } else if ((char === 0x5d /* ] */ || char === 0x7d) /* } */ && depth > 0) {
      depth -= 1;
    }
  }
  return undefined;
}
