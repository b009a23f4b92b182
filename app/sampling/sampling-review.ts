import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  SamplingMessage,
} from '@modelcontextprotocol/client';
import {
  SamplingContentSchema as McpSamplingContentSchema,
  SamplingMessageContentBlockSchema,
  SamplingMessageSchema as McpSamplingMessageSchema,
} from '@modelcontextprotocol/core';
import type { SamplingPolicy } from '../../shared/domain/consent';
import { isWithdrawal } from '../../shared/domain/pending';
import type { ModelChoice, SamplingAnswerPayload, SamplingRequestView } from '../../shared/domain/pending';
import type { TokenUsage } from '../../shared/domain/sampling-limits';
import type { LogSink } from '../logs/log-sink';
import type { PendingRequests } from '../pending/pending-requests';
import { splitModelKey } from '../../shared/domain/model-key';
import type { CandidateModel, SamplingModels } from './candidate-models';
import { chooseModel } from './model-selection';
import { RateLimiter } from './rate-limit';
import type { RateLimitOptions } from './rate-limit';
import { SamplingBudget } from './sampling-budget';
import { SessionModels } from './session-model';
import { errorMessage } from '../../shared/error-message';
import { pendingError } from '../../shared/domain/pending-errors';

/** The JSON-RPC error code MCP uses for "the user said no". */
export const USER_REJECTED_CODE = -1;
export const USER_REJECTED_MESSAGE = 'User rejected sampling request';
/** Implementation-defined JSON-RPC error code for "too many sampling requests". */
export const RATE_LIMITED_CODE = -32000;
/** Implementation-defined JSON-RPC error code for "this server's sampling budget is spent" (same range as the rate limit). */
export const BUDGET_EXHAUSTED_CODE = -32000;

/** What `generate` returns: the model's answer in MCP terms. */
export interface GeneratedMessage {
  /** One block (text/image/audio); with tools also tool_use blocks, possibly several. */
  content: CreateMessageResultWithTools['content'];
  /** `endTurn`, `maxTokens`, `stopSequence`, `toolUse`, or the provider's own word. */
  stopReason?: string;
  /** What the model reported it used; counted against the server's session budget. */
  usage?: TokenUsage;
  /** The model's name as the provider gave it (what the server is told answered); else the provider's id for the key asked for. */
  model?: string;
  /** The model's reasoning, when the person let sampling reason: for the review only, never for the server. */
  reasoning?: SamplingAnswerPayload['result']['reasoning'];
}

/**
 * Calls the model. Receives the request after the person's edits. When
 * `tools` are present it must offer them to the model (honouring
 * `toolChoice`) and may answer with tool_use blocks and stopReason `toolUse`.
 */
export type SamplingGenerate = (
  request: CreateMessageRequestParams,
  model: string,
  signal: AbortSignal,
) => Promise<GeneratedMessage>;

/** Options for {@linkcode SamplingReview}. */
export interface SamplingReviewOptions {
  pending: PendingRequests;
  /** The candidate models of every provider and the default, read on every request. */
  models: SamplingModels;
  generate: SamplingGenerate;
  /** Per-server log lines about each request's fate. */
  logs: LogSink;
  /** Per-server token bucket; default 10 requests per minute. */
  rateLimit?: RateLimitOptions;
  /**
   * Accept requests that carry `tools`/`toolChoice` (declare `sampling: { tools: {} }`
   * only then). Default false: such requests are refused with InvalidParams.
   */
  supportsTools?: boolean;
  /** Starting per-server policies (e.g. a persisted 'never'); everyone else is 'ask'. */
  policies?: Record<string, SamplingPolicy>;
  /** Per-server max-tokens cap and session budget; default: Berth's default limits for every server. */
  budget?: SamplingBudget;
}

/** Where a request came from, beyond the server. */
export interface SamplingContext {
  /** The SDK handler's `ctx.mcpReq.signal`: aborted when the server cancels. */
  signal?: AbortSignal;
  conversationId?: string;
  /** The tool call that caused this (2026-07-28 `input_required` rounds). */
  toolUseId?: string;
  /** The Berth task the question belongs to (a task-augmented request). */
  taskId?: string;
  /** Told each question's pending id as it opens (the review, then the answer). */
  onQuestion?: (pendingId: string) => void;
}

