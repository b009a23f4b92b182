import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AnthropicError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  OverloadedError,
  PermissionDeniedError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import type { MessageParam, Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import { errorMessage } from '../../shared/error-message';
import { chatError, type ChatErrorMessages } from '../../shared/domain/chat-error';
import type { HostMessage } from '../../shared/domain/host-message';
import { ANTHROPIC_TOOL_IDS, toolCallIdsFor } from './tool-call-ids';
import { refusesCacheControl, withCacheBreakpoints } from './anthropic-cache';
import { refusesDeferral, withoutDeferral } from './deferred-tools';
import { ANTHROPIC_CACHE_PRICES, withCacheSaving } from './cache-prices';
import type { ReasoningRequest } from '../../shared/domain/reasoning';
import { anthropicThinking, thinkingTokens } from './anthropic-thinking';
import { compactionOf, contextManagementFields, refusesContextManagement, withCompaction } from './anthropic-context';
import type { ApiCompaction, ApiContextManagement } from './anthropic-context';
import type { BetaContentBlock } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { CONVERSATION_LIMITS } from '../../shared/domain/chat';

const ANTHROPIC_TEMPERATURE_MAX = CONVERSATION_LIMITS.anthropicTemperatureMax;

/** The public API, used when the caller passes no base URL (it reads ANTHROPIC_BASE_URL itself). */
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** A block of a finished reply that the chat loop uses; other block types are dropped. */
export type LlmContentBlock =
  | { type: 'text'; text: string }
  | {
      /**
       * The model's reasoning (app/providers/reasoning-stream.ts). `signature`: Anthropic's, sent back unchanged;
       * `redacted`: the encrypted data of a block Anthropic hid (`thinking` is then ''). Neither for OpenAI-compatible.
       */
      type: 'thinking';
      thinking: string;
      signature?: string;
      redacted?: string;
    }
  | {
      type: 'tool_use';
      id: string;
      name: string;
      input: Record<string, unknown>;
      /**
       * The model's arguments could not be read (not a JSON object); `input` is
       * then `{}`. Says what was wrong, with the raw text, so the call is answered
       * as an error for the model to correct instead of running.
       */
      inputError?: string;
    };

/**
 * Tokens one model request used, as the provider reported them, in Anthropic's terms: `inputTokens`
 * is the prompt outside the cache; the whole prompt is it plus the cache reads and writes (the
 * OpenAI-compatible client subtracts `cached_tokens` from `prompt_tokens` to match).
 */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache, where it says (not part of inputTokens, as in Anthropic's usage). */
  cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache, where it says (not part of inputTokens either). */
  cacheWriteTokens?: number;
  /**
   * What the cache saved on this request, in input tokens' worth at the provider's cache prices (cache-prices.ts):
   * negative when writing cost more than reading saved. Set with the cache counts.
   */
  cacheSavedTokens?: number;
  /** Output tokens spent reasoning, where the provider says (part of outputTokens). */
  reasoningTokens?: number;
}

export interface LlmResponse {
  content: LlmContentBlock[];
  /** The API's stop_reason (`end_turn`, `tool_use`, `max_tokens`…); null if it gave none. */
  stopReason: string | null;
  usage: LlmUsage;
  /** The model the provider says answered, when it says (it may differ from the one asked for: an alias, a router). */
  model?: string;
  /**
   * The provider compacted the conversation itself (Anthropic's context management): what it now remembers of
   * everything before this reply, to be sent back first from now on. `usage` is then the compacted context's.
   */
  compaction?: ApiCompaction;
}

export interface LlmStreamRequest {
  model: string;
  system?: string;
  messages: MessageParam[];
  tools?: Tool[];
  /** How the model may use `tools` (sampling passes the server's `toolChoice`); the provider's default when absent. */
  toolChoice?: ToolChoice;
  maxTokens: number;
  /** Sampling temperature; the model's default when absent. */
  temperature?: number;
  /** Strings that end the reply early (stop reason `stop_sequence`). */
  stopSequences?: string[];
  /**
   * Ask the model to reason with this effort; absent: no reasoning asked for. `support` says how the model takes it
   * (shared/domain/reasoning.ts; Anthropic: adaptive thinking or a thinking budget).
   */
  reasoning?: ReasoningRequest;
  /**
   * What the provider's prompt cache may keep of this request: `conversation` (the default) marks the stable prefix
   * for the next request to read (anthropic-cache.ts); `none` marks nothing, for a one-off that nothing will read
   * again (a cache write costs more than plain input: 1.25× at Anthropic). Providers that cache on their own ignore it.
   */
  promptCache?: 'conversation' | 'none';
  /**
   * How many blocks at the end of the last message only this request carries (an open app's turn context, which the
   * next request does not repeat there): the cache's mark goes before them, so the next request reads the conversation.
   */
  uncachedTailBlocks?: number;
  /**
   * Let the provider manage the context itself (Anthropic's server-side compaction, anthropic-context.ts): only for
   * models whose listing says they take it; a refusal is an LlmError with `unsupported: 'context-management'`.
   */
  contextManagement?: ApiContextManagement;
  /** Aborting rejects with an LlmError of kind `aborted`. */
  signal?: AbortSignal;
  /** The caller waits and asks again itself (model-call-retries.ts): the SDK does not retry behind its back. */
  ownRetries?: boolean;
  onText?: (delta: string) => void;
  /** The model's reasoning as it streams; `redacted`: a block the provider hid began. */
  onThinking?: (delta: string, redacted?: boolean) => void;
  /** The model began a tool_use block (its input is still streaming). */
  onToolUseStart?: (toolUse: { id: string; name: string }) => void;
}

/** What the chat engine needs from a model. */
export interface LlmProvider {
  stream(request: LlmStreamRequest): Promise<LlmResponse>;
}

export const LLM_ERROR_KINDS = [
  'auth',
  'permission',
  'rate-limit',
  'overloaded',
  'server',
  'bad-request',
  'not-found',
  'network',
  'timeout',
  'aborted',
  'unknown',
] as const;
export type LlmErrorKind = (typeof LLM_ERROR_KINDS)[number];

/**
 * What a model refused to take (with kind `bad-request`): `tools` — it has no
 * tool support (Ollama: "<model> does not support tools"), so the chat may ask
 * again without tools and tell the person; `images` — it cannot see images;
 * `context-management` — the provider refused to manage the context itself
 * (Anthropic's Compaction* errors), so the chat compacts it.
 */
export type LlmUnsupportedInput = 'tools' | 'images' | 'context-management';

/** A failed model call, with a message a person can act on. */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
    readonly unsupported?: LlmUnsupportedInput,
    /** The message as a code and parameters, for the renderer to word in the person's language (chat-error.*). */
    readonly hostMessage?: HostMessage,
  ) {
    super(message);
    this.name = 'LlmError';
  }

  /** A failure of a chat-error code: its English and its code from the same facts (shared/domain/chat-error.ts). */
  static of<C extends keyof ChatErrorMessages & string>(
    kind: LlmErrorKind,
    code: C,
    params: ChatErrorMessages[C],
    status?: number,
    unsupported?: LlmUnsupportedInput,
  ): LlmError {
    const { text, message } = chatError(code, params);
    return new LlmError(kind, text, status, unsupported, message);
  }

  /** The same failure with other English and parameters (a key taken out of both), its code kept. */
  withText(text: string, params?: HostMessage['params']): LlmError {
    const hostMessage =
      this.hostMessage === undefined || params === undefined ? this.hostMessage : { ...this.hostMessage, params };
    return new LlmError(this.kind, text, this.status, this.unsupported, hostMessage);
  }

  /** Worth trying again later without changing anything. */
  get retryable(): boolean {
    return (
      this.kind === 'rate-limit' ||
      this.kind === 'overloaded' ||
      this.kind === 'server' ||
      this.kind === 'network' ||
      this.kind === 'timeout'
    );
  }
}

