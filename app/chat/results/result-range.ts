// One range of a saved result's flat text (result-cap.ts), as the reading tool
// hands it to the model: by character offset and length, or by lines, never
// more than a bound per call, and never splitting a surrogate pair.

/** What the model asked for: characters (0-based offset, length) or lines (1-based, inclusive). */
export type RangeRequest =
  { kind: 'chars'; offset: number; length?: number } | { kind: 'lines'; startLine: number; endLine?: number };

/** `from`/`to`: the offsets read (end exclusive). */
export type RangeAnswer = { ok: true; text: string; from: number; to: number } | { ok: false; message: string };

const n = (value: number): string => value.toLocaleString('en-US');

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Offsets of the line starts (line 1 starts at 0). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The 1-based line holding `offset` (binary search over the line starts). */
function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] as number) <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** Read the model's input: `offset`/`length` or `start_line`/`end_line`, whole numbers only. A problem is said in words. */
export function parseRangeInput(input: Record<string, unknown>): RangeRequest | { problem: string } {
  const whole = (key: string, min: number): number | undefined | { problem: string } => {
    const value = input[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
      return { problem: `${key} must be a whole number of at least ${min}` };
    return value;
  };
  const fields = {
    offset: whole('offset', 0),
    length: whole('length', 1),
    start: whole('start_line', 1),
    end: whole('end_line', 1),
  };
  for (const value of Object.values(fields)) if (typeof value === 'object') return value;
  const { offset, length, start, end } = fields as Record<keyof typeof fields, number | undefined>;
  const byChars = offset !== undefined || length !== undefined;
  const byLines = start !== undefined || end !== undefined;
  if (byChars && byLines) return { problem: 'give either offset and length, or start_line and end_line, not both' };
  if (byLines) {
    if (start === undefined) return { problem: 'start_line is missing' };
    if (end !== undefined && end < start) return { problem: `end_line (${end}) is before start_line (${start})` };
    return { kind: 'lines', startLine: start, ...(end !== undefined ? { endLine: end } : {}) };
  }
  return { kind: 'chars', offset: offset ?? 0, ...(length !== undefined ? { length } : {}) };
}

/**
 * The asked range of `text`, at most `bound` characters, with a first line saying which
 * characters and lines these are and where the next part starts.
 */
export function readRange(text: string, request: RangeRequest, bound: number): RangeAnswer {
  const total = text.length;
  const starts = lineStarts(text);
  let from: number;
  let to: number;
  if (request.kind === 'chars') {
    if (request.offset >= total && !(total === 0 && request.offset === 0)) {
      return {
        ok: false,
        message: `offset ${request.offset} is past the end: the result has ${n(total)} characters (offsets 0–${total})`,
      };
    }
    from = request.offset;
    to = Math.min(total, from + (request.length ?? bound));
  } else {
    if (request.startLine > starts.length)
      return {
        ok: false,
        message: `start_line ${n(request.startLine)} is past the end: the result has ${n(starts.length)} lines`,
      };
    from = starts[request.startLine - 1] as number;
    const endLine = Math.min(request.endLine ?? starts.length, starts.length);
    to = endLine >= starts.length ? total : (starts[endLine] as number);
  }
  const capped = to - from > bound;
  if (capped) to = from + bound;
  // Never hand out half a character: a cut between a surrogate pair moves out of it.
  if (from > 0 && from < total && isLowSurrogate(text.charCodeAt(from)) && isHighSurrogate(text.charCodeAt(from - 1)))
    from -= 1;
  if (to < total && to > 0 && isHighSurrogate(text.charCodeAt(to - 1))) to -= 1;
  const firstLine = lineOf(starts, from);
  const lastLine = lineOf(starts, Math.max(from, to - 1));
  const more =
    to < total
      ? ` More follows: next offset ${to}${capped ? ` (at most ${n(bound)} characters a call)` : ''}.`
      : ' This is the end of the result.';
  const head = `[Offsets ${from}–${to} of ${n(total)} characters, lines ${n(firstLine)}–${n(lastLine)} of ${n(starts.length)}.${more}]`;
  return { ok: true, text: `${head}\n${text.slice(from, to)}`, from, to };
}
