import { randomUUID } from 'node:crypto';
import { HostError } from '../../shared/result';
import { conversationError } from '../../shared/domain/conversation-errors';
import { STOPPED_BY_PERSON } from '../../shared/domain/chat';
import type { ContextFill } from '../../shared/contract/chat';
import type {
  ChatAttachment,
  ChatEvent,
  ChatMessage,
  ChatToolResultBlock,
  ChatToolUseBlock,
  ChatUsage,
  Conversation,
  ToolAppRef,
} from '../../shared/domain/chat';
import { promptTokens, sumUsage } from '../../shared/domain/chat-usage';
import { TokenEstimator } from '../providers/token-estimate';
import { ContextFullError, ContextKeeper, type FitResult } from './context/context-keeper';
import { activeCut } from './context/context-cut';
import { ownCut } from './context/api-compaction';
import { API_DEFAULT_COMPACT_TRIGGER } from '../providers/anthropic-context';
import { isPromptTooLong } from './context/prompt-too-long';
import { ChatEventPump } from './chat-event-pump';
import { LlmError } from '../providers/llm-provider';
import { RetryWaits, streamWithRetries, type RetryOptions, type RetryPolicy } from '../providers/model-call-retries';
import type { LlmProvider, LlmResponse, LlmStreamRequest } from '../providers/llm-provider';
import { TOOL_COUNT_WARNING_AT, TOOL_SHARE_WARNING_AT } from './tool-warnings';
import { notOfferedReason } from './tool-offer';
import type { ToolOffer } from './tool-offer';
import { RequestBuilder, type RequestStream } from './request-builder';
import { runToolCall } from './tool-call-run';
import type { ToolCallGate, ToolRunner } from './tool-call-run';
import type { NamedToolRef } from './tool-names';
import type { AvailableTool } from './api-messages';
import type { ConversationStore } from './conversation-store';
import type { HostToolRegistry } from './host-tools/host-tool-registry';
import { countImages, noImagesNotice, withoutImages } from '../providers/image-omission';
import { errorMessage } from '../../shared/error-message';
import { capRecordFor } from './results/request-capping';
import { ThinkingClock } from './thinking-clock';
import { chatError } from '../../shared/domain/chat-error';
import { chatNotice } from '../../shared/domain/chat-notice';
import type { HostMessage } from '../../shared/domain/host-message';
import type { Worded } from '../../shared/domain/host-wording';
import { failureOf, providerDetail } from './turn-failure';
import { PartialReply } from './partial-reply';
import type { ActiveTurn, TurnOutcome } from './active-turn';
import { TurnStarters, type PrepareTurn } from './turn-starters';
import { TurnSaving, replyContent } from './turn-saving';

export type { AvailableTool } from './api-messages';
export { CANCELLED_BY_USER } from './tool-call-run';
export type {
  ToolCallGate,
  ToolCallGateAnswer,
  ToolCallGateRequest,
  ToolRunner,
  ToolRunOptions,
} from './tool-call-run';