export interface AnthropicProviderOptions {
  apiKey: string;
  /** Default https://api.anthropic.com. */
  baseURL?: string;
  /** SDK retries on 429/5xx/connection errors (default 2). */
  maxRetries?: number;
  /** Per-request timeout in ms (SDK default: 10 minutes). */
  timeoutMs?: number;
}

function apiDetail(error: APIError): string {
  return error.apiMessage ?? error.message;
}

/** The API's retry-after in whole seconds; 0 when it gave none. */
function retryAfter(error: APIError): number {
  const seconds = Number(error.headers?.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 0;
}

/** Turn whatever the SDK threw into an LlmError a person can read. */
/** Why a connection failed: fetch's own message ("fetch failed") hides the system error in its causes. */
function connectionFailure(error: APIConnectionError, url: string): LlmError {
  let current: unknown = error.cause;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (code === 'ECONNREFUSED') return LlmError.of('network', 'chat-error.api-refused', { url });
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return LlmError.of('network', 'chat-error.api-host-not-found', { url });
    if (typeof code === 'string')
      return LlmError.of('network', 'chat-error.api-unreachable-detail', { url, detail: current.message });
    current = current.cause;
  }
  return error.cause instanceof Error
    ? LlmError.of('network', 'chat-error.api-unreachable-detail', { url, detail: error.cause.message })
    : LlmError.of('network', 'chat-error.api-unreachable', { url });
}

