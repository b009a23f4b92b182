import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { LoopbackFake, readBody, sendJson, sleep } from './loopback-fake';
import { FakeOpenAiTurnSchema, completionJson, renderCompletion, streamDeltas } from './openai-turns';
import { FakeOpenAiPromptCache } from './openai-prompt-cache';
import { BusyCounter, openAiBusyError } from './fake-busy';
import type { FakeOpenAiTurn, FakeOpenAiTurnSource, RecordedOpenAiRequest, RenderedCompletion } from './openai-turns';
import { strictSchemaProblems } from './strict-schema';
import { validateChatCompletionsRequest } from './validate-openai-request';
import type { ChatCompletionsRequestBody } from './validate-openai-request';
import { countPromptTokens, countValueTokens } from './fake-token-count';

export type { FakeOpenAiTurn, FakeOpenAiTurnSource, RecordedOpenAiRequest } from './openai-turns';

/** How a fake is started. */
export interface FakeOpenAiOptions {
  /** When set, requests must carry `Authorization: Bearer <key>` (else 401 invalid_api_key). */
  apiKey?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Answer used when the script has run out; without it such a request gets a 500. */
  fallback?: FakeOpenAiTurnSource;
  /** What /v1/models lists; when set, a request for another model gets Ollama's 404 "model … not found". */
  models?: string[];
  /** Models that answer a request with tools as Ollama does for a model without tool support (400). */
  modelsWithoutTools?: string[];
  /** Models that answer a request with images with a 400 (as LM Studio does for a text-only model). */
  modelsWithoutImages?: string[];
  /** Refuse `max_tokens` as OpenAI's reasoning models do (400: use max_completion_tokens). */
  rejectMaxTokens?: boolean;
  /** Models that check tool schemas as Gemini's endpoint does (400 "Unknown name …", strict-schema.ts). */
  modelsWithStrictSchemas?: string[];
  /** Models that take only Mistral's tool call ids: exactly 9 of [a-zA-Z0-9] (400 otherwise). */
  modelsWithNineCharToolIds?: string[];
  /** Each model's context window, listed as `context_length` on /v1/models (as OpenRouter, vLLM and LM Studio do) and enforced. */
  contextLengths?: Record<string, number>;
  /** The window of every model, over `contextLengths` (a small one lets tests fill it); unset, a model without a length has none. */
  contextWindow?: number;
}

function sendApiError(
  response: ServerResponse,
  status: number,
  message: string,
  type = 'invalid_request_error',
  code: string | null = null,
  headers: Record<string, string> = {},
): void {
  sendJson(
    response,
    status,
    { error: { message, type, param: code === 'context_length_exceeded' ? 'messages' : null, code } },
    headers,
  );
}

/** OpenAI's words for a request over the window: the completion's reserve counts when `max_tokens` asks for one. */
function contextLengthMessage(window: number, body: ChatCompletionsRequestBody, prompt: number): string {
  const reserve = body.max_completion_tokens ?? body.max_tokens;
  if (reserve === undefined)
    return `This model's maximum context length is ${window} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`;
  const functions = countValueTokens(body.tools ?? []);
  const parts =
    functions > 0
      ? `${prompt - functions} in the messages, ${functions} in the functions, and ${reserve} in the completion`
      : `${prompt} in the messages, ${reserve} in the completion`;
  return `This model's maximum context length is ${window} tokens. However, you requested ${prompt + reserve} tokens (${parts}). Please reduce the length of the messages or completion.`;
}

/** How Go servers (Ollama) answer an unknown path: plain text, not JSON. */
function sendNotFoundText(response: ServerResponse): void {
  response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
  response.end('404 page not found');
}

function bearer(request: IncomingMessage): string | undefined {
  const authorization = request.headers.authorization;
  return authorization?.startsWith('Bearer ') === true ? authorization.slice('Bearer '.length) : undefined;
}

function hasImages(body: { messages: Array<{ content?: unknown }> }): boolean {
  return body.messages.some(
    (message) =>
      Array.isArray(message.content) && message.content.some((part: { type?: unknown }) => part.type === 'image_url'),
  );
}

/**
 * A local stand-in for an OpenAI-compatible server (`GET /v1/models`,
 * `POST /v1/chat/completions`) as the `openai` package talks to it: JSON
 * answers, or SSE `data:` chunks with text deltas, `tool_calls` deltas whose
 * arguments arrive in pieces, a finish_reason, a usage chunk when asked
 * (stream_options.include_usage) and `data: [DONE]`. Answers are scripted per
 * test; every chat request is recorded.
 *
 * Control endpoints for tests that run Berth as another process:
 * `POST /__fake/script` `{ turns, append? }`, `GET /__fake/requests`,
 * `POST /__fake/reset`.
 */