export interface ChatEngineOptions {
  provider: LlmProvider;
  /** False for a model marked as taking no tools (default: every model does): its turns get none and say so. */
  takesTools?: (model: string) => boolean;
  /**
   * True for a model whose provider loads deferred tools itself (Anthropic): with tool search on, every enabled tool is
   * listed deferred and a load puts its definition in the conversation, so the tool list and the cache stay as they were.
   */
  defersTools?: (model: string) => boolean;
  /**
   * True for a model that goes on from an assistant message ending the request (a prefill: older Claude models):
   * Continue sends the unfinished reply so. Default: no model does; Continue asks in a short user turn.
   */
  prefills?: (model: string) => boolean;
  /** False for a model marked as taking no images (default: every model does): its requests carry a note for each image, and the chat says so. */
  takesImages?: (model: string) => boolean;
  /** How notices name a model key (default: the key itself). */
  modelName?: (model: string) => string;
  store: ConversationStore;
  /** Tools of every ready server, read at each model call. */
  tools: () => AvailableTool[];
  gate: ToolCallGate;
  runner: ToolRunner;
  /** Tools Berth answers itself (tool search, result capping, skills): asked per conversation at each model request. */
  hostTools?: HostToolRegistry;
  /**
   * The limit (estimated tokens) of one new tool result of `server` in a conversation on `model` (app/chat/results
   * resultLimitTokens: the server's own, else Berth's default bounded by the model's context). A longer result reaches
   * the model as its head and tail with a note. Default: Berth's default for the model's context window.
   */
  resultLimit?: (server: string, model: string) => number;
  /** MCP Apps: the app a tool's card renders, and what apps added to a conversation's context (sent with each model request). */
  apps?: ChatApps;
  onEvent: (event: ChatEvent) => void;
  /** System prompt for each model call, given the servers whose tools it offers (in order); undefined: none. */
  system?: (servers: readonly string[]) => string | undefined;
  /** Berth's token estimate, corrected by each request's reported usage (app/chat/context); default: a new one. */
  tokens?: TokenEstimator;
  /** The model's context window in tokens, for the tools' share warning; undefined when unknown (no such warning). */
  contextWindow?: (model: string) => number | undefined;
  /** Warn when the tool definitions alone exceed this share of the context window (default TOOL_SHARE_WARNING_AT). */
  toolShareWarningAt?: number;
  /**
   * The reasoning a request of this conversation asks for (its own level, else the global default, as the model
   * takes it); undefined: none (the default).
   */
  reasoning?: (conversation: Conversation) => LlmStreamRequest['reasoning'];
  /**
   * Whether `model` takes its provider's own context management (Anthropic's server-side compaction, from its
   * listing); default: no model does, Berth compacts every conversation itself.
   */
  contextManagement?: (model: string) => boolean;
  /** How long a model call waits and asks again after a rate limit or a network drop (default DEFAULT_RETRY_POLICY). */
  retryPolicy?: Partial<RetryPolicy>;
  /** Model calls per turn before the loop gives up (default 25). */
  maxIterations?: number;
  /** max_tokens per model call (default 4096). */
  maxTokens?: number;
  /** Above this many offered tools a warning is reported (default TOOL_COUNT_WARNING_AT, 40). */
  toolCountWarningAt?: number;
  /** Minimum time between two text-delta events of one conversation (default 34 ms, ≤ ~30/s). */
  textIntervalMs?: number;
  /** Where an exception thrown by onEvent goes (default console.error): a listener bug must not break a turn. */
  onListenerError?: (error: unknown) => void;
}

/** What the chat needs from MCP Apps (app/apps). */
export interface ChatApps {
  toolApp(server: string, tool: string): ToolAppRef | undefined;
  /** Labelled text appended to the last user message sent to the model; undefined when there is none. */
  turnContext(conversationId: string): string | undefined;
}

export interface TurnHandle {
  turnId: string;
  /** Settles when the turn ends; never rejects (failures are an outcome and a `turn-failed` event). */
  done: Promise<TurnOutcome>;
}

/** Tools offered in one conversation, with the names the model sees. */
export interface OfferedTools {
  tools: NamedToolRef[];
  toolCountWarning?: string;
  toolCountWarningMessage?: HostMessage;
}

/** Every tool of the ready servers for one conversation, switched on or off (the shape of the `chat.tools` answer). */
export interface ConversationToolsView {
  tools: Array<{ server: string; tool: string; title?: string; description?: string; enabled: boolean }>;
  offeredCount: number;
  warning?: string;
}

export type { TurnOutcome } from './active-turn';
export { STOPPED_TOOL_TEXT } from '../../shared/domain/chat';

/**
 * Runs a person's turn through the tool-use loop: ask the model, run the tool
 * calls it wants (each with consent, in parallel), give the results back, and
 * repeat until it answers without tools. Every completed message is saved
 * before the next step, so a crash loses at most the reply being streamed.
 * Independent of any transport: the UI learns everything through `onEvent`.
 */
