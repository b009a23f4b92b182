import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { LlmContentBlock, LlmResponse, LlmUsage } from './llm-provider';
import { OPENAI_CACHE_PRICES, withCacheSaving } from './cache-prices';
import { ThinkTagSplitter } from './think-tags';

// A streamed Chat Completions reply, put back together as the Anthropic-shaped
// LlmResponse the chat engine reads. Text deltas pass straight to onText; tool
// calls arrive as `tool_calls` deltas keyed by index (the id and name in the
// first, the JSON arguments in pieces after), possibly several interleaved.

/** The longest piece of unreadable arguments quoted back to the model. */
const MAX_QUOTED_ARGUMENTS = 2000;

interface PendingCall {
  id: string | undefined;
  name: string;
  arguments: string;
  announced: boolean;
}

export interface ReplyCallbacks {
  onText?: (delta: string) => void;
  onThinking?: (delta: string) => void;
  onToolUseStart?: (toolUse: { id: string; name: string }) => void;
}

/** Chat Completions' finish_reason in the Messages API's words (what the engine acts on). */
export function toStopReason(finishReason: string | null, hasToolCalls: boolean): string {
  switch (finishReason) {
    case 'length':
      // A half-written call must not run: max_tokens tells the engine so.
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    default:
      // Some servers (older Ollama, vLLM with some parsers) say `stop` after tool calls.
      return hasToolCalls ? 'tool_use' : 'end_turn';
  }
}

/** Usage as Berth keeps it: cached prompt tokens apart from the rest of the input, as Anthropic reports them. */
export function toLlmUsage(usage: CompletionUsage | null | undefined): LlmUsage {
  if (usage === undefined || usage === null) return { inputTokens: 0, outputTokens: 0 };
  const prompt = usage.prompt_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  const result: LlmUsage = { inputTokens: prompt, outputTokens: usage.completion_tokens ?? 0 };
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number' && reasoning > 0) result.reasoningTokens = reasoning;
  if (typeof cached === 'number' && cached > 0) {
    result.inputTokens = Math.max(0, prompt - cached);
    result.cacheReadTokens = cached;
    return withCacheSaving(result, OPENAI_CACHE_PRICES);
  }
  return result;
}

function quote(raw: string): string {
  return raw.length > MAX_QUOTED_ARGUMENTS
    ? `${raw.slice(0, MAX_QUOTED_ARGUMENTS)}… (${raw.length} characters in all)`
    : raw;
}