export function toLlmError(error: unknown, context: { baseURL: string; model: string }): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof APIUserAbortError) return new LlmError('aborted', 'The request to the model was stopped.');
  const url = context.baseURL;
  if (error instanceof APIConnectionTimeoutError) return LlmError.of('timeout', 'chat-error.api-timed-out', { url });
  if (error instanceof APIConnectionError) return connectionFailure(error, url);
  if (error instanceof AuthenticationError)
    return LlmError.of('auth', 'chat-error.api-key-rejected', { status: 401, detail: apiDetail(error) }, 401);
  if (error instanceof PermissionDeniedError)
    return LlmError.of('permission', 'chat-error.api-key-not-allowed', { status: 403, detail: apiDetail(error) }, 403);
  if (error instanceof RateLimitError)
    return LlmError.of(
      'rate-limit',
      'chat-error.api-rate-limited',
      { status: 429, detail: apiDetail(error), retryAfter: retryAfter(error) },
      429,
    );
  if (error instanceof OverloadedError)
    return LlmError.of(
      'overloaded',
      'chat-error.api-overloaded',
      { status: 529, detail: apiDetail(error), retryAfter: retryAfter(error) },
      529,
    );
  if (error instanceof NotFoundError)
    return LlmError.of(
      'not-found',
      'chat-error.api-model-not-found',
      { status: 404, detail: apiDetail(error), model: context.model },
      404,
    );
  if (error instanceof BadRequestError)
    return LlmError.of('bad-request', 'chat-error.api-rejected', { status: 400, detail: apiDetail(error) }, 400);
  if (error instanceof APIError) {
    const detail = apiDetail(error);
    // An `event: error` inside a stream has no HTTP status, only a type.
    if (error.status === undefined) {
      if (error.type === 'overloaded_error')
        return LlmError.of('overloaded', 'chat-error.api-overloaded-mid-reply', { detail });
      if (error.type === 'rate_limit_error')
        return LlmError.of('rate-limit', 'chat-error.api-rate-limited-mid-reply', { detail });
      return LlmError.of('server', 'chat-error.api-error-mid-reply', { type: error.type ?? 'error', detail });
    }
    const { status } = error;
    if (status >= 500) return LlmError.of('server', 'chat-error.api-internal', { status, detail }, status);
    return LlmError.of('unknown', 'chat-error.api-status', { status, detail }, status);
  }
  // The body of a stream whose connection closed before its end ends with undici's bare "terminated".
  if (error instanceof AnthropicError && error.message === 'terminated')
    return LlmError.of('network', 'chat-error.connection-lost-mid-reply', { url });
  if (error instanceof AnthropicError)
    return LlmError.of('unknown', 'chat-error.api-reply-unreadable', { url, detail: error.message });
  return LlmError.of('unknown', 'chat-error.model-call-failed', { detail: errorMessage(error) });
}