export class ChatEngine {
  private readonly active = new Map<string, ActiveTurn>();
  private readonly pump: ChatEventPump;
  private readonly maxIterations: number;
  private readonly maxTokens: number;
  private readonly warnAt: number;
  private readonly shareAt: number;
  /** One estimate per model, corrected after each request by the provider's count. */
  readonly tokens: TokenEstimator;
  /** Makes room before a request that would not fit the model's window (app/chat/context). */
  private readonly context: ContextKeeper;
  /** Builds each provider request of a conversation (request-builder.ts). */
  private readonly requests: RequestBuilder;
  /** How a person's action reshapes the conversation before a turn (turn-starters.ts). */
  private readonly starters: TurnStarters;
  /** Saves what a turn produces as it goes (turn-saving.ts). */
  private readonly saving: TurnSaving;

  constructor(private readonly options: ChatEngineOptions) {
    this.tokens = options.tokens ?? new TokenEstimator();
    this.context = new ContextKeeper({
      store: options.store,
      provider: options.provider,
      tokens: this.tokens,
      contextWindow: (model) => options.contextWindow?.(model),
      modelName: (model) => options.modelName?.(model) ?? model,
    });
    this.maxIterations = options.maxIterations ?? 25;
    this.maxTokens = options.maxTokens ?? 4096;
    this.warnAt = options.toolCountWarningAt ?? TOOL_COUNT_WARNING_AT;
    this.shareAt = options.toolShareWarningAt ?? TOOL_SHARE_WARNING_AT;
    this.pump = new ChatEventPump((event) => this.deliver(event), options.textIntervalMs ?? 34);
    this.starters = new TurnStarters(options.store);
    this.saving = new TurnSaving(options.store, this.pump, (error) =>
      (this.options.onListenerError ?? console.error)(error),
    );
    this.requests = new RequestBuilder({
      tools: options.tools,
      hostTools: options.hostTools,
      defersTools: options.defersTools,
      prefills: options.prefills,
      system: options.system,
      reasoning: options.reasoning,
      contextManagement: options.contextManagement,
      contextWindow: options.contextWindow,
      resultLimit: options.resultLimit,
      turnContext: options.apps === undefined ? undefined : (id) => options.apps?.turnContext(id),
      tokens: this.tokens,
      maxTokens: this.maxTokens,
      limits: { countAt: this.warnAt, shareAt: this.shareAt },
    });
  }

  /** Save the person's message and start the reply. Throws (HostError) only when nothing was started. */
  async send(
    conversationId: string,
    text: string,
    options: { model?: string; attachments?: ChatAttachment[] } = {},
  ): Promise<TurnHandle> {
    return this.begin(conversationId, this.starters.send(conversationId, text, options));
  }

  /**
   * Run the last message the person wrote again, dropping every reply after it. With `messageId`, a message that
   * failed earlier (others came after it) is sent again as the newest one: moved to the end, its mark cleared.
   */
  async retry(conversationId: string, messageId?: string): Promise<TurnHandle> {
    return this.begin(conversationId, this.starters.retry(conversationId, messageId));
  }

  /**
   * The last reply failed because the conversation did not fit the model's window: make room (compact,
   * or drop when the conversation is set to) and answer the last message the person wrote again.
   */
  async compactAndRetry(conversationId: string): Promise<TurnHandle> {
    return this.begin(conversationId, this.starters.compactAndRetry(), { forceCompact: true });
  }

  /**
   * Replace the last message the person wrote (and everything after it) with `text`, then reply. With `messageId`, a
   * message that failed earlier (others came after it) is taken out and `text` sent as the newest message.
   */
  async editAndResend(conversationId: string, text: string, messageId?: string): Promise<TurnHandle> {
    return this.begin(conversationId, this.starters.editAndResend(conversationId, text, messageId));
  }

