import { z } from 'zod';
import { contentText } from './validate-openai-request';
import type { ChatCompletionsRequestBody } from './validate-openai-request';
import { countPromptTokens } from './fake-token-count';
import { BusySchema } from './fake-busy';

/** What the fake OpenAI-compatible model answers to one request. JSON-friendly so other processes can script it. */
export const FakeOpenAiTurnSchema = z.object({
  /** Assistant text. `{{lastToolResult}}` is replaced by the text of the tool messages that answer the last calls. */
  text: z.string().optional(),
  /**
   * The model's reasoning, streamed before the text: as `reasoning_content` deltas (DeepSeek, vLLM, LM Studio) or
   * `reasoning` (Ollama, OpenRouter) only when the request sets `reasoning_effort`, as OpenAI's reasoning models
   * answer it; as `<think>…</think>` at the start of the content always, as local models write it.
   */
  reasoning: z.string().optional(),
  reasoningAs: z.enum(['reasoning_content', 'reasoning', 'think-tag']).default('reasoning_content'),
  /** Tool calls after the text (several = parallel calls), each streamed as `tool_calls` deltas with the arguments in pieces. */
  toolUses: z
    .array(
      z.object({
        name: z.string(),
        input: z.record(z.string(), z.unknown()).default({}),
        id: z.string().optional(),
        /** Sent instead of the JSON of `input` (to test arguments that are not valid JSON). */
        rawArguments: z.string().optional(),
      }),
    )
    .optional(),
  /** Stream the argument pieces of parallel calls interleaved (call 0, call 1, call 0…) instead of one call after the other. */
  interleave: z.boolean().optional(),
  /** Default: `tool_calls` when there are tool calls, else `stop`. */
  finishReason: z.enum(['stop', 'length', 'tool_calls', 'content_filter']).optional(),
  /** Pause between streamed chunks (ms). */
  delayMsPerChunk: z.number().int().min(0).max(60_000).optional(),
  /** Stream the content, then keep the response open until the client goes away (to test stop). */
  holdOpen: z.boolean().optional(),
  /** Stream this many chunks after the first (text, reasoning or tool-call pieces), then drop the connection. */
  dropAfterDeltas: z.number().int().min(0).optional(),
  /** Answer with this HTTP error instead of a completion: OpenAI's `{ error: { message, type, code } }`, or `rawBody` as it is. */
  error: z
    .object({
      status: z.number().int().min(400).max(599),
      message: z.string(),
      type: z.string().optional(),
      code: z.string().nullable().optional(),
      headers: z.record(z.string(), z.string()).optional(),
      rawBody: z.string().optional(),
    })
    .optional(),
  /** Answer busy first (429 with retry-after / retry-after-ms, or 503) for `busy.times` requests, then this turn. */
  busy: BusySchema.optional(),
  /** Start streaming, then send `data: {"error": …}` (as servers do when they fail mid-reply). */
  streamError: z.object({ message: z.string(), type: z.string().optional() }).optional(),
  /** The usage to report instead of the estimate from the text lengths; `cached_tokens` goes in prompt_tokens_details. */
  usage: z
    .object({
      prompt_tokens: z.number().int().min(0),
      completion_tokens: z.number().int().min(0),
      cached_tokens: z.number().int().min(0).optional(),
    })
    .optional(),
});
export type FakeOpenAiTurn = z.input<typeof FakeOpenAiTurnSchema>;
type Turn = z.output<typeof FakeOpenAiTurnSchema>;

/** One chat completions request as the fake received it. */
export interface RecordedOpenAiRequest {
  /** 1-based, in arrival order. */
  number: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body when it was valid (undefined otherwise). */
  body: ChatCompletionsRequestBody | undefined;
  stream: boolean;
}

/** A scripted turn, or a function that picks the answer from the request. */
export type FakeOpenAiTurnSource =
  FakeOpenAiTurn | ((request: RecordedOpenAiRequest) => FakeOpenAiTurn | Promise<FakeOpenAiTurn>);

export interface RenderedCall {
  id: string;
  name: string;
  arguments: string;
}

