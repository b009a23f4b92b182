import OpenAI, { BadRequestError } from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { LlmError } from './llm-provider';
import type { LlmResponse, LlmStreamRequest } from './llm-provider';
import type { ProviderClient, ProviderModelInfo } from './provider-client';
import {
  apiDetail,
  imagesUnsupported,
  modelNotFound,
  notOpenAiCompatible,
  STOPPED_MESSAGE,
  toOpenAiLlmError,
} from './openai-compatible-errors';
import type { OpenAiErrorContext } from './openai-compatible-errors';
import { ChatCompletionsReply } from './openai-translate-reply';
import { toChatCompletionsInput } from './openai-translate';
import type { ChatCompletionsInput } from './openai-translate';
import { chatCompletionsTarget, refusedToolSchema } from './openai-target';

// Any server that speaks OpenAI's Chat Completions (OpenAI, Ollama, LM Studio,
// vLLM, llama.cpp, OpenRouter…) behind the ProviderClient seam, through the
// `openai` package. Requests are translated from and replies back to the
// Anthropic shapes the chat engine uses (openai-translate*.ts); failures
// become LlmErrors with fixed, actionable words (openai-compatible-errors.ts).

export interface OpenAiCompatibleOptions {
  /** Ends in /v1 for most servers (`http://127.0.0.1:11434/v1`). */
  baseURL: string;
  /** Omitted or empty for local servers: then no Authorization header is sent at all. */
  apiKey?: string;
  /** The preset the person picked (Ollama, LM Studio…), named in connection errors. */
  presetName?: string;
  /** Retries on 429/5xx/connection errors for chat requests (default 2); listModels and check never retry. */
  maxRetries?: number;
  /** Per-request timeout of a chat request in ms (default 10 minutes: a local model may load slowly). */
  timeoutMs?: number;
  /** Timeout of listModels and check in ms (default 15 s). */
  checkTimeoutMs?: number;
  /** False for a model known to take no images: a request with images then fails before it is sent. */
  takesImages?: (model: string) => boolean | undefined;
}

/** The `openai` package insists on a key; for keyless servers this stands in and the header is dropped. */
const NO_KEY_PLACEHOLDER = 'berth-no-key';
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_CHECK_TIMEOUT_MS = 15_000;

const windowField = z.number().int().positive().optional().catch(undefined);

const ModelListSchema = z.object({
  data: z.array(
    z.looseObject({
      id: z.string().min(1),
      name: z.string().optional(),
      // OpenRouter, Groq, vLLM and LM Studio each name the context window differently; a value that is not a
      // positive whole number is left out (the model is still listed, its window then comes from elsewhere).
      context_length: windowField,
      context_window: windowField,
      max_model_len: windowField,
      max_context_length: windowField,
    }),
  ),
});

/** Read afresh each time (TypeScript would keep an earlier answer). */
function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

/**
 * The `openai` package reads OPENAI_CUSTOM_HEADERS when a client is built and
 * adds every `Name: value` line to each request, and no option turns that off.
 * A provider must send only what the person configured in Berth, so each
 * header named there is cleared (null) in the client's own default headers,
 * which the package applies after the environment's. Read at the same moment
 * the package reads it, with its own parsing (lines, first colon, trimmed).
 */
export function headersFromEnvironmentCleared(env: NodeJS.ProcessEnv = process.env): Record<string, null> {
  const raw = env['OPENAI_CUSTOM_HEADERS']?.trim() ?? '';
  const cleared: Record<string, null> = {};
  for (const line of raw.split('\n')) {
    const colon = line.indexOf(':');
    const name = colon >= 0 ? line.slice(0, colon).trim() : '';
    if (name !== '') cleared[name.toLowerCase()] = null;
  }
  return cleared;
}

function isOpenAiItself(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/** The error with `key` taken out of its English and of its code's parameters (some servers quote the key they refused). */
function withoutKey(error: LlmError, key: string): LlmError {
  const params = error.hostMessage?.params;
  const quoted = Object.values(params ?? {}).some((value) => typeof value === 'string' && value.includes(key));
  if (!error.message.includes(key) && !quoted) return error;
  const scrubbed =
    params === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(params).map(([name, value]) => [
            name,
            typeof value === 'string' ? value.replaceAll(key, '[the key]') : value,
          ]),
        );
  return error.withText(error.message.replaceAll(key, '[the key]'), scrubbed);
}