  /**
   * Send a background task's result (its notice in the conversation) to the model as a new user turn. Once only:
   * a result already sent is refused, so the model never reads it twice.
   */
  async sendTaskResult(conversationId: string, taskId: string): Promise<TurnHandle> {
    return this.begin(conversationId, this.starters.taskResult(taskId));
  }

  /**
   * Go on from the reply that ends the conversation unfinished (stopped, or cut off): the model continues it, and
   * what it writes is saved after it. Refused when the conversation does not end with such a reply.
   */
  async continueReply(conversationId: string): Promise<TurnHandle> {
    return this.begin(conversationId, this.starters.continueReply(), { continuing: true });
  }

  /**
   * Edit an earlier message of the person's: the conversation branches there (what followed is kept as the other
   * version) and the model answers the edited message.
   */
  async editAt(conversationId: string, messageId: string, text: string): Promise<TurnHandle> {
    return this.begin(conversationId, this.starters.editAt(conversationId, messageId, text));
  }

  /**
   * Write the model's reply `messageId` again as a new version of it, with `model` when given: that model answers this
   * turn only; the conversation's model for later turns stays the person's choice.
   */
  async regenerate(conversationId: string, messageId: string, model?: string): Promise<TurnHandle> {
    return this.begin(
      conversationId,
      this.starters.regenerate(conversationId, messageId),
      model === undefined ? {} : { model },
    );
  }

  /** Make another version of a position live; refused while a reply is being written (it would land in the wrong one). */
  async switchVersion(conversationId: string, after: string, version: number): Promise<Conversation> {
    if (this.active.has(conversationId))
      throw HostError.coded('CONFLICT', conversationError('conversation-errors.reply-running', {}));
    return this.options.store.switchVersion(conversationId, after, version);
  }

  /** Settles when the running turn of the conversation ends; undefined when none runs. */
  turnDone(conversationId: string): Promise<TurnOutcome> | undefined {
    return this.active.get(conversationId)?.done;
  }

  /** Stop the running turn (stream and tool calls) and wait until what completed is saved. */
  async stop(conversationId: string): Promise<void> {
    const turn = this.active.get(conversationId);
    if (turn === undefined) return;
    turn.controller.abort();
    await turn.done;
  }

  /** End the wait of the running turn before it asks the model again (Retry now); false when it does not wait. */
  retryNow(conversationId: string): boolean {
    return this.active.get(conversationId)?.waits.retryNow() ?? false;
  }

  /** How many conversations have a turn running now. */
  runningCount(): number {
    return this.active.size;
  }

  isRunning(conversationId: string): boolean {
    return this.active.has(conversationId);
  }

  /** What the model would be offered in this conversation right now. */
  async offeredTools(conversationId: string): Promise<OfferedTools> {
    const conversation = await this.options.store.get(conversationId);
    const { names, warning, warningMessage } = this.toolsFor(conversation);
    return {
      tools: names.entries(),
      ...(warning !== undefined ? { toolCountWarning: warning } : {}),
      ...(warningMessage !== undefined ? { toolCountWarningMessage: warningMessage } : {}),
    };
  }

  /** How full the model's window is for this conversation's next request (the header's meter). */
  async contextFill(conversationId: string): Promise<ContextFill> {
    const conversation = await this.options.store.get(conversationId);
    const { model } = conversation;
    const request = this.requests.measured(conversation, this.toolsFor(conversation));
    const parts = this.tokens.parts(model, request);
    const tokens = this.tokens.request(model, request, conversationId);
    const window = this.options.contextWindow?.(model);
    const managed = this.requests.apiContext(conversation);
    // The anchored total is the better number; the history absorbs its difference from the parts' sum.
    const history = Math.max(0, tokens - parts.tools - parts.system - parts.attachments);
    return {
      ...(window !== undefined ? { window } : {}),
      reserve: conversation.maxTokens ?? this.maxTokens,
      tokens: parts.tools + parts.system + parts.attachments + history,
      parts: { ...parts, history },
      calibrated: this.tokens.calibrated(model),
      policy: conversation.contextPolicy ?? 'compact',
      ...(activeCut(conversation) !== undefined ? { cut: activeCut(conversation) } : {}),
      ...(managed !== undefined ? { providerCompactsAt: managed.triggerTokens ?? API_DEFAULT_COMPACT_TRIGGER } : {}),
    };
  }