const count = (value: number | null | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;

/** Anthropic's usage as LlmUsage: its counts as they are, the cache ones only where the API gave them. */
export function anthropicUsage(usage: Partial<Anthropic.Usage> | undefined): LlmUsage {
  const cacheRead = usage?.cache_read_input_tokens;
  const cacheWrite = usage?.cache_creation_input_tokens;
  return withCacheSaving(
    {
      inputTokens: count(usage?.input_tokens),
      outputTokens: count(usage?.output_tokens),
      ...(typeof cacheRead === 'number' ? { cacheReadTokens: count(cacheRead) } : {}),
      ...(typeof cacheWrite === 'number' ? { cacheWriteTokens: count(cacheWrite) } : {}),
      ...thinkingTokens(usage),
    },
    ANTHROPIC_CACHE_PRICES,
  );
}

function toContent(block: Anthropic.ContentBlock | BetaContentBlock): LlmContentBlock | undefined {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'thinking') return { type: 'thinking', thinking: block.thinking, signature: block.signature };
  if (block.type === 'redacted_thinking') return { type: 'thinking', thinking: '', redacted: block.data };
  if (block.type === 'tool_use') {
    const input = block.input;
    return {
      type: 'tool_use',
      id: block.id,
      name: block.name,
      input:
        input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {},
    };
  }
  return undefined;
}

/** What the provider reads of either stream (the GA one, or the beta one that carries context management). */
interface ReplyStream {
  on(event: 'text', listener: (delta: string) => void): unknown;
  on(event: 'streamEvent', listener: (event: ReplyStreamEvent) => void): unknown;
  finalMessage(): Promise<{
    content: Array<Anthropic.ContentBlock | BetaContentBlock>;
    stop_reason: string | null;
    usage: Partial<Anthropic.Usage>;
    model: string;
  }>;
}

type ReplyStreamEvent =
  | { type: 'content_block_start'; content_block: { type: string; id?: string; name?: string } }
  | { type: 'content_block_delta'; delta: { type: string; thinking?: string } }
  | { type: 'message_start' | 'message_delta' | 'message_stop' | 'content_block_stop' };

/** The Anthropic Messages API through `@anthropic-ai/sdk`, streamed. */
export class AnthropicProvider implements LlmProvider {
  readonly baseURL: string;
  /** The SDK client, also for the models endpoint (Settings: Test connection). */
  readonly client: Anthropic;
  /** Off once the endpoint refused cache_control (an Anthropic-compatible proxy that does not know it). */
  private caching = true;
  /** Off once the endpoint refused deferred tools (such a proxy again): loaded tools are then listed instead. */
  private deferring = true;