/** An OpenAI-compatible Chat Completions server as a ProviderClient. */
export class OpenAiCompatibleClient implements ProviderClient {
  readonly baseURL: string;
  private readonly client: OpenAI;
  private readonly hasKey: boolean;
  /** Only to take the key out of error text: some servers quote the key they refused. */
  private readonly scrub: (error: LlmError) => LlmError;
  private readonly timeoutMs: number;
  private readonly checkTimeoutMs: number;
  /** OpenAI's newer models refuse `max_tokens`, most other servers only read it; learnt on the first refusal. */
  private maxTokensField: MaxTokensField;
  /** A server that refused a tool schema keyword gets the strict subset from then on (openai-target.ts). */
  private strictSchemas = false;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.baseURL);
    } catch {
      throw new LlmError(
        'bad-request',
        `The base URL '${options.baseURL}' is not a URL: write it like http://127.0.0.1:11434/v1.`,
      );
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new LlmError(
        'bad-request',
        `The base URL '${options.baseURL}' must start with http:// or https://, like http://127.0.0.1:11434/v1.`,
      );
    // fetch refuses such URLs, and the URL appears in messages: the key has its own field.
    if (parsed.username !== '' || parsed.password !== '')
      throw new LlmError(
        'bad-request',
        'The base URL must not contain a user name or password: put the key in the key field.',
      );
    this.baseURL = options.baseURL.trim().replace(/\/+$/, '');
    const key = options.apiKey?.trim() ?? '';
    this.hasKey = key !== '';
    this.scrub = (error) => (this.hasKey ? withoutKey(error, key) : error);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.checkTimeoutMs = options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
    this.maxTokensField = isOpenAiItself(this.baseURL) ? 'max_completion_tokens' : 'max_tokens';
    this.client = new OpenAI({
      // Every option the package would otherwise take from an OPENAI_* variable is given here
      // (OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_ADMIN_KEY, OPENAI_ORG_ID, OPENAI_PROJECT_ID,
      // OPENAI_WEBHOOK_SECRET, OPENAI_LOG), so Berth's environment never reaches a provider.
      apiKey: this.hasKey ? key : NO_KEY_PLACEHOLDER,
      baseURL: this.baseURL,
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: options.maxRetries ?? 2,
      timeout: this.timeoutMs,
      // OPENAI_LOG=debug would print requests (conversations) to the console.
      logLevel: 'off',
      // OPENAI_CUSTOM_HEADERS has no option: its headers are cleared. The Authorization header is
      // set last: the configured key, or none at all for a keyless server (the placeholder never goes out).
      defaultHeaders: { ...headersFromEnvironmentCleared(), authorization: this.hasKey ? `Bearer ${key}` : null },
    });
  }

  private context(extra: Partial<OpenAiErrorContext> = {}): OpenAiErrorContext {
    return {
      baseURL: this.baseURL,
      hadKey: this.hasKey,
      ...(this.options.presetName !== undefined ? { presetName: this.options.presetName } : {}),
      ...extra,
    };
  }

  async stream(request: LlmStreamRequest): Promise<LlmResponse> {
    const signal = request.signal;
    if (aborted(signal)) throw new LlmError('aborted', STOPPED_MESSAGE);
    const target = chatCompletionsTarget(this.baseURL, request.model);
    const translate = (): ChatCompletionsInput =>
      toChatCompletionsInput(request, { ...target, strictSchemas: target.strictSchemas || this.strictSchemas });
    let input = translate();
    const context = this.context({
      model: request.model,
      sentTools: input.tools !== undefined,
      sentImages: input.imageCount > 0,
      timeoutMs: this.timeoutMs,
    });
    if (input.imageCount > 0 && this.options.takesImages?.(request.model) === false) throw imagesUnsupported(context);
    // Each thing a server can teach (the max-tokens field, strict schemas) is learnt once: at most one retry per lesson.
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.streamOnce(request, input);
      } catch (error) {
        if (aborted(signal) || attempt >= 2 || !this.learn(error, input)) throw this.toLlmError(error, signal, context);
        input = translate();
      }
    }
  }

  /**
   * What a refusal teaches, for good: OpenAI's newer models refuse `max_tokens`;
   * a server strict about tool schemas refuses a keyword. True when the request is worth sending again.
   */
  private learn(error: unknown, input: ChatCompletionsInput): boolean {
    if (!(error instanceof BadRequestError)) return false;
    const detail = apiDetail(error);
    if (this.maxTokensField === 'max_tokens' && /max_completion_tokens/.test(detail)) {
      this.maxTokensField = 'max_completion_tokens';
      return true;
    }
    if (!this.strictSchemas && input.tools !== undefined && refusedToolSchema(detail)) {
      this.strictSchemas = true;
      return true;
    }
    return false;
  }

  private toLlmError(error: unknown, signal: AbortSignal | undefined, context: OpenAiErrorContext): LlmError {
    if (aborted(signal)) return new LlmError('aborted', STOPPED_MESSAGE);
    return this.scrub(toOpenAiLlmError(error, context));
  }

  private async streamOnce(request: LlmStreamRequest, input: ChatCompletionsInput): Promise<LlmResponse> {
    const signal = request.signal;
    const body: ChatCompletionCreateParamsStreaming = {
      model: request.model,
      messages: input.messages,
      stream: true,
      // Without this the stream carries no token counts.
      stream_options: { include_usage: true },
      [this.maxTokensField]: request.maxTokens,
      // Only to models known to take it (OpenAI's o-series and gpt-5, gpt-oss…): others refuse the field.
      ...(request.reasoning?.support === 'effort' ? { reasoning_effort: request.reasoning.effort } : {}),
      ...(input.tools !== undefined ? { tools: input.tools } : {}),
      ...input.settings,
    };
    const { data: stream, response } = await this.client.chat.completions
      .create(body, {
        ...(signal !== undefined ? { signal } : {}),
        ...(request.ownRetries === true ? { maxRetries: 0 } : {}),
      })
      .withResponse();
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      stream.controller.abort();
      throw notOpenAiCompatible(this.context(), response.status);
    }
    const reply = new ChatCompletionsReply({
      ...(request.onText !== undefined ? { onText: request.onText } : {}),
      ...(request.onThinking !== undefined ? { onThinking: request.onThinking } : {}),
      ...(request.onToolUseStart !== undefined ? { onToolUseStart: request.onToolUseStart } : {}),
    });
    for await (const chunk of stream) reply.add(chunk);
    // The package ends the loop quietly when aborted; a stop is a stop.
    if (aborted(signal)) throw new LlmError('aborted', STOPPED_MESSAGE);
    if (reply.chunkCount === 0) throw notOpenAiCompatible(this.context(), response.status);
    return reply.finish();
  }

  async listModels(signal?: AbortSignal): Promise<ProviderModelInfo[]> {
    const context = this.context({ timeoutMs: this.checkTimeoutMs });
    let raw: unknown;
    let status: number;
    try {
      const answer = await this.client
        .get<unknown>('/models', {
          maxRetries: 0,
          timeout: this.checkTimeoutMs,
          ...(signal !== undefined ? { signal } : {}),
        })
        .withResponse();
      raw = answer.data;
      status = answer.response.status;
    } catch (error) {
      throw this.toLlmError(error, signal, context);
    }
    // The package hands back text when the answer was not JSON (a web page at the wrong URL).
    const parsed = ModelListSchema.safeParse(raw);
    if (!parsed.success) throw notOpenAiCompatible(context, status);
    return parsed.data.data.map((model) => {
      const contextWindow =
        model.context_length ?? model.context_window ?? model.max_model_len ?? model.max_context_length;
      return {
        id: model.id,
        ...(model.name !== undefined && model.name !== model.id ? { label: model.name } : {}),
        ...(contextWindow !== undefined ? { contextWindow } : {}),
      };
    });
  }

  async check(options: { model?: string; signal?: AbortSignal } = {}): Promise<void> {
    // Listing models reaches the server with the key: OpenAI and OpenRouter check it there.
    const models = await this.listModels(options.signal);
    const model = options.model?.trim();
    if (model !== undefined && model !== '' && !models.some((entry) => entry.id === model)) {
      throw modelNotFound(this.context(), model);
    }
  }
}