  /** Every available tool with whether this conversation offers it. */
  async toolsView(conversationId: string): Promise<ConversationToolsView> {
    const conversation = await this.options.store.get(conversationId);
    const { names, warning } = this.toolsFor(conversation);
    const tools = this.options.tools().map(({ server, tool }) => ({
      server,
      tool: tool.name,
      ...(tool.title !== undefined ? { title: tool.title } : {}),
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      enabled: names.apiName(server, tool.name) !== undefined,
    }));
    return { tools, offeredCount: names.size, ...(warning !== undefined ? { warning } : {}) };
  }

  private async begin(
    conversationId: string,
    prepare: PrepareTurn,
    flags: Pick<ActiveTurn, 'forceCompact' | 'continuing' | 'model'> = {},
  ): Promise<TurnHandle> {
    if (this.active.has(conversationId))
      throw HostError.coded('CONFLICT', conversationError('conversation-errors.reply-running', {}));
    let settle: (outcome: TurnOutcome) => void = () => undefined;
    const done = new Promise<TurnOutcome>((resolve) => (settle = resolve));
    const turn: ActiveTurn = {
      conversationId,
      turnId: randomUUID(),
      controller: new AbortController(),
      done,
      usages: [],
      unsavedUsages: [],
      waits: new RetryWaits(),
      ...flags,
    };
    // Claimed before the first await, so two quick sends cannot both start.
    this.active.set(conversationId, turn);
    const saved: ChatMessage[] = [];
    let conversation: Conversation;
    try {
      const messages = await prepare(await this.options.store.get(conversationId));
      for (const message of messages) {
        await this.options.store.appendMessage(conversationId, message);
        saved.push(message);
      }
      conversation = onTurnModel(await this.options.store.get(conversationId), turn);
    } catch (error) {
      this.active.delete(conversationId);
      settle({ status: 'failed', message: errorMessage(error) });
      throw error;
    }
    const { definitions, toolCount, warning, warningMessage } = this.toolsFor(conversation);
    const { turnId } = turn;
    this.pump.emit({
      type: 'turn-started',
      conversationId,
      turnId,
      model: conversation.model,
      toolCount,
      ...(warning !== undefined ? { toolCountWarning: warning } : {}),
      ...(warningMessage !== undefined ? { toolCountWarningMessage: warningMessage } : {}),
    });
    if (definitions.length > 0 && this.options.takesTools?.(conversation.model) === false)
      this.goWithoutTools(turn, conversation.model);
    for (const message of saved) this.pump.emit({ type: 'message-saved', conversationId, turnId, message });
    this.run(turn).then(settle, (error: unknown) => settle({ status: 'failed', ...failureOf(error) }));
    return { turnId, done };
  }

  /** The tools a request of this conversation carries now (what tool search sends, the host tools, the estimates). */
  toolsFor(conversation: Conversation): ToolOffer {
    return this.requests.toolsFor(conversation);
  }