export class FakeOpenAi extends LoopbackFake<FakeOpenAiTurn, RecordedOpenAiRequest> {
  /** How many times /v1/models was asked. */
  modelListRequests = 0;
  /** Recent prompts: a request that starts as one did is billed its common prefix as cached_tokens (openai-prompt-cache.ts). */
  readonly promptCache = new FakeOpenAiPromptCache();
  private completionCount = 0;
  private readonly busy = new BusyCounter();
  private readonly options: FakeOpenAiOptions;

  private constructor(options: FakeOpenAiOptions) {
    super('fake-openai', FakeOpenAiTurnSchema);
    this.options = options;
  }

  static async start(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
    const fake = new FakeOpenAi(options);
    await fake.listen(options.port);
    return fake;
  }

  /** `http://127.0.0.1:PORT/v1`: the base URL as a person would enter it. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Forget the script and the recorded requests; completion and call ids start again at 1. */
  override reset(): void {
    super.reset();
    this.modelListRequests = 0;
    this.completionCount = 0;
    this.promptCache.clear();
  }

  protected sendFailure(response: ServerResponse, message: string): void {
    sendApiError(response, 500, message, 'server_error');
  }

  protected async handle(path: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const keyRejected = this.options.apiKey !== undefined && bearer(request) !== this.options.apiKey;
    if (request.method === 'GET' && path === '/v1/models') {
      this.modelListRequests += 1;
      if (keyRejected)
        return sendApiError(response, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
      const data = (this.options.models ?? []).map((id) => ({
        id,
        object: 'model',
        created: 1_700_000_000,
        owned_by: 'fake-openai',
        ...(this.windowOf(id) !== undefined ? { context_length: this.windowOf(id) } : {}),
      }));
      return sendJson(response, 200, { object: 'list', data });
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') return sendNotFoundText(response);

    const text = await readBody(request);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const validated =
      raw === undefined
        ? { error: 'We could not parse the JSON body of your request.' }
        : validateChatCompletionsRequest(raw);
    const record: RecordedOpenAiRequest = {
      number: this.requests.length + 1,
      path,
      headers: { ...request.headers },
      body: 'body' in validated ? validated.body : undefined,
      stream: typeof raw === 'object' && raw !== null && (raw as { stream?: unknown }).stream === true,
    };
    this.record(record);

    if (keyRejected)
      return sendApiError(response, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    if ('error' in validated) return sendApiError(response, 400, validated.error);
    const body = validated.body;
    const models = this.options.models;
    if (models !== undefined && !models.includes(body.model)) {
      return sendApiError(response, 404, `model "${body.model}" not found, try pulling it first`, 'api_error');
    }
    if ((body.tools ?? []).length > 0 && this.options.modelsWithoutTools?.includes(body.model) === true) {
      return sendApiError(
        response,
        400,
        `registry.ollama.ai/library/${body.model} does not support tools`,
        'api_error',
      );
    }
    if (hasImages(body) && this.options.modelsWithoutImages?.includes(body.model) === true) {
      return sendApiError(response, 400, 'Model does not support images. Please use a model that does.');
    }
    if (this.options.modelsWithStrictSchemas?.includes(body.model) === true) {
      const problems = (body.tools ?? []).flatMap((tool, index) =>
        tool.function.parameters === undefined
          ? []
          : strictSchemaProblems(tool.function.parameters, `tools[0].function_declarations[${index}].parameters`),
      );
      if (problems.length > 0) return sendApiError(response, 400, problems.join('\n'), 'invalid_request_error');
    }
    if (this.options.modelsWithNineCharToolIds?.includes(body.model) === true) {
      const ids = body.messages.flatMap((message) => [
        ...(message.role === 'tool' ? [message.tool_call_id] : []),
        ...(message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : []),
      ]);
      const refused = ids.find((id) => !/^[a-zA-Z0-9]{9}$/.test(id));
      if (refused !== undefined)
        return sendApiError(
          response,
          400,
          `Tool call id was ${refused} but must be a-z, A-Z, 0-9, with a length of 9.`,
          'invalid_request_error',
        );
    }
    // DeepSeek's API (the one that made `reasoning_content`) refuses it in the input: it is for display only.
    const sentReasoning = body.messages.findIndex(
      (message) => message.role === 'assistant' && 'reasoning_content' in message,
    );
    if (sentReasoning !== -1)
      return sendApiError(
        response,
        400,
        `messages[${sentReasoning}]: reasoning_content is not allowed in input messages; it is for display only and must not be sent back.`,
        'invalid_request_error',
      );
    const effort = (body as { reasoning_effort?: unknown }).reasoning_effort;
    if (effort !== undefined && !['minimal', 'low', 'medium', 'high'].includes(String(effort)))
      return sendApiError(
        response,
        400,
        `Invalid value: '${String(effort)}'. Supported values are: 'minimal', 'low', 'medium', and 'high'.`,
        'invalid_request_error',
        'invalid_value',
      );
    if (this.options.rejectMaxTokens === true && body.max_tokens !== undefined) {
      return sendApiError(
        response,
        400,
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        'invalid_request_error',
        'unsupported_parameter',
      );
    }

    const window = this.windowOf(body.model);
    const prompt = countPromptTokens(body);
    const reserve = body.max_completion_tokens ?? body.max_tokens ?? 0;
    // Refused before the model sees it, as the servers do: no scripted turn is used up.
    if (window !== undefined && prompt + reserve > window)
      return sendApiError(
        response,
        400,
        contextLengthMessage(window, body, prompt),
        'invalid_request_error',
        'context_length_exceeded',
      );

    const next = await this.nextTurn(record, this.options.fallback);
    if (next === undefined)
      return sendApiError(
        response,
        500,
        `fake-openai: no scripted turn left for request #${record.number}`,
        'server_error',
      );
    const turn = FakeOpenAiTurnSchema.parse(next);
    if (turn.busy !== undefined && this.busy.answersBusy(next, turn.busy)) {
      this.queue.unshift(next);
      const busy = openAiBusyError(turn.busy);
      return sendApiError(response, busy.status, busy.message, busy.type, busy.code, busy.headers);
    }
    if (turn.error !== undefined) {
      const { status, message, type, code, headers, rawBody } = turn.error;
      if (rawBody !== undefined) {
        response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
        response.end(rawBody);
        return;
      }
      return sendApiError(response, status, message, type ?? 'api_error', code ?? null, headers ?? {});
    }
    this.completionCount += 1;
    const completion = renderCompletion(turn, record, this.completionCount);
    // Unless the script says otherwise, the whole prompt is billed, a prefix seen recently as cached.
    if (turn.usage === undefined) {
      const { prompt_tokens, cached_tokens } = this.promptCache.bill(body);
      const completion_tokens = completion.usage.completion_tokens;
      completion.usage = {
        ...completion.usage,
        prompt_tokens,
        completion_tokens,
        total_tokens: prompt_tokens + completion_tokens,
        prompt_tokens_details: { cached_tokens },
      };
    }
    if (!record.stream) return sendJson(response, 200, completionJson(completion));
    await this.stream(response, completion, turn, body.stream_options?.include_usage === true);
  }

  /** The window `model` is held to, if any (see FakeOpenAiOptions.contextWindow). */
  windowOf(model: string): number | undefined {
    return this.options.contextWindow ?? this.options.contextLengths?.[model];
  }

  private async stream(
    response: ServerResponse,
    completion: RenderedCompletion,
    turn: z.output<typeof FakeOpenAiTurnSchema>,
    includeUsage: boolean,
  ): Promise<void> {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    let closed = false;
    response.on('close', () => (closed = true));
    const delay = turn.delayMsPerChunk ?? 0;
    const created = Math.floor(Date.now() / 1000);
    const send = async (data: Record<string, unknown> | '[DONE]'): Promise<void> => {
      if (closed) return;
      response.write(`data: ${data === '[DONE]' ? data : JSON.stringify(data)}\n\n`);
      if (delay > 0) await sleep(delay);
    };
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      id: completion.id,
      object: 'chat.completion.chunk',
      created,
      model: completion.model,
      choices,
      ...extra,
    });
    const deltas = streamDeltas(completion, turn.interleave === true);
    await send(chunk([{ index: 0, delta: deltas[0], finish_reason: null }]));
    if (turn.streamError !== undefined) {
      await send({
        error: {
          message: turn.streamError.message,
          type: turn.streamError.type ?? 'server_error',
          param: null,
          code: null,
        },
      });
      response.end();
      return;
    }
    for (const [index, delta] of deltas.slice(1).entries()) {
      if (turn.dropAfterDeltas !== undefined && index >= turn.dropAfterDeltas) {
        // The network goes away mid-reply: no finish_reason, no [DONE], no chunked terminator.
        // Ended, not destroyed: what was written still reaches the client first.
        response.socket?.end();
        return;
      }
      await send(chunk([{ index: 0, delta, finish_reason: null }]));
    }
    if (turn.holdOpen === true) {
      // The person presses stop: the client aborts and the response closes.
      await new Promise<void>((resolve) => (closed ? resolve() : response.once('close', () => resolve())));
      return;
    }
    await send(chunk([{ index: 0, delta: {}, finish_reason: completion.finishReason }]));
    if (includeUsage) await send(chunk([], { usage: completion.usage }));
    await send('[DONE]');
    response.end();
  }
}
