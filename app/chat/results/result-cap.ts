import type { DocumentBlockParam, ImageBlockParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { CHARS_PER_TOKEN } from '../../../shared/domain/chat-usage';
import { DEFAULT_RESULT_LIMIT_TOKENS, MIN_RESULT_LIMIT_TOKENS } from '../../../shared/domain/result-limits';

// Big tool results, cut for the model: a result above its limit reaches the
// model as its head and tail with a note between them saying what was left
// out and how to read more (READ_RESULT_TOOL). The whole result stays saved
// with the conversation; only the request is cut. Offsets and lines in the
// note count in the result's flat text (resultFlatText), the same text the
// reading tool reads, so the model can ask for exactly the part it missed.

/** What the Messages API takes inside one tool_result (what toAnthropicToolResult builds). */
export type ModelResultPart = TextBlockParam | ImageBlockParam | DocumentBlockParam;

/** The host tool that reads further ranges of a capped result (read-result-tool.ts beside it). */
export const READ_RESULT_TOOL = 'read_tool_result';

export {
  DEFAULT_RESULT_LIMIT_TOKENS,
  MAX_RESULT_LIMIT_TOKENS,
  MIN_RESULT_LIMIT_TOKENS,
} from '../../../shared/domain/result-limits';
/** At most this share of the model's context window goes to one result, for small local models. */
export const RESULT_CONTEXT_SHARE = 0.1;

/** What an image or a PDF counts against the limit: about what Anthropic charges for a full-size image. */
export const MEDIA_COST_CHARS = 1_600 * CHARS_PER_TOKEN;
/** Between two parts in the flat text. */
const PART_SEPARATOR = '\n';
/** Kept free for the note inside the limit. */
const NOTE_RESERVE_CHARS = 1_200;
/** The head's share of what is shown; the tail (often the summary or the error) gets the rest. */
const HEAD_SHARE = 0.6;
/** A cut moves back to a line break found within this share of what is kept, so lines stay whole. */
const LINE_SNAP_SHARE = 0.2;

/** The limit for a new result: the server's own when the person set one, else Berth's ceiling bounded by the model's context. */
export function resultLimitTokens(serverLimit: number | undefined, contextWindow: number | undefined): number {
  if (serverLimit !== undefined) return serverLimit;
  const share =
    contextWindow === undefined ? DEFAULT_RESULT_LIMIT_TOKENS : Math.floor(contextWindow * RESULT_CONTEXT_SHARE);
  return Math.max(MIN_RESULT_LIMIT_TOKENS, Math.min(DEFAULT_RESULT_LIMIT_TOKENS, share));
}

interface Segment {
  part: ModelResultPart;
  /** Where the part starts in the flat text. */
  start: number;
  /** Its length in the flat text (a placeholder's for media). */
  length: number;
  /** What it counts against the limit. */
  cost: number;
}

/** How an image or document appears in the flat text: the reading tool cannot hand them out again. */
function placeholder(part: ImageBlockParam | DocumentBlockParam): string {
  if (part.type === 'image') return `[image${'media_type' in part.source ? `: ${part.source.media_type}` : ''}]`;
  return `[document${typeof part.title === 'string' ? `: ${part.title}` : ''}]`;
}

function segmentsOf(parts: readonly ModelResultPart[]): { segments: Segment[]; flat: string } {
  const segments: Segment[] = [];
  const texts: string[] = [];
  let at = 0;
  for (const part of parts) {
    if (segments.length > 0) at += PART_SEPARATOR.length;
    const text = part.type === 'text' ? part.text : placeholder(part);
    segments.push({
      part,
      start: at,
      length: text.length,
      cost: part.type === 'text' ? text.length : MEDIA_COST_CHARS,
    });
    texts.push(text);
    at += text.length;
  }
  return { segments, flat: texts.join(PART_SEPARATOR) };
}

/** The result as one text: its parts joined by a line break, images and documents as a bracketed placeholder. */
export function resultFlatText(parts: readonly ModelResultPart[]): string {
  return segmentsOf(parts).flat;
}

/** What the limit would count for these parts (characters; an image or document counts MEDIA_COST_CHARS). */
export function resultCostChars(parts: readonly ModelResultPart[]): number {
  let cost = 0;
  for (const part of parts) cost += part.type === 'text' ? part.text.length : MEDIA_COST_CHARS;
  return cost + Math.max(0, parts.length - 1) * PART_SEPARATOR.length;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** `end` moved back so that text.slice(0, end) splits no surrogate pair, and to a line break when one is near. */
function headCut(text: string, end: number): number {
  let cut = end;
  if (cut > 0 && cut < text.length && isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  const lineBreak = text.lastIndexOf('\n', cut - 1);
  if (lineBreak >= 0 && lineBreak + 1 >= cut - Math.floor(cut * LINE_SNAP_SHARE)) return lineBreak + 1;
  return cut;
}

/** `start` moved forward so that text.slice(start) splits no surrogate pair, and to just after a line break when one is near. */
function tailCut(text: string, start: number): number {
  let cut = start;
  if (cut > 0 && cut < text.length && isHighSurrogate(text.charCodeAt(cut - 1))) cut += 1;
  const kept = text.length - cut;
  const lineBreak = text.indexOf('\n', cut);
  if (lineBreak >= 0 && lineBreak + 1 <= cut + Math.floor(kept * LINE_SNAP_SHARE) && lineBreak + 1 < text.length)
    return lineBreak + 1;
  return cut;
}

/** Parts that fit `budget` from the front: whole parts, then the start of the one that does not fit. */
function takeHead(
  segments: readonly Segment[],
  budget: number,
): { parts: ModelResultPart[]; end: number; shown: number } {
  const parts: ModelResultPart[] = [];
  let spent = 0;
  let shown = 0;
  for (const segment of segments) {
    const left = budget - spent;
    if (segment.cost <= left) {
      parts.push(segment.part);
      spent += segment.cost + PART_SEPARATOR.length;
      if (segment.part.type === 'text') shown += segment.length;
      continue;
    }
    if (segment.part.type === 'text' && left > 0) {
      const cut = headCut(segment.part.text, left);
      if (cut > 0) parts.push({ type: 'text', text: segment.part.text.slice(0, cut) });
      return { parts, end: segment.start + cut, shown: shown + cut };
    }
    return { parts, end: segment.start, shown };
  }
  const last = segments.at(-1);
  return { parts, end: last === undefined ? 0 : last.start + last.length, shown };
}

/** Parts that fit `budget` from the back, never before `floor` (where the head ended). */
function takeTail(
  segments: readonly Segment[],
  budget: number,
  floor: number,
  total: number,
): { parts: ModelResultPart[]; start: number; shown: number } {
  const parts: ModelResultPart[] = [];
  let spent = 0;
  let shown = 0;
  let start = total;
  for (let index = segments.length - 1; index >= 0; index -= 1) {
    const segment = segments[index] as Segment;
    const left = budget - spent;
    if (segment.start < floor) {
      // The head took part of this one: the tail may take only what the head left of it.
      if (segment.part.type === 'text' && segment.start + segment.length > floor && left > 0) {
        const text = segment.part.text;
        const from = tailCut(text, Math.max(floor - segment.start, text.length - left));
        if (from < text.length) {
          parts.unshift({ type: 'text', text: text.slice(from) });
          shown += text.length - from;
          start = segment.start + from;
        }
      }
      break;
    }
    if (segment.cost <= left) {
      parts.unshift(segment.part);
      spent += segment.cost + PART_SEPARATOR.length;
      if (segment.part.type === 'text') shown += segment.length;
      start = segment.start;
      continue;
    }
    if (segment.part.type === 'text' && left > 0) {
      const text = segment.part.text;
      const from = tailCut(text, text.length - left);
      if (from < text.length) {
        parts.unshift({ type: 'text', text: text.slice(from) });
        shown += text.length - from;
        start = segment.start + from;
      }
    }
    break;
  }
  return { parts, start, shown };
}

/** Text parts next to each other merged into one: a result of 10,000 small blocks does not reach the model as 10,000 blocks. */
function merged(parts: readonly ModelResultPart[]): ModelResultPart[] {
  const out: ModelResultPart[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (part.type === 'text' && last?.type === 'text')
      out[out.length - 1] = { type: 'text', text: `${last.text}${PART_SEPARATOR}${part.text}` };
    else out.push(part);
  }
  return out;
}

/** Line number (1-based) of the character at `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

const n = (value: number): string => value.toLocaleString('en-US');

/** What Berth says about a capped result, once, when it was saved: the card shows it ("The model saw 9,800 of 1,200,000 characters"). */
export interface ResultCapRecord {
  /** The limit it was cut to (estimated tokens), kept so every later request cuts it the same way. */
  limitTokens: number;
  /** Characters of the result the model sees (head and tail, without Berth's note). */
  shownChars: number;
  /** Characters of the whole result, in its flat text. */
  totalChars: number;
  /** Characters a token it was cut with, when the model's estimate was corrected (app/chat/context); absent: CHARS_PER_TOKEN. */
  charsPerToken?: number;
}

/** One result cut for a request. */
export interface CappedResult {
  parts: ModelResultPart[];
  record: ResultCapRecord;
  /** Estimated tokens the request saved (what was left out, less the note). */
  savedTokens: number;
}

/** Who the note names: the result's id for the reading tool and, when known, the server. */
export interface CapSubject {
  resultId: string;
  server?: string;
}

/** How many characters one call of the reading tool returns at most, for a result capped at `limitTokens`. */
export function readBoundChars(limitTokens: number): number {
  return Math.max(1_000, limitTokens * CHARS_PER_TOKEN - NOTE_RESERVE_CHARS);
}

/**
 * `parts` cut to `limitTokens` (estimated: CHARS_PER_TOKEN characters a token; an image or document
 * counts MEDIA_COST_CHARS): the head (60 %) and the tail, each cut at a line break when one is near
 * and never inside a surrogate pair, with a note between them. undefined when the parts fit.
 */
export function capResultParts(
  parts: readonly ModelResultPart[],
  limitTokens: number,
  subject: CapSubject,
  charsPerToken = CHARS_PER_TOKEN,
): CappedResult | undefined {
  const budget = Math.floor(limitTokens * charsPerToken);
  if (resultCostChars(parts) <= budget) return undefined;
  const { segments, flat } = segmentsOf(parts);
  const room = Math.max(0, budget - NOTE_RESERVE_CHARS);
  const headBudget = Math.floor(room * HEAD_SHARE);
  const head = takeHead(segments, headBudget);
  const tail = takeTail(segments, room - resultCostChars(head.parts), head.end, flat.length);
  const note = capNote({ ...subject, flat, headEnd: head.end, tailStart: tail.start, limitTokens, charsPerToken });
  const record: ResultCapRecord = {
    limitTokens,
    shownChars: head.shown + tail.shown,
    totalChars: flat.length,
    ...(charsPerToken !== CHARS_PER_TOKEN ? { charsPerToken } : {}),
  };
  const sentChars = resultCostChars(head.parts) + resultCostChars(tail.parts) + note.length;
  const savedTokens = Math.max(0, Math.ceil((resultCostChars(parts) - sentChars) / charsPerToken));
  return { parts: merged([...head.parts, { type: 'text', text: note }, ...tail.parts]), record, savedTokens };
}

function capNote(
  input: CapSubject & { flat: string; headEnd: number; tailStart: number; limitTokens: number; charsPerToken: number },
): string {
  const { flat, headEnd, tailStart, limitTokens, resultId, server, charsPerToken } = input;
  const total = flat.length;
  const lines = lineAt(flat, total);
  const from = server === undefined ? '' : ` from server "${server}"`;
  const shown: string[] = [];
  if (headEnd > 0) shown.push(`offsets 0–${headEnd} (lines 1–${n(lineAt(flat, Math.max(0, headEnd - 1)))})`);
  if (tailStart < total) shown.push(`offsets ${tailStart}–${total} (lines ${n(lineAt(flat, tailStart))}–${n(lines)})`);
  const omitted = Math.max(0, tailStart - headEnd);
  return [
    `[Berth cut this tool result${from}: it is ${n(total)} characters (${n(lines)} lines, about ${n(Math.ceil(total / charsPerToken))} tokens),`,
    `above the limit of ${n(limitTokens)} tokens for one result.`,
    shown.length > 0 ? `You see ${shown.join(' and ')}.` : 'None of it fits here.',
    `Left out: offsets ${headEnd}–${tailStart} (${n(omitted)} characters, about ${n(Math.ceil(omitted / charsPerToken))} tokens).`,
    `The whole result is saved and the user sees all of it. To read more, call ${READ_RESULT_TOOL} with result_id "${resultId}"`,
    `and either offset and length (characters, 0-based) or start_line and end_line (1-based);`,
    `each call returns at most ${n(readBoundChars(limitTokens))} characters. Read only what you need.]`,
  ].join(' ');
}