  private async run(turn: ActiveTurn): Promise<TurnOutcome> {
    let outcome: TurnOutcome;
    try {
      outcome = await this.loop(turn);
    } catch (error) {
      outcome = turn.controller.signal.aborted ? { status: 'stopped' } : { status: 'failed', ...failureOf(error) };
    }
    const { conversationId, turnId } = turn;
    if (outcome.status === 'failed') {
      const failedMessageId = turn.replied === true ? undefined : await this.saving.markFailed(turn, outcome);
      this.pump.emit({
        type: 'turn-failed',
        conversationId,
        turnId,
        message: outcome.message,
        ...(outcome.hostMessage !== undefined ? { hostMessage: outcome.hostMessage } : {}),
        ...(outcome.contextFull === true ? { contextFull: true } : {}),
        ...(failedMessageId !== undefined ? { failedMessageId } : {}),
      });
    } else {
      const usage = sumUsage(turn.usages);
      this.pump.emit({
        type: 'turn-finished',
        conversationId,
        turnId,
        stopReason: outcome.status === 'stopped' ? STOPPED_BY_PERSON : outcome.stopReason,
        ...(usage !== undefined ? { usage } : {}),
      });
    }
    this.active.delete(conversationId);
    return outcome;
  }

  private async loop(turn: ActiveTurn): Promise<TurnOutcome> {
    const { conversationId, turnId, controller } = turn;
    const signal = controller.signal;
    for (let iteration = 0; iteration < this.maxIterations; iteration += 1) {
      if (signal.aborted) return { status: 'stopped' };
      const stored = onTurnModel(await this.options.store.get(conversationId), turn);
      const offer = this.toolsFor(stored);
      const { definitions, toolTokens, fullToolTokens } = offer;
      const system = this.requests.system(offer, stored);
      const clock = new ThinkingClock();
      // What this request streamed, kept if the reply does not finish.
      const partial = new PartialReply();
      const stream: RequestStream = {
        signal,
        onText: (delta) => {
          clock.other();
          partial.text(delta);
          this.pump.text(conversationId, turnId, delta);
        },
        onThinking: (delta, redacted) => {
          clock.thinking();
          partial.thinking(delta, redacted);
          if (redacted === true)
            this.pump.emit({ type: 'thinking-delta', conversationId, turnId, text: '', redacted: true });
          else this.pump.thinking(conversationId, turnId, delta);
        },
        onToolUseStart: () => {
          clock.other();
          partial.toolUse();
        },
      };
      let capping = this.requests.capping(stored.model);
      // The request for the conversation as it is, or as a cut would leave it (the context keeper asks both).
      const build = (conversation: Conversation): LlmStreamRequest => {
        // Continue: the first request goes on from the unfinished reply that ends the conversation.
        const continuing = turn.continuing === true && conversation.messages.at(-1)?.partial !== undefined;
        const built = this.requests.build(conversation, offer, system, stream, continuing);
        capping = built.capping;
        return built.request;
      };
      let fitted: FitResult;
      try {
        fitted = await this.context.fit({
          conversation: stored,
          build,
          force: turn.forceCompact === true,
          signal,
          notify: (notice) => this.notice(turn, notice),
          onUsage: (usage) => {
            turn.usages.push(usage);
            turn.unsavedUsages.push(usage);
          },
        });
      } catch (error) {
        if (signal.aborted) return { status: 'stopped' };
        if (error instanceof ContextFullError) {
          const message = turn.refusal === undefined ? error.message : `${turn.refusal} ${error.message}`;
          return { status: 'failed', message, hostMessage: error.hostMessage, contextFull: true };
        }
        throw error;
      }
      turn.forceCompact = false;
      const conversation = onTurnModel(fitted.conversation, turn);
      let response;
      // The request fit measured, unless a cut changed what goes: built once per call of the model.
      const request = fitted.request ?? build(conversation);
      try {
        response = await this.ask(turn, conversation.model, request);
      } catch (error) {
        // What the model wrote before the stop or the break is kept, marked so.
        if (signal.aborted || (error instanceof LlmError && error.kind === 'aborted')) {
          await this.saving.savePartial(turn, conversation.model, partial, { cause: 'stopped' });
          return { status: 'stopped' };
        }
        if (
          error instanceof LlmError &&
          error.unsupported === 'context-management' &&
          this.requests.mayManageContext(conversationId)
        ) {
          // Once per conversation and run: from now on Berth compacts it itself. The provider's summary is kept as
          // Berth's own, sent as text: a block the API refused is not sent again, in this run or the next.
          this.requests.stopManagingContext(conversationId);
          const cut = activeCut(conversation);
          if (cut?.api !== undefined)
            await this.options.store.updateSettings(conversationId, { contextCut: ownCut(cut) });
          this.notice(turn, chatNotice('chat-notice.own-compaction', { detail: providerDetail(error) }));
          continue;
        }
        if (isPromptTooLong(error)) {
          // Berth's estimate was short: make room once and ask again, unless the person wants to be asked.
          if (turn.refusal === undefined && (conversation.contextPolicy ?? 'compact') !== 'ask') {
            turn.refusal = errorMessage(error);
            turn.forceCompact = true;
            continue;
          }
          const { text, message } = chatError('chat-error.context-refused', { detail: providerDetail(error) });
          return { status: 'failed', message: text, hostMessage: message, contextFull: true };
        }
        const failure = failureOf(error);
        await this.saving.savePartial(turn, conversation.model, partial, {
          cause: 'cut-off',
          reason: failure.message,
          ...(failure.hostMessage !== undefined ? { reasonMessage: failure.hostMessage } : {}),
        });
        throw error;
      }
      // The tools' share only when tools were sent: a model that takes none was asked without them.
      const toolsSent = definitions.length > 0 && turn.withoutTools !== true;
      const usage: ChatUsage = {
        ...response.usage,
        ...(toolsSent
          ? {
              toolTokensEstimate: toolTokens,
              ...(fullToolTokens !== undefined ? { toolTokensFullEstimate: fullToolTokens } : {}),
            }
          : {}),
        ...(capping.savedTokens > 0 ? { cappedTokensEstimate: capping.savedTokens } : {}),
      };
      turn.usages.push(usage);
      const saved: ChatUsage =
        turn.unsavedUsages.length === 0 ? usage : { ...(sumUsage([...turn.unsavedUsages, usage]) ?? usage) };
      turn.unsavedUsages = [];
      if (response.compaction !== undefined)
        await this.context.adoptApiCompaction({
          conversation,
          request,
          compaction: response.compaction,
          promptAfter: promptTokens(response.usage),
          notify: (notice) => this.notice(turn, notice),
        });
      const runTools = response.stopReason === 'tool_use';
      const content = replyContent(response.content, offer, runTools, clock.finish());
      // Saved even when empty (no text, no calls): the request's usage was spent and belongs to the
      // conversation, and the person sees that an answer came back with nothing in it. An empty
      // message is never sent to a model again (toApiMessages skips it).
      await this.saving.save(turn, {
        id: randomUUID(),
        role: 'assistant',
        createdAt: Date.now(),
        content,
        model: conversation.model,
        ...(response.stopReason !== null ? { stopReason: response.stopReason } : {}),
        usage: saved,
      });
      const uses = content.filter((block): block is ChatToolUseBlock => block.type === 'tool_use');
      if (uses.length === 0) return { status: 'finished', stopReason: response.stopReason ?? 'end_turn' };
      const capRecord = (server: string, result: ChatToolResultBlock) =>
        capRecordFor(
          result,
          server,
          this.requests.resultLimit(server, conversation.model),
          this.tokens.charsPerToken(conversation.model),
        );
      const deps = {
        pump: this.pump,
        gate: this.options.gate,
        runner: this.options.runner,
        appOf: this.options.apps?.toolApp.bind(this.options.apps),
        notOffered: (server: string, tool: string) => notOfferedReason(offer, server, tool),
        capRecord,
        host: { tools: offer.hostTools, conversation, capRecord },
      };
      // Calls whose arguments were unreadable (openai-translate-reply.ts) are answered as errors without running.
      const inputErrors = new Map(
        response.content.flatMap((block) =>
          block.type === 'tool_use' && block.inputError !== undefined ? [[block.id, block.inputError] as const] : [],
        ),
      );
      const results = await Promise.all(uses.map((use) => runToolCall(deps, turn, use, inputErrors.get(use.id))));
      await this.saving.save(turn, { id: randomUUID(), role: 'user', createdAt: Date.now(), content: results });
      if (signal.aborted) return { status: 'stopped' };
    }
    const { text, message } = chatError('chat-error.too-many-rounds', { rounds: this.maxIterations });
    return { status: 'failed', message: text, hostMessage: message };
  }

