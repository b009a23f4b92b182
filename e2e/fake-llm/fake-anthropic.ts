import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { LoopbackFake, readBody, sendJson, sleep } from './loopback-fake';
import { FakeTurnSchema, messageJson, outputDetails, renderTurn } from './turns';
import { BusyCounter, anthropicBusyError } from './fake-busy';
import { thinkingError } from './fake-thinking';
import type { FakeTurn, FakeTurnSource, RecordedRequest, RenderedMessage } from './turns';
import { validateMessagesRequest } from './validate-request';
import { countPromptTokens } from './fake-token-count';
import { DEFAULT_FAKE_ANTHROPIC_MODELS, listModelsPage, retrieveModel } from './fake-anthropic-models';
import type { FakeAnthropicModel, ModelsAnswer } from './fake-anthropic-models';
import { FakePromptCache } from './anthropic-prompt-cache';
import { COMPACT_BETA, compactionAsk, FakeCompactions } from './fake-compaction';
import type { CompactionRefusal } from './fake-compaction';
import { deferredToolsError, promptView, unloadedTools } from './fake-deferred-tools';

export type { FakeTurn, FakeTurnSource, RecordedRequest } from './turns';
export type { FakeAnthropicModel } from './fake-anthropic-models';

/** How a fake is started. */
export interface FakeAnthropicOptions {
  /**
   * When set, requests must carry this key (else 401 authentication_error), as
   * `x-api-key` or as `Authorization: Bearer` (how @anthropic-ai/sdk 1.x sends it).
   */
  apiKey?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Answer used when the script has run out; without it such a request gets a 500. */
  fallback?: FakeTurnSource;
  /** What `GET /v1/models` lists (default DEFAULT_FAKE_ANTHROPIC_MODELS). */
  models?: readonly FakeAnthropicModel[];
  /** Most models per page whatever `limit` asks (default 1000, the API's own cap): lets tests see pages followed. */
  modelsPageSize?: number;
  /**
   * Refuse a Messages request for a model `models` does not list with the API's 404 (`not_found_error`,
   * "model: <id>"), as the API does for a model the account has no access to. Default: any model is answered.
   */
  refuseUnlistedModels?: boolean;
  /** Refuse any cache_control with a 400, as a strict Anthropic-compatible proxy does. */
  refuseCacheControl?: boolean;
  /** Refuse deferred tools (`defer_loading`) with a 400, as a proxy that does not know them does. */
  refuseDeferredTools?: boolean;
  /**
   * The context window of every model, overriding each listed model's `max_input_tokens` (a small
   * one lets tests fill it). A model neither gives is held to DEFAULT_FAKE_CONTEXT_WINDOW.
   */
  contextWindow?: number;
}

/** The window of a model the fake does not list (every current Claude has 200k). */
export const DEFAULT_FAKE_CONTEXT_WINDOW = 200_000;

/** A request to the models endpoint, as it came. */
export interface RecordedModelsRequest {
  path: string;
  query: Record<string, string>;
}

function sendApiError(
  response: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
  errorCode?: string,
): void {
  // `details.error_code` is how the SDK tells the Compaction* errors apart.
  const error = { type, message, ...(errorCode !== undefined ? { details: { error_code: errorCode } } : {}) };
  sendJson(response, status, { type: 'error', error, request_id: `req_fake_${Date.now()}` }, headers);
}

function sendRefusal(response: ServerResponse, refusal: CompactionRefusal): void {
  sendApiError(response, refusal.status, refusal.type, refusal.message, {}, refusal.errorCode);
}

function presentedKey(request: IncomingMessage): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string') return header;
  const authorization = request.headers.authorization;
  return authorization?.startsWith('Bearer ') === true ? authorization.slice('Bearer '.length) : undefined;
}