/** What a "Decline all" tells the server for each of its requests the person had not opened. */
export const DECLINED_ALL_REASON = 'the user declined all waiting sampling requests from this server';

/** Whether a policy refuses every request without asking. */
export function refusesSampling(policy: SamplingPolicy): boolean {
  return policy === 'never' || policy === 'refuse-session';
}

/** Long enough for a sentence; a server shows the message, so it stays one readable line. */
const MAX_REASON_IN_MESSAGE = 500;

function rejected(reason?: string): ProtocolError {
  // Servers show the error's message, rarely its data: the person's reason goes in both.
  const line = reason?.replace(/\s+/g, ' ').trim().slice(0, MAX_REASON_IN_MESSAGE);
  const message = line ? `${USER_REJECTED_MESSAGE}: ${line}` : USER_REJECTED_MESSAGE;
  return new ProtocolError(USER_REJECTED_CODE, message, reason === undefined ? undefined : { reason });
}

function viewOf(params: CreateMessageRequestParams): SamplingRequestView {
  const {
    messages,
    systemPrompt,
    includeContext,
    maxTokens,
    temperature,
    stopSequences,
    modelPreferences,
    metadata,
    tools,
    toolChoice,
  } = params;
  return {
    messages: messages as SamplingRequestView['messages'],
    maxTokens,
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(includeContext !== undefined ? { includeContext } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(stopSequences !== undefined ? { stopSequences } : {}),
    ...(modelPreferences !== undefined ? { modelPreferences } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...(tools !== undefined ? { tools: tools as SamplingRequestView['tools'] } : {}),
    ...(toolChoice !== undefined ? { toolChoice } : {}),
  };
}

/**
 * The candidates for one request: with tools, only models that take tools
 * (and the default only if it does). Refused when none can: sending tools to
 * a model that ignores them would make up an answer without them. A default
 * that cannot be used now (its provider has no key: someone with only a local
 * model) gives way to the first usable model, and the review says so.
 */
function eligibleModels(
  source: SamplingModels,
  withTools: boolean,
  withImages: boolean,
): { models: CandidateModel[]; defaultModel: string; defaultNote?: string } {
  const all = source.list();
  const defaultModel = source.defaultKey();
  const toolUsers = withTools ? all.filter((m) => m.supportsTools !== false) : all;
  if (withTools && toolUsers.length === 0)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'This request offers tools, and none of the models in Berth can use tools',
    );
  // Images go to models that take them; when none does, every model stays offered and the call says why it fails.
  const seeing = withImages ? toolUsers.filter((m) => m.takesImages !== false) : toolUsers;
  const models = seeing.length > 0 ? seeing : toolUsers;
  const stand = models[0];
  if (stand === undefined || models.some((m) => m.key === defaultModel)) return { models, defaultModel };
  const own = all.find((m) => m.key === defaultModel);
  const why =
    own === undefined
      ? `Your default model ${defaultModel} cannot be used now, its provider is not set up`
      : withTools && own.supportsTools === false
        ? 'Your default model cannot use tools, which this request offers'
        : 'Your default model does not take images, which this request carries';
  return { models, defaultModel: stand.key, defaultNote: `(${why}: ${stand.label} stands in for it.)` };
}

/** The request carries an image somewhere in its messages. */
function carriesImages(messages: readonly { content: unknown }[]): boolean {
  return messages.some(({ content }) =>
    (Array.isArray(content) ? content : [content]).some(
      (block: unknown) => typeof block === 'object' && block !== null && 'type' in block && block.type === 'image',
    ),
  );
}

function issueText(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return issue === undefined ? 'invalid' : `${issue.path.map(String).join('.') || 'value'}: ${issue.message}`;
}

/**
 * The `sampling/createMessage` flow: per-server policy, rate limit, model
 * choice, review of the request (editable), the model call, review of the
 * answer (editable), and the result. A "no" anywhere, a closed window, or a
 * vanished server ends in JSON-RPC error -1 "User rejected sampling request".
 */
export class SamplingReview {
  private readonly limiter: RateLimiter;
  private readonly policyMap = new Map<string, SamplingPolicy>();
  private readonly listeners = new Set<(server: string, policy: SamplingPolicy) => void>();
  private readonly budget: SamplingBudget;
  private readonly sessionModels = new SessionModels();

  constructor(private readonly options: SamplingReviewOptions) {
    this.limiter = new RateLimiter(options.rateLimit);
    this.budget = options.budget ?? new SamplingBudget();
    for (const [server, policy] of Object.entries(options.policies ?? {})) this.policyMap.set(server, policy);
  }

  policyFor(server: string): SamplingPolicy {
    return this.policyMap.get(server) ?? 'ask';
  }

  /** Every server with a policy other than the default 'ask'. */
  policies(): Record<string, SamplingPolicy> {
    return Object.fromEntries(this.policyMap);
  }

  setPolicy(server: string, policy: SamplingPolicy): void {
    if (policy === 'ask') this.policyMap.delete(server);
    else this.policyMap.set(server, policy);
    if (policy !== 'allow-session') this.sessionModels.forget(server);
    for (const listener of [...this.listeners]) listener(server, policy);
  }

  onPolicyChange(listener: (server: string, policy: SamplingPolicy) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A server disconnected or was removed: forget its session approval (a new process is asked again)
   * and rate bucket. A refusal for the session outlives a disconnect, so a flooding server cannot
   * shake it off by crashing; only removal forgets it.
   */
  forgetServer(server: string, removed = false): void {
    const policy = this.policyFor(server);
    if (policy === 'allow-session' || (removed && policy === 'refuse-session')) this.setPolicy(server, 'ask');
    this.limiter.reset(server);
  }

  /**
   * The person declined every sampling question of `server` at once (a server
   * flooding them): each waiting review and answer is rejected, so the server
   * gets MCP's "User rejected sampling request" for each. With
   * `refuseForSession`, requests arriving meanwhile or later this session are
   * refused too; the policy is set first so none slips in between. Returns how
   * many were declined.
   */
  declineAll(server: string, refuseForSession: boolean): number {
    if (refuseForSession) this.setPolicy(server, 'refuse-session');
    const { pending } = this.options;
    const waiting = pending
      .list()
      .filter(
        (request) => request.server === server && (request.kind === 'sampling' || request.kind === 'sampling-answer'),
      );
    let declined = 0;
    for (const request of waiting) {
      // One may have been answered meanwhile: pending has no such request any more, and that is fine.
      if (pending.get(request.id) === undefined) continue;
      pending.answer(request.id, { decision: 'reject', reason: DECLINED_ALL_REASON });
      declined += 1;
    }
    this.log(
      server,
      'info',
      `the person declined ${declined} waiting sampling request${declined === 1 ? '' : 's'}${refuseForSession ? ' and refused the rest of this session' : ''}`,
    );
    return declined;
  }

  /** The handler body for `client.setRequestHandler('sampling/createMessage', …)`. */
  async handle(
    server: string,
    params: CreateMessageRequestParams,
    context: SamplingContext = {},
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    const policy = this.policyFor(server);
    if (refusesSampling(policy)) {
      const when = policy === 'never' ? '' : ' for this session';
      this.log(server, 'info', `sampling request refused: sampling is turned off for this server${when}`);
      throw rejected(`sampling is turned off for this server in Berth${when}`);
    }
    const withTools = params.tools !== undefined || params.toolChoice !== undefined;
    // Without tools an answer is exactly one text/image/audio block (CreateMessageResult).
    const contentSchema = withTools
      ? SamplingMessageContentBlockSchema.or(SamplingMessageContentBlockSchema.array().min(1))
      : McpSamplingContentSchema;
    if (withTools && this.options.supportsTools !== true) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Berth does not support tool use inside sampling requests (no sampling.tools capability)',
      );
    }
    const verdict = this.limiter.take(server);
    if (!verdict.ok) {
      const seconds = Math.ceil(verdict.retryAfterMs / 1000);
      const text = `Sampling rate limit: server '${server}' may send ${this.limiter.capacity} sampling requests per ${Math.round(this.limiter.windowMs / 1000)} s; try again in ${seconds} s`;
      this.log(server, 'warning', text);
      throw new ProtocolError(RATE_LIMITED_CODE, text, { retryAfterMs: verdict.retryAfterMs });
    }

    const planned = this.budget.plan(server, params.maxTokens);
    if (!planned.ok) {
      this.log(server, 'warning', planned.message);
      throw new ProtocolError(BUDGET_EXHAUSTED_CODE, planned.message, {
        used: planned.usage.used,
        sessionBudget: planned.usage.limits.sessionBudget,
      });
    }
    const tokens = planned.plan;

    const { models, defaultModel, defaultNote } = eligibleModels(
      this.options.models,
      withTools,
      carriesImages(params.messages),
    );
    // Unreviewed requests never follow the server's preference: it could name the dearest model every time.
    const selection =
      policy === 'allow-session'
        ? this.sessionModels.modelFor(server, models, defaultModel)
        : chooseModel(params.modelPreferences, models, defaultModel);
    const choices: ModelChoice[] = models.map((m) => ({ id: m.key, label: m.label, provider: m.providerLabel }));
    const choiceOf = (id: string): ModelChoice => choices.find((c) => c.id === id) ?? { id, label: id };
    const openOptions = {
      ...(context.signal !== undefined ? { signal: context.signal } : {}),
      ...(context.conversationId !== undefined ? { conversationId: context.conversationId } : {}),
      ...(context.toolUseId !== undefined ? { toolUseId: context.toolUseId } : {}),
      ...(context.taskId !== undefined ? { taskId: context.taskId } : {}),
      ...(context.onQuestion !== undefined ? { onOpened: context.onQuestion } : {}),
    };
    const ask = policy === 'ask';

    let request = params;
    let model = selection.model;
    let maxTokens = tokens.proposed;
    if (ask) {
      const outcome = await this.options.pending.open(
        'sampling',
        server,
        {
          request: viewOf(params),
          model: choiceOf(model),
          explanation: defaultNote === undefined ? selection.explanation : `${selection.explanation} ${defaultNote}`,
          // A note added after the reason is English: the whole sentence then stays the host's English.
          ...(defaultNote === undefined && selection.explanationMessage !== undefined
            ? { explanationMessage: selection.explanationMessage }
            : {}),
          ...(defaultNote === undefined && selection.choice !== undefined
            ? { explanationChoice: selection.choice }
            : {}),
          models: choices,
          defaultModel: choiceOf(defaultModel),
          tokens,
        },
        {
          ...openOptions,
          validate: (response) => {
            if (response.decision !== 'approve') return undefined;
            if (
              response.model !== undefined &&
              response.model !== defaultModel &&
              !choices.some((c) => c.id === response.model)
            ) {
              return pendingError('pending-errors.model-not-offered', { model: response.model });
            }
            if (response.maxTokens !== undefined && response.maxTokens > params.maxTokens) {
              return pendingError('pending-errors.max-tokens-over', { max: params.maxTokens });
            }
            for (const [index, message] of (response.messages ?? []).entries()) {
              const parsed = McpSamplingMessageSchema.safeParse(message);
              if (!parsed.success)
                return pendingError('pending-errors.message-invalid', {
                  index: index + 1,
                  detail: issueText(parsed.error),
                });
            }
            return undefined;
          },
        },
      );
      if (isWithdrawal(outcome)) {
        this.log(server, 'info', `sampling request withdrawn: ${outcome.note}`);
        throw rejected(outcome.note);
      }
      if (outcome.decision === 'reject') {
        this.log(server, 'info', 'sampling request rejected by the person');
        throw rejected(outcome.reason);
      }
      request = {
        ...params,
        ...(outcome.messages !== undefined ? { messages: outcome.messages as SamplingMessage[] } : {}),
        ...(outcome.systemPrompt !== undefined ? { systemPrompt: outcome.systemPrompt } : {}),
        ...(typeof outcome.temperature === 'number' ? { temperature: outcome.temperature } : {}),
      };
      // null: the person cleared the server's temperature, so the model's own default applies.
      if (outcome.temperature === null) delete request.temperature;
      model = outcome.model ?? model;
      maxTokens = outcome.maxTokens ?? maxTokens;
      if (outcome.allowForSession === true) {
        this.setPolicy(server, 'allow-session');
        this.sessionModels.remember(server, outcome.model);
      }
    }

    request = { ...request, maxTokens };
    const generated = await this.generateWithinBudget(server, request, model, context.signal);
    // What was sent: the budget may have lowered max tokens further.
    request = { ...request, maxTokens: generated.maxTokens };
    const shape = contentSchema.safeParse(generated.content);
    if (!shape.success) {
      const text = `the model's answer is not valid sampling content${withTools ? '' : ' (one text, image or audio block)'}: ${issueText(shape.error)}`;
      this.log(server, 'error', `sampling: ${text}`);
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The model request failed: ${text}`);
    }

    let content = generated.content;
    if (ask) {
      const outcome = await this.options.pending.open(
        'sampling-answer',
        server,
        {
          request: viewOf(request),
          model: choiceOf(model),
          ...(generated.model !== undefined ? { answeredBy: generated.model } : {}),
          result: {
            content: content as SamplingAnswerPayload['result']['content'],
            ...(generated.stopReason !== undefined ? { stopReason: generated.stopReason } : {}),
            ...(generated.usage !== undefined ? { usage: generated.usage } : {}),
            ...(generated.reasoning !== undefined ? { reasoning: generated.reasoning } : {}),
          },
        },
        {
          ...openOptions,
          validate: (response) => {
            if (response.decision !== 'approve' || response.content === undefined) return undefined;
            const parsed = contentSchema.safeParse(response.content);
            if (parsed.success) return undefined;
            const detail = issueText(parsed.error);
            return pendingError(
              withTools ? 'pending-errors.answer-content-invalid' : 'pending-errors.answer-one-block',
              { detail },
            );
          },
        },
      );
      if (isWithdrawal(outcome)) {
        this.log(server, 'info', `sampling answer withdrawn: ${outcome.note}`);
        throw rejected(outcome.note);
      }
      if (outcome.decision === 'reject') {
        this.log(server, 'info', 'sampling answer rejected by the person');
        throw rejected(outcome.reason);
      }
      if (outcome.content !== undefined) content = outcome.content as CreateMessageResultWithTools['content'];
    }

    // The server is told the model's name (`gpt-4o`), not Berth's key for it (`openai:gpt-4o`).
    const answeredBy = generated.model ?? splitModelKey(model).model;
    const which = answeredBy === model ? model : `${model} (the provider says ${answeredBy} answered)`;
    this.log(server, 'info', `sampling answered with ${which}${ask ? ' after review' : ' (allowed for this session)'}`);
    const result = {
      model: answeredBy,
      role: 'assistant' as const,
      content,
      ...(generated.stopReason !== undefined ? { stopReason: generated.stopReason } : {}),
    };
    return result as CreateMessageResult | CreateMessageResultWithTools;
  }

  /** The model call, with its `max_tokens` held back from the server's budget and its reported usage counted after. */
  private async generateWithinBudget(
    server: string,
    request: CreateMessageRequestParams,
    model: string,
    signal: AbortSignal | undefined,
  ): Promise<GeneratedMessage & { maxTokens: number }> {
    const held = this.budget.reserve(server, request.maxTokens);
    if (!held.ok) {
      this.log(server, 'warning', held.message);
      throw new ProtocolError(BUDGET_EXHAUSTED_CODE, held.message, {
        used: held.usage.used,
        sessionBudget: held.usage.limits.sessionBudget,
      });
    }
    const { reservation } = held;
    if (reservation.maxTokens < request.maxTokens) {
      this.log(
        server,
        'info',
        `sampling: max tokens lowered from ${request.maxTokens} to ${reservation.maxTokens}, what is left of the session budget`,
      );
    }
    let generated: GeneratedMessage;
    try {
      generated = await this.generate(server, { ...request, maxTokens: reservation.maxTokens }, model, signal);
    } catch (error) {
      // A cancelled call may have spent tokens at the model already; a failed one spent none.
      if (signal?.aborted === true) this.budget.settle(reservation, undefined);
      else this.budget.release(reservation);
      throw error;
    }
    const counted = this.budget.settle(reservation, generated.usage);
    if (generated.usage === undefined)
      this.log(
        server,
        'warning',
        `sampling: the model reported no token usage; counted the ${counted} max tokens against the budget`,
      );
    return { ...generated, maxTokens: reservation.maxTokens };
  }

  private async generate(
    server: string,
    request: CreateMessageRequestParams,
    model: string,
    signal: AbortSignal | undefined,
  ): Promise<GeneratedMessage> {
    // The model call stops when the server cancels; a local controller keeps `generate`'s signal non-optional.
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.options.generate(request, model, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) throw rejected('the server cancelled the request');
      const text = errorMessage(error);
      this.log(server, 'error', `sampling: the model call failed: ${text}`);
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The model request failed: ${text}`);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private log(server: string, level: 'info' | 'warning' | 'error', text: string): void {
    this.options.logs.append({ server, time: Date.now(), source: 'host', level, text });
  }
}