  constructor(options: AnthropicProviderOptions) {
    if (options.apiKey.trim() === '') throw LlmError.of('auth', 'chat-error.anthropic-no-key', {});
    this.baseURL = (options.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, '');
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: this.baseURL,
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    });
  }

  async stream(request: LlmStreamRequest): Promise<LlmResponse> {
    const context = { baseURL: this.baseURL, model: request.model };
    if (request.signal?.aborted) throw new LlmError('aborted', 'The request to the model was stopped.');
    try {
      const thinking = anthropicThinking(request.reasoning, request.maxTokens);
      const asked = {
        model: request.model,
        max_tokens: request.maxTokens,
        ...thinking,
        // Ids another provider made (a Kimi-style `functions.read:0`) are rewritten where Anthropic would refuse them.
        messages: toolCallIdsFor(request.messages, ANTHROPIC_TOOL_IDS),
        ...(request.system !== undefined && request.system !== '' ? { system: request.system } : {}),
        ...(request.tools !== undefined && request.tools.length > 0 ? { tools: request.tools } : {}),
        ...(request.tools !== undefined && request.tools.length > 0 && request.toolChoice !== undefined
          ? { tool_choice: request.toolChoice }
          : {}),
        // The API refuses a temperature other than 1 with thinking on, and one above 1 at all: a conversation set
        // higher for another provider's model keeps its setting and goes at Anthropic's highest.
        ...(request.temperature !== undefined && thinking.thinking === undefined
          ? { temperature: Math.min(request.temperature, ANTHROPIC_TEMPERATURE_MAX) }
          : {}),
        ...(request.stopSequences !== undefined && request.stopSequences.length > 0
          ? { stop_sequences: request.stopSequences }
          : {}),
      };
      const params = this.deferring ? asked : withoutDeferral(asked);
      // The stable prefix (tools, system, the conversation so far) is read from the prompt cache by the next request.
      const marked =
        this.caching && request.promptCache !== 'none'
          ? withCacheBreakpoints(params, request.uncachedTailBlocks)
          : params;
      const options = {
        ...(request.signal !== undefined ? { signal: request.signal } : {}),
        ...(request.ownRetries === true ? { maxRetries: 0 } : {}),
      };
      const managed = request.contextManagement;
      const stream: ReplyStream =
        managed === undefined
          ? this.client.messages.stream(marked, options)
          : this.client.beta.messages.stream(
              {
                ...marked,
                messages: withCompaction(marked.messages, managed.compaction),
                ...contextManagementFields(managed),
              },
              options,
            );
      const onText = request.onText;
      if (onText !== undefined) stream.on('text', (delta) => onText(delta));
      const onToolUseStart = request.onToolUseStart;
      if (onToolUseStart !== undefined) {
        stream.on('streamEvent', (event) => {
          if (event.type !== 'content_block_start' || event.content_block.type !== 'tool_use') return;
          const { id, name } = event.content_block;
          if (id !== undefined && name !== undefined) onToolUseStart({ id, name });
        });
      }
      const onThinking = request.onThinking;
      if (onThinking !== undefined) {
        stream.on('streamEvent', (event) => {
          if (event.type === 'content_block_delta' && event.delta.thinking !== undefined)
            onThinking(event.delta.thinking);
          else if (event.type === 'content_block_start' && event.content_block.type === 'redacted_thinking')
            onThinking('', true);
        });
      }
      const message = await stream.finalMessage();
      // The SDK ends quietly when aborted after the last event; a stop is a stop.
      if (request.signal?.aborted) throw new APIUserAbortError();
      const compaction = managed === undefined ? undefined : compactionOf(message.content);
      return {
        content: message.content.map(toContent).filter((block): block is LlmContentBlock => block !== undefined),
        stopReason: message.stop_reason,
        usage: anthropicUsage(message.usage),
        ...(typeof message.model === 'string' && message.model !== '' ? { model: message.model } : {}),
        ...(compaction !== undefined ? { compaction } : {}),
      };
    } catch (error) {
      if (request.signal?.aborted) throw new LlmError('aborted', 'The request to the model was stopped.');
      if (request.contextManagement !== undefined && error instanceof APIError && refusesContextManagement(error)) {
        const status = error.status !== undefined ? `${error.status}: ` : '';
        throw LlmError.of(
          'bad-request',
          'chat-error.api-no-context-management',
          { detail: `${status}${apiDetail(error)}` },
          error.status,
          'context-management',
        );
      }
      // A proxy in front of the API may refuse the cache marks: ask again without them, from now on.
      if (this.caching && error instanceof BadRequestError && refusesCacheControl(apiDetail(error))) {
        this.caching = false;
        return this.stream(request);
      }
      // …or deferred tools: the loaded ones are listed in the tools instead, from now on.
      if (this.deferring && error instanceof BadRequestError && refusesDeferral(apiDetail(error))) {
        this.deferring = false;
        return this.stream(request);
      }
      throw toLlmError(error, context);
    }
  }
}