/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages`) and
 * its models endpoint (`GET /v1/models`, paginated; fake-anthropic-models.ts), as
 * `@anthropic-ai/sdk` talks to it: JSON answers, or SSE with `event:` lines
 * (message_start with usage, ping, content blocks with text_delta and
 * input_json_delta, message_delta with stop_reason, message_stop). Answers are
 * scripted per test; every request is recorded. Server-side compaction
 * (`context_management` with `compact_20260112`) as the API does it: fake-compaction.ts.
 *
 * Control endpoints for tests that run Berth as another process:
 * `POST /__fake/script` `{ turns, append? }`, `GET /__fake/requests`,
 * `POST /__fake/reset`.
 */
export class FakeAnthropic extends LoopbackFake<FakeTurn, RecordedRequest> {
  /** Every request to /v1/models (list and retrieve), in order (rejected ones included). */
  readonly modelRequests: RecordedModelsRequest[] = [];
  /** Prefixes marked with cache_control, billed as cache reads when a later request starts with them (anthropic-prompt-cache.ts). */
  readonly promptCache = new FakePromptCache();
  /** The compaction blocks this fake signed (fake-compaction.ts); `forget()` makes it refuse them. */
  readonly compactions = new FakeCompactions();
  private messageCount = 0;
  private readonly busy = new BusyCounter();
  private readonly options: FakeAnthropicOptions;
  /** Ids of the tool_use blocks sent in a message that began with thinking: their follow-ups must bring it back. */
  private readonly thoughtBefore = new Set<string>();

  private constructor(options: FakeAnthropicOptions) {
    super('fake-anthropic', FakeTurnSchema);
    this.options = options;
  }

  static async start(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
    const fake = new FakeAnthropic(options);
    await fake.listen(options.port);
    return fake;
  }

  /** `http://127.0.0.1:PORT`: the SDK's `baseURL` (it appends /v1/messages). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Forget the script and the recorded requests; message and tool_use ids start again at 1. */
  override reset(): void {
    super.reset();
    this.modelRequests.length = 0;
    this.messageCount = 0;
    this.promptCache.clear();
    this.thoughtBefore.clear();
    this.compactions.forget();
  }

  protected sendFailure(response: ServerResponse, message: string): void {
    sendApiError(response, 500, 'api_error', message);
  }

  protected async handle(path: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/')))
      return this.handleModels(path, request, response);
    if (request.method !== 'POST' || path !== '/v1/messages') {
      return sendApiError(
        response,
        404,
        'not_found_error',
        `fake-anthropic serves POST /v1/messages and GET /v1/models, not ${request.method ?? '?'} ${path}`,
      );
    }
    const text = await readBody(request);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const validated =
      raw === undefined ? { error: 'The request body is not valid JSON.' } : validateMessagesRequest(raw);
    const record: RecordedRequest = {
      number: this.requests.length + 1,
      path,
      headers: { ...request.headers },
      body: 'body' in validated ? validated.body : undefined,
      stream: typeof raw === 'object' && raw !== null && (raw as { stream?: unknown }).stream === true,
    };
    this.record(record);

    if (this.options.apiKey !== undefined && presentedKey(request) !== this.options.apiKey) {
      return sendApiError(response, 401, 'authentication_error', 'invalid x-api-key');
    }
    if (request.headers['anthropic-version'] === undefined) {
      return sendApiError(response, 400, 'invalid_request_error', 'anthropic-version: header is required');
    }
    if ('error' in validated) return sendApiError(response, 400, 'invalid_request_error', validated.error);
    const model = validated.body.model;
    if (
      this.options.refuseUnlistedModels === true &&
      !(this.options.models ?? DEFAULT_FAKE_ANTHROPIC_MODELS).some((listed) => listed.id === model)
    )
      return sendApiError(response, 404, 'not_found_error', `model: ${model}`);
    if (this.options.refuseDeferredTools === true && text.includes('"defer_loading"'))
      return sendApiError(
        response,
        400,
        'invalid_request_error',
        'tools.2.defer_loading: Extra inputs are not permitted',
      );
    const deferred = deferredToolsError(validated.body);
    if (deferred !== undefined)
      return sendApiError(response, 400, 'invalid_request_error', deferred.message, {}, deferred.code);
    // Refused before the model sees it, as the API does: no scripted turn is used up.
    const betas = [request.headers['anthropic-beta'] ?? ''].flat().join(',');
    const compaction = compactionAsk(validated.body, betas, (model) => this.compacts(model));
    if (compaction !== undefined && 'status' in compaction) return sendRefusal(response, compaction);
    const compactionSent = validated.body.messages.findIndex(
      (message) => typeof message.content !== 'string' && message.content.some((block) => block.type === 'compaction'),
    );
    if (compactionSent !== -1 && !betas.includes(COMPACT_BETA))
      return sendApiError(
        response,
        400,
        'invalid_request_error',
        `messages.${compactionSent}.content: 'compaction' blocks require the '${COMPACT_BETA}' beta header`,
      );
    // What the model reads: from the last compaction block sent back on (the API drops what came before it).
    const managed = this.compactions.effective(validated.body);
    if ('refusal' in managed) return sendRefusal(response, managed.refusal);
    const effective = managed.body;
    // What the model reads: deferred tools only once a tool_reference loaded them, where it did (fake-deferred-tools.ts).
    const view = promptView(effective);
    const window = this.contextWindow(validated.body.model);
    const prompt = countPromptTokens(view);
    if (prompt > window)
      return sendApiError(
        response,
        400,
        'invalid_request_error',
        `prompt is too long: ${prompt} tokens > ${window} maximum`,
      );
    if (this.options.refuseCacheControl === true && text.includes('"cache_control"'))
      return sendApiError(response, 400, 'invalid_request_error', 'cache_control: Extra inputs are not permitted');
    const refused = this.promptCache.refusal(view);
    if (refused !== undefined) return sendApiError(response, 400, 'invalid_request_error', refused);
    const thinkingProblem = thinkingError(effective, this.thoughtBefore);
    if (thinkingProblem !== undefined) return sendApiError(response, 400, 'invalid_request_error', thinkingProblem);

    const next = await this.nextTurn(record, this.options.fallback);
    if (next === undefined) {
      return sendApiError(
        response,
        500,
        'api_error',
        `fake-anthropic: no scripted turn left for request #${record.number}`,
        { 'x-should-retry': 'false' },
      );
    }
    const turn = FakeTurnSchema.parse(next);
    if (turn.busy !== undefined && this.busy.answersBusy(next, turn.busy)) {
      this.queue.unshift(next);
      const busy = anthropicBusyError(turn.busy);
      return sendApiError(response, busy.status, busy.type, busy.message, busy.headers);
    }
    if (turn.error !== undefined)
      return sendApiError(response, turn.error.status, turn.error.type, turn.error.message, turn.error.headers);
    this.messageCount += 1;
    const message = renderTurn(turn, record, this.messageCount);
    // The model sees no deferred tool before it is loaded, so it cannot call one: a script that does is wrong.
    const unloaded = unloadedTools(validated.body);
    const early = message.blocks.find((block) => block.type === 'tool_use' && unloaded.has(String(block.block.name)));
    if (early !== undefined)
      return sendApiError(
        response,
        500,
        'api_error',
        `fake-anthropic: the script has the model call ${String(early.block.name)} in request #${record.number}, but that tool is deferred and no tool_reference has loaded it, so the real model could not call it`,
        { 'x-should-retry': 'false' },
      );
    // An answered request reads and writes the cache (a failed one does not); unless the script says otherwise, the
    // whole prompt is billed, its cached prefix as the cache's share.
    if (compaction !== undefined && prompt > compaction.trigger) {
      // Past the trigger: the reply begins with the summary of everything before, and the model reads only that.
      const { block, summaryTokens } = this.compactions.compact(effective);
      const compacted = countPromptTokens({ ...view, messages: [{ role: 'assistant', content: [block] }] });
      const { content, encrypted_content, signature } = block;
      message.blocks.unshift({
        type: 'compaction',
        block,
        start: { type: 'compaction', content: null, encrypted_content: null, signature },
        deltas: [{ type: 'compaction_delta', content, encrypted_content }],
      });
      const none = { cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
      if (turn.usage === undefined) Object.assign(message, { inputTokens: compacted, cache: none });
      // The compaction's own cost is its iteration; the top-level usage is the compacted context's.
      message.iterations = [
        { type: 'compaction', input_tokens: prompt, output_tokens: summaryTokens, ...none },
        { type: 'message', input_tokens: message.inputTokens, output_tokens: message.outputTokens, ...none },
      ];
    } else {
      const bill = this.promptCache.bill(view);
      if (turn.usage === undefined && !('error' in bill)) {
        const { input_tokens, ...cache } = bill;
        Object.assign(message, { inputTokens: input_tokens, cache });
      }
    }
    if (message.blocks.some((block) => block.type === 'thinking' || block.type === 'redacted_thinking'))
      for (const block of message.blocks) if (block.type === 'tool_use') this.thoughtBefore.add(String(block.block.id));
    if (!record.stream)
      return sendJson(response, 200, messageJson(message), { 'request-id': `req_fake_${this.messageCount}` });
    await this.stream(response, message, turn);
  }

  /** Whether `model`'s listing says the API compacts its context (FakeAnthropicModel.compaction). */
  private compacts(model: string): boolean {
    return (this.options.models ?? DEFAULT_FAKE_ANTHROPIC_MODELS).find((m) => m.id === model)?.compaction === true;
  }

  /** The window `model` is held to (see FakeAnthropicOptions.contextWindow). */
  contextWindow(model: string): number {
    const listed = (this.options.models ?? DEFAULT_FAKE_ANTHROPIC_MODELS).find((m) => m.id === model);
    return this.options.contextWindow ?? listed?.max_input_tokens ?? DEFAULT_FAKE_CONTEXT_WINDOW;
  }

  /** The models endpoint checks the key as the API does: none at all, or a wrong one, is a 401. */
  private handleModels(path: string, request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://fake');
    this.modelRequests.push({ path, query: Object.fromEntries(url.searchParams) });
    const key = presentedKey(request);
    if (key === undefined) return sendApiError(response, 401, 'authentication_error', 'x-api-key header is required');
    if (this.options.apiKey !== undefined && key !== this.options.apiKey)
      return sendApiError(response, 401, 'authentication_error', 'invalid x-api-key');
    if (request.headers['anthropic-version'] === undefined)
      return sendApiError(response, 400, 'invalid_request_error', 'anthropic-version: header is required');
    const window = this.options.contextWindow;
    const listed = this.options.models ?? DEFAULT_FAKE_ANTHROPIC_MODELS;
    const models = window === undefined ? listed : listed.map((m) => ({ ...m, max_input_tokens: window }));
    const answer: ModelsAnswer =
      path === '/v1/models'
        ? listModelsPage(models, url.searchParams, this.options.modelsPageSize)
        : retrieveModel(models, decodeURIComponent(path.slice('/v1/models/'.length)));
    if (answer.status === 200)
      return sendJson(response, 200, answer.body, { 'request-id': `req_fake_models_${this.modelRequests.length}` });
    return sendApiError(response, answer.status, answer.type, answer.message);
  }

  private async stream(
    response: ServerResponse,
    message: RenderedMessage,
    turn: z.output<typeof FakeTurnSchema>,
  ): Promise<void> {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'request-id': `req_fake_${this.messageCount}`,
    });
    let closed = false;
    response.on('close', () => (closed = true));
    const delay = turn.delayMsPerChunk ?? 0;
    const send = async (event: string, data: Record<string, unknown>, pause = false): Promise<void> => {
      if (closed) return;
      response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
      if (pause && delay > 0) await sleep(delay);
    };
    const start = {
      ...messageJson(message),
      content: [],
      stop_reason: null,
      usage: { input_tokens: message.inputTokens, output_tokens: 1, ...message.cache },
    };
    await send('message_start', { message: start });
    await send('ping', {});
    if (turn.streamError !== undefined) {
      await send('error', { error: turn.streamError });
      response.end();
      return;
    }
    let deltas = 0;
    for (const [index, block] of message.blocks.entries()) {
      await send('content_block_start', { index, content_block: block.start });
      for (const delta of block.deltas) {
        if (turn.dropAfterDeltas !== undefined && deltas >= turn.dropAfterDeltas) {
          // The network goes away in the middle of a block: what streamed so far is all the client gets.
          // Ended, not destroyed: what was written still reaches the client first.
          response.socket?.end();
          return;
        }
        await send('content_block_delta', { index, delta }, true);
        deltas += 1;
      }
      await send('content_block_stop', { index });
    }
    if (turn.dropAfterContent === true) {
      // The network goes away mid-reply: the connection closes with no message_stop (no chunked terminator either).
      response.socket?.destroy();
      return;
    }
    if (turn.holdOpen === true) {
      // The person presses stop: the client aborts and the response closes.
      await new Promise<void>((resolve) => (closed ? resolve() : response.once('close', () => resolve())));
      return;
    }
    await send('message_delta', {
      delta: { stop_reason: message.stopReason, stop_sequence: null },
      usage: {
        output_tokens: message.outputTokens,
        ...outputDetails(message),
        ...(message.iterations !== undefined ? { iterations: message.iterations } : {}),
      },
    });
    await send('message_stop', {});
    response.end();
  }
}