/** A turn as the fake sends it. */
export interface RenderedCompletion {
  id: string;
  model: string;
  text: string;
  /** Reasoning streamed in this field of the deltas (the think-tag variant is part of `text`). */
  reasoning?: { field: 'reasoning_content' | 'reasoning'; text: string };
  calls: RenderedCall[];
  finishReason: string;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details?: { cached_tokens: number };
    completion_tokens_details?: { reasoning_tokens: number };
  };
}

/** Text of the tool messages that answer the last assistant message's calls. */
export function lastToolResultText(body: ChatCompletionsRequestBody | undefined): string {
  const messages = body?.messages ?? [];
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const texts: string[] = [];
  for (const message of messages.slice(lastAssistant + 1))
    if (message.role === 'tool') texts.push(contentText(message.content));
  return texts.join('\n');
}

/** Words with their trailing space, so joined chunks rebuild the text exactly. */
function textChunks(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

function pieces(text: string, size = 10): string[] {
  const result: string[] = [];
  for (let index = 0; index < text.length; index += size) result.push(text.slice(index, index + size));
  return result;
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function renderCompletion(turn: Turn, request: RecordedOpenAiRequest, number: number): RenderedCompletion {
  const answer = (turn.text ?? '').replaceAll('{{lastToolResult}}', lastToolResultText(request.body));
  const asked = (request.body as { reasoning_effort?: unknown } | undefined)?.reasoning_effort !== undefined;
  const thinks = turn.reasoning !== undefined && (turn.reasoningAs === 'think-tag' || asked);
  const text =
    thinks && turn.reasoningAs === 'think-tag' ? `<think>\n${turn.reasoning}\n</think>\n\n${answer}` : answer;
  const reasoning =
    thinks && turn.reasoning !== undefined && turn.reasoningAs !== 'think-tag'
      ? { field: turn.reasoningAs, text: turn.reasoning }
      : undefined;
  const calls = (turn.toolUses ?? []).map((use, index) => ({
    id: use.id ?? `call_fake_${number}_${index + 1}`,
    name: use.name,
    arguments: use.rawArguments ?? JSON.stringify(use.input),
  }));
  const prompt = turn.usage?.prompt_tokens ?? countPromptTokens(request.body ?? {});
  const thought = thinks && turn.reasoning !== undefined ? estimateTokens(turn.reasoning) : 0;
  const completion = turn.usage?.completion_tokens ?? estimateTokens(answer + JSON.stringify(calls)) + thought;
  const cached = turn.usage?.cached_tokens;
  return {
    id: `chatcmpl-fake-${number}`,
    model: request.body?.model ?? 'unknown',
    text,
    ...(reasoning !== undefined ? { reasoning } : {}),
    calls,
    finishReason: turn.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop'),
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
      ...(thought > 0 ? { completion_tokens_details: { reasoning_tokens: thought } } : {}),
    },
  };
}

/** The non-streaming answer. */
export function completionJson(completion: RenderedCompletion): Record<string, unknown> {
  return {
    id: completion.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: completion.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: completion.text === '' && completion.calls.length > 0 ? null : completion.text,
          ...(completion.calls.length > 0
            ? {
                tool_calls: completion.calls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        finish_reason: completion.finishReason,
      },
    ],
    usage: completion.usage,
  };
}

/** The `delta`s of a streamed answer, in order (the role first, then text, then tool calls). */
export function streamDeltas(completion: RenderedCompletion, interleave: boolean): Array<Record<string, unknown>> {
  const deltas: Array<Record<string, unknown>> = [{ role: 'assistant', content: '' }];
  const reasoning = completion.reasoning;
  if (reasoning !== undefined)
    for (const chunk of textChunks(reasoning.text)) deltas.push({ [reasoning.field]: chunk, content: null });
  for (const chunk of textChunks(completion.text)) deltas.push({ content: chunk });
  const perCall = completion.calls.map((call, index) => [
    { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
    ...pieces(call.arguments).map((piece) => ({ tool_calls: [{ index, function: { arguments: piece } }] })),
  ]);
  if (!interleave) for (const call of perCall) deltas.push(...call);
  else {
    for (let step = 0; perCall.some((call) => step < call.length); step += 1) {
      for (const call of perCall) if (step < call.length) deltas.push(call[step] as Record<string, unknown>);
    }
  }
  return deltas;
}