  /**
   * One model call. A model that refuses tools (Ollama: "does not support
   * tools") or images is asked once more without them, and the person is told
   * why; the rest of the turn goes without them too.
   */
  private async ask(turn: ActiveTurn, model: string, request: LlmStreamRequest): Promise<LlmResponse> {
    // At most one retry per refusal kind: each sets its flag, so the loop ends.
    for (;;) {
      const sent = this.shaped(turn, model, request);
      try {
        const response = await streamWithRetries(this.options.provider, sent, this.retries(turn));
        // A compacted reply's usage is the compacted context's, not the request's: it would mislead the correction.
        if (response.compaction === undefined)
          this.tokens.observe(model, sent, promptTokens(response.usage), turn.conversationId);
        return response;
      } catch (error) {
        if (!(error instanceof LlmError) || request.signal?.aborted === true) throw error;
        if (error.unsupported === 'tools' && sent.tools !== undefined) this.goWithoutTools(turn, model);
        else if (error.unsupported === 'images' && turn.withoutImages !== true && countImages(sent.messages) > 0)
          turn.withoutImages = true;
        else throw error;
      }
    }
  }

  /** The request as this turn may send it: without tools, and with notes for images, when the model takes none. */
  private shaped(turn: ActiveTurn, model: string, request: LlmStreamRequest): LlmStreamRequest {
    const { tools, ...rest } = request;
    const sent = turn.withoutTools === true || tools === undefined || tools.length === 0 ? rest : request;
    if (turn.withoutImages !== true && this.options.takesImages?.(model) !== false) return sent;
    const name = this.options.modelName?.(model) ?? model;
    const { messages, omitted } = withoutImages(sent.messages, name);
    if (omitted > 0 && turn.toldNoImages !== true) {
      turn.toldNoImages = true;
      this.notice(turn, noImagesNotice(name, omitted));
    }
    return { ...sent, messages };
  }

