import { z } from 'zod';
import { blocksOf } from './validate-request';
import { toolSearchStep } from './tool-search-steps';
import { asksForThinking, redactedData, thinkingSignature } from './fake-thinking';
import type { MessagesRequestBody } from './validate-request';
import { countPromptTokens } from './fake-token-count';
import { promptView } from './fake-deferred-tools';
import { BusySchema } from './fake-busy';

/** What the fake model answers to one request. JSON-friendly so other processes can script it. */
export const FakeTurnSchema = z.object({
  /** Assistant text. `{{lastToolResult}}` is replaced by the text of the request's last tool_result. */
  text: z.string().optional(),
  /**
   * Tool search, one step per request (tool-search-steps.ts): search_tools for `query`, then load_tools with the first
   * tool listed, then a call of it with `input`, then `text` (default: the tool's result). Script it once per step.
   */
  searchAndUse: z
    .object({ query: z.string(), input: z.record(z.string(), z.unknown()).default({}), text: z.string().optional() })
    .optional(),
  /**
   * The model's reasoning, streamed as a `thinking` block (thinking_delta pieces, then a signature_delta) before the
   * text, only when the request asks for thinking (fake-thinking.ts) — as the API does.
   */
  thinking: z.string().optional(),
  /** The reasoning comes hidden: a `redacted_thinking` block with opaque data instead of a `thinking` block. */
  redactedThinking: z.boolean().optional(),
  /** Tool calls, after the text, each streamed as `input_json_delta` pieces. */
  toolUses: z
    .array(
      z.object({ name: z.string(), input: z.record(z.string(), z.unknown()).default({}), id: z.string().optional() }),
    )
    .optional(),
  /** Default: `tool_use` when there are tool uses, else `end_turn`. */
  stopReason: z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal']).optional(),
  /** Pause between streamed chunks (ms). */
  delayMsPerChunk: z.number().int().min(0).max(60_000).optional(),
  /** Stream the content, then keep the response open until the client goes away (to test stop). */
  holdOpen: z.boolean().optional(),
  /** Answer with this HTTP error instead of a message. */
  error: z
    .object({
      status: z.number().int().min(400).max(599),
      type: z.string(),
      message: z.string(),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  /** Answer busy first (429 with retry-after, or 529 overloaded_error) for `busy.times` requests, then this turn. */
  busy: BusySchema.optional(),
  /** Stream the content, then drop the connection without ending the reply (the network went away mid-reply). */
  dropAfterContent: z.boolean().optional(),
  /** Stream this many content deltas (text, thinking or tool input pieces), then drop the connection mid-block. */
  dropAfterDeltas: z.number().int().min(0).optional(),
  /** Start streaming, then send an SSE `error` event (as the API does when overloaded mid-stream). */
  streamError: z.object({ type: z.string(), message: z.string() }).optional(),
  /** The usage to report instead of the estimate from the text lengths (to test token budgets). */
  usage: z
    .object({
      input_tokens: z.number().int().min(0),
      output_tokens: z.number().int().min(0),
      /** Reported as the API does (in message_start) when given: the prompt cache's share. */
      cache_read_input_tokens: z.number().int().min(0).optional(),
      cache_creation_input_tokens: z.number().int().min(0).optional(),
    })
    .optional(),
});
export type FakeTurn = z.input<typeof FakeTurnSchema>;

/** One request as the fake received it. */
export interface RecordedRequest {
  /** 1-based, in arrival order. */
  number: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: MessagesRequestBody | undefined;
  stream: boolean;
}

/** A scripted turn, or a function that picks the answer from the request (e.g. echo a tool result). */
export type FakeTurnSource = FakeTurn | ((request: RecordedRequest) => FakeTurn | Promise<FakeTurn>);

export interface RenderedBlock {
  type: 'text' | 'tool_use' | 'thinking' | 'redacted_thinking' | 'compaction';
  /** Final block as it appears in a non-streaming message. */
  block: Record<string, unknown>;
  /** Delta payloads, in order. */
  deltas: Array<Record<string, unknown>>;
  /** The block as `content_block_start` announces it. */
  start: Record<string, unknown>;
}

export interface RenderedMessage {
  id: string;
  model: string;
  blocks: RenderedBlock[];
  stopReason: string;
  inputTokens: number;
  outputTokens: number;
  /** Output tokens of the thinking, reported in `output_tokens_details` when there was some. */
  thinkingTokens?: number;
  /** The scripted prompt-cache counts, when the turn gave them. */
  cache?: { cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
  /** `usage.iterations` when the reply compacted the context (fake-compaction.ts): what the compaction cost. */
  iterations?: Array<Record<string, unknown>>;
}

/** Text of every tool_result in the request's last user message. */
export function lastToolResultText(body: MessagesRequestBody | undefined): string {
  const last = body?.messages.at(-1);
  if (last === undefined || last.role !== 'user') return '';
  const texts: string[] = [];
  for (const block of blocksOf(last)) {
    if (block.type !== 'tool_result') continue;
    const content = block.content;
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) {
      for (const inner of content as Array<Record<string, unknown>>)
        if (inner.type === 'text' && typeof inner.text === 'string') texts.push(inner.text);
    }
  }
  return texts.join('\n');
}

/** Words with their trailing space, so joined chunks rebuild the text exactly. */
function textChunks(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

function jsonChunks(json: string, size = 12): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < json.length; index += size) chunks.push(json.slice(index, index + size));
  return chunks;
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function thinkingBlock(thinking: string, redacted: boolean): RenderedBlock {
  if (redacted) {
    const block = { type: 'redacted_thinking', data: redactedData(thinking) };
    return { type: 'redacted_thinking', block, start: block, deltas: [] };
  }
  const signature = thinkingSignature(thinking);
  return {
    type: 'thinking',
    block: { type: 'thinking', thinking, signature },
    start: { type: 'thinking', thinking: '', signature: '' },
    deltas: [
      ...textChunks(thinking).map((chunk) => ({ type: 'thinking_delta', thinking: chunk })),
      { type: 'signature_delta', signature },
    ],
  };
}

export function renderTurn(
  scripted: z.output<typeof FakeTurnSchema>,
  request: RecordedRequest,
  messageNumber: number,
): RenderedMessage {
  const turn =
    scripted.searchAndUse === undefined
      ? scripted
      : { ...scripted, ...toolSearchStep(scripted.searchAndUse, request.body, lastToolResultText(request.body)) };
  const blocks: RenderedBlock[] = [];
  const thinking = turn.thinking !== undefined && asksForThinking(request.body) ? turn.thinking : undefined;
  if (thinking !== undefined) blocks.push(thinkingBlock(thinking, turn.redactedThinking === true));
  if (turn.text !== undefined && turn.text.length > 0) {
    const text = turn.text.replaceAll('{{lastToolResult}}', lastToolResultText(request.body));
    blocks.push({
      type: 'text',
      block: { type: 'text', text, citations: null },
      start: { type: 'text', text: '', citations: null },
      deltas: textChunks(text).map((chunk) => ({ type: 'text_delta', text: chunk })),
    });
  }
  for (const [index, use] of (turn.toolUses ?? []).entries()) {
    const id = use.id ?? `toolu_fake_${messageNumber}_${index + 1}`;
    const json = JSON.stringify(use.input);
    blocks.push({
      type: 'tool_use',
      block: { type: 'tool_use', id, name: use.name, input: use.input, caller: { type: 'direct' } },
      start: { type: 'tool_use', id, name: use.name, input: {}, caller: { type: 'direct' } },
      deltas: [
        { type: 'input_json_delta', partial_json: '' },
        ...jsonChunks(json).map((chunk) => ({ type: 'input_json_delta', partial_json: chunk })),
      ],
    });
  }
  const outputText = blocks.map((block) => JSON.stringify(block.block)).join('');
  return {
    id: `msg_fake_${messageNumber}`,
    model: request.body?.model ?? 'unknown',
    blocks,
    stopReason: turn.stopReason ?? ((turn.toolUses ?? []).length > 0 ? 'tool_use' : 'end_turn'),
    inputTokens:
      turn.usage?.input_tokens ?? countPromptTokens(request.body === undefined ? {} : promptView(request.body)),
    outputTokens: turn.usage?.output_tokens ?? estimateTokens(outputText),
    ...(thinking !== undefined ? { thinkingTokens: estimateTokens(thinking) } : {}),
    ...(turn.usage?.cache_read_input_tokens !== undefined || turn.usage?.cache_creation_input_tokens !== undefined
      ? {
          cache: {
            ...(turn.usage.cache_read_input_tokens !== undefined
              ? { cache_read_input_tokens: turn.usage.cache_read_input_tokens }
              : {}),
            ...(turn.usage.cache_creation_input_tokens !== undefined
              ? { cache_creation_input_tokens: turn.usage.cache_creation_input_tokens }
              : {}),
          },
        }
      : {}),
  };
}

export function messageJson(message: RenderedMessage): Record<string, unknown> {
  return {
    id: message.id,
    type: 'message',
    role: 'assistant',
    model: message.model,
    content: message.blocks.map((block) => block.block),
    stop_reason: message.stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: message.inputTokens,
      output_tokens: message.outputTokens,
      ...message.cache,
      ...(message.iterations !== undefined ? { iterations: message.iterations } : {}),
    },
  };
}

/** The `output_tokens_details` of a reply that thought (the API reports its thinking tokens there). */
export function outputDetails(message: RenderedMessage): Record<string, unknown> {
  return message.thinkingTokens !== undefined
    ? { output_tokens_details: { thinking_tokens: message.thinkingTokens } }
    : {};
}