/** The model's arguments text as an input object, or why it is not one. */
export function parseToolArguments(raw: string): { input: Record<string, unknown> } | { error: string } {
  // A call without parameters often comes with no arguments at all.
  if (raw.trim() === '') return { input: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { error: `were not valid JSON (${reason}): ${quote(raw)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: `were not a JSON object: ${quote(raw)}` };
  }
  return { input: value as Record<string, unknown> };
}

/** The reasoning delta of a chunk: `reasoning_content` (DeepSeek, vLLM, LM Studio), or `reasoning` (Ollama, OpenRouter). */
function reasoningDelta(delta: object): string {
  const fields = delta as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof fields.reasoning_content === 'string') return fields.reasoning_content;
  return typeof fields.reasoning === 'string' ? fields.reasoning : '';
}

/** Collects one streamed reply. */
export class ChatCompletionsReply {
  private text = '';
  private thinking = '';
  /** Content is read through it: a reply that starts with `<think>` gives its reasoning apart (think-tags.ts). */
  private readonly content: ThinkTagSplitter;
  private refusal = '';
  private readonly calls: PendingCall[] = [];
  private readonly callsByIndex = new Map<number, PendingCall>();
  private finishReason: string | null = null;
  private usage: CompletionUsage | null | undefined;
  private model: string | undefined;
  /** Chunks received: none at all means the server did not speak Chat Completions. */
  chunkCount = 0;

  constructor(private readonly callbacks: ReplyCallbacks = {}) {
    this.content = new ThinkTagSplitter(
      (delta) => this.addThinking(delta),
      (delta) => {
        this.text += delta;
        this.callbacks.onText?.(delta);
      },
    );
  }

  private addThinking(delta: string): void {
    this.thinking += delta;
    this.callbacks.onThinking?.(delta);
  }

  add(chunk: ChatCompletionChunk): void {
    this.chunkCount += 1;
    // The model that answered (a router or an alias may name another than the one asked for).
    if (typeof chunk.model === 'string' && chunk.model !== '') this.model = chunk.model;
    // The usage comes in a last chunk without choices (stream_options.include_usage).
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (choice === undefined) return;
    const delta = choice.delta ?? {};
    const reasoning = reasoningDelta(delta);
    if (reasoning !== '') this.addThinking(reasoning);
    if (typeof delta.content === 'string' && delta.content !== '') this.content.add(delta.content);
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      this.refusal += delta.refusal;
      this.callbacks.onText?.(delta.refusal);
    }
    for (const call of delta.tool_calls ?? []) this.addCall(call);
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.finishReason = choice.finish_reason;
  }

  private addCall(delta: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    const pending = this.pendingFor(delta);
    if (pending.id === undefined && typeof delta.id === 'string' && delta.id !== '') pending.id = delta.id;
    const name = delta.function?.name;
    // The name comes whole in the first delta; some servers repeat it later.
    if (pending.name === '' && typeof name === 'string') pending.name = name;
    const args: unknown = delta.function?.arguments;
    // A few servers send the arguments as an object rather than JSON text.
    if (typeof args === 'string') pending.arguments += args;
    else if (args !== undefined && args !== null) pending.arguments += JSON.stringify(args);
    if (!pending.announced && pending.name !== '') {
      pending.announced = true;
      this.callbacks.onToolUseStart?.({ id: this.idOf(pending), name: pending.name });
    }
  }

  /** The call a delta belongs to: by index; without one (some servers), a new id starts a new call. */
  private pendingFor(delta: ChatCompletionChunk.Choice.Delta.ToolCall): PendingCall {
    const index = typeof delta.index === 'number' ? delta.index : undefined;
    if (index !== undefined) {
      const known = this.callsByIndex.get(index);
      if (known !== undefined) return known;
    } else {
      const last = this.calls.at(-1);
      const startsNew = typeof delta.id === 'string' && delta.id !== '' && last?.id !== delta.id;
      if (last !== undefined && !startsNew) return last;
    }
    const created: PendingCall = { id: undefined, name: '', arguments: '', announced: false };
    this.calls.push(created);
    if (index !== undefined) this.callsByIndex.set(index, created);
    return created;
  }

  private idOf(call: PendingCall): string {
    // Servers that give no id (some local ones) still need one to pair the result with.
    call.id ??= `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    return call.id;
  }

  /** The finished reply. */
  finish(): LlmResponse {
    this.content.finish();
    const content: LlmContentBlock[] = [];
    // Reasoning first, as Anthropic's thinking comes: no signature, so it is shown and kept but never sent back.
    if (this.thinking.trim() !== '') content.push({ type: 'thinking', thinking: this.thinking });
    const text = this.text + (this.refusal !== '' ? (this.text === '' ? this.refusal : `\n\n${this.refusal}`) : '');
    if (text !== '') content.push({ type: 'text', text });
    // A call that never got a name can be neither run nor sent back (the API checks names): only arguments came.
    const calls = this.calls.filter((call) => call.name !== '');
    for (const call of calls) {
      const parsed = parseToolArguments(call.arguments);
      const id = this.idOf(call);
      if ('input' in parsed) content.push({ type: 'tool_use', id, name: call.name, input: parsed.input });
      else
        content.push({ type: 'tool_use', id, name: call.name, input: {}, inputError: `The arguments ${parsed.error}` });
    }
    const stopReason =
      this.refusal !== '' && this.text === '' && calls.length === 0
        ? 'refusal'
        : toStopReason(this.finishReason, calls.length > 0);
    return {
      content,
      stopReason,
      usage: toLlmUsage(this.usage),
      ...(this.model !== undefined ? { model: this.model } : {}),
    };
  }
}