  /** How a model call of the turn waits and asks again, each wait told to the person as it starts. */
  private retries(turn: ActiveTurn): RetryOptions {
    const { conversationId, turnId } = turn;
    return {
      waits: turn.waits,
      ...(this.options.retryPolicy !== undefined ? { policy: this.options.retryPolicy } : {}),
      onWait: (wait) => this.pump.emit({ type: 'turn-waiting', conversationId, turnId, ...wait }),
      onResume: () => this.pump.emit({ type: 'turn-resumed', conversationId, turnId }),
    };
  }

  private goWithoutTools(turn: ActiveTurn, model: string): void {
    turn.withoutTools = true;
    this.notice(turn, chatNotice('chat-notice.no-tools', { model: this.options.modelName?.(model) ?? model }));
  }

  /** Tells the person something about this turn: its English, and its code for their language. */
  private notice(turn: ActiveTurn, { text, message }: Worded): void {
    const { conversationId, turnId } = turn;
    this.pump.emit({ type: 'turn-notice', conversationId, turnId, message: text, hostMessage: message });
  }

  private deliver(event: ChatEvent): void {
    try {
      this.options.onEvent(event);
    } catch (error) {
      (this.options.onListenerError ?? console.error)(error);
    }
  }
}

/** The conversation as this turn asks the model: on the turn's own model when it has one (regenerate with another). */
function onTurnModel(conversation: Conversation, turn: ActiveTurn): Conversation {
  return turn.model === undefined ? conversation : { ...conversation, model: turn.model };
}
