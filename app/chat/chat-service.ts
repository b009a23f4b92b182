import { reasoningRequest } from '../../shared/domain/reasoning';
import type { ReasoningDefaults, ReasoningLevel } from '../../shared/domain/reasoning';
import { CONVERSATION_LIMITS, STOPPED_BY_PERSON, toolKey } from '../../shared/domain/chat';
import { ANTHROPIC_PROVIDER_ID, splitModelKey } from '../../shared/domain/model-key';
import type {
  BackgroundTaskMode,
  ChatAttachment,
  ChatMessage,
  ContextPolicy,
  Conversation,
  ConversationSummary,
} from '../../shared/domain/chat';
import type { ChatToolsView, ContextFill, ResultPage } from '../../shared/contract/chat';
import { wholeResultText } from '../../shared/domain/result-text';
import type { ServerState } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { withdrawal } from '../../shared/domain/withdrawal';
import { conversationError } from '../../shared/domain/conversation-errors';
import type { EventHub } from '../events/event-hub';
import { ChatEngine } from './chat-engine';
import type {
  AvailableTool,
  ChatApps,
  ToolCallGateAnswer,
  ToolCallGateRequest,
  TurnHandle,
  TurnOutcome,
} from './chat-engine';
import { ConversationStore } from './conversation-store';
import { ConversationSearch } from './search/conversation-search';
import { toolConsentFacts } from '../consent/tool-consent-facts';
import type { ConsentBroker } from '../consent/consent-broker';
import type { RunningToolCalls } from '../pending/running-tool-calls';
import type { LogSink } from '../logs/log-sink';
import type { ServerSupervisor } from '../servers/supervisor';
import type { ProviderRegistry } from '../providers/provider-registry';
import type { SettingsStore } from '../settings/settings-store';
import { buildSystemPrompt } from './system-prompt';
import type { ServerInstructions } from './system-prompt';
import type { FileIdentity } from './conversation-index';
import { HostToolRegistry } from './host-tools/host-tool-registry';
import { ReadyToolLists } from './tool-set-cache';
import { ToolSearch } from './tool-search/tool-search-provider';
import { toolSearchView } from './tool-search/tool-search-view';
import type { ToolSearchMode, ToolSearchThresholds } from '../../shared/domain/tool-search';
import type { HostToolProvider } from './host-tools/host-tool';
import { createResultReading } from './results/read-result-tool';
import { resultLimitTokens } from './results/result-cap';
import { TokenCalibrationFile } from './context/token-calibration';
import { TokenEstimator } from '../providers/token-estimate';
import { previewChatEvent } from './results/result-preview';
import { BackgroundTasks } from './background-tasks';
import type { BackgroundTaskEnd } from './background-tasks';
import { bridgeError } from '../../shared/domain/bridge-errors';
import type { RetryPolicy } from '../providers/model-call-retries';

/** A conversation's own settings as chat.setParams sets them (null: back to the default). */
export interface ConversationParams {
  systemPrompt: string | null;
  temperature: number | null;
  maxTokens: number | null;
}

/** Options for {@linkcode ChatService.open}. */
export interface ChatServiceOptions {
  /** Conversations live in `<configDir>/conversations`. */
  configDir: string;
  /** Berth's state folder: the token estimate's corrections are kept there across runs (absent: per run only). */
  stateDir?: string;
  /** Identities of the conversation files taken at this start (the privacy walk), so they are not stat'ed twice. */
  seenConversationFiles?: ReadonlyMap<string, FileIdentity>;
  supervisor: Pick<ServerSupervisor, 'list' | 'get' | 'callTool'>;
  consent: Pick<ConsentBroker, 'approveToolCall' | 'forgetConversation'>;
  toolCalls: RunningToolCalls;
  /** MCP Apps: which tools have an app (their cards render it), which the model may not see, and the context apps add. */
  apps: ChatApps & { forgetConversation(conversationId: string): void };
  settings: Pick<
    SettingsStore,
    | 'defaultModel'
    | 'checkModel'
    | 'sendsInstructions'
    | 'contextWindow'
    | 'resultLimit'
    | 'toolSearchThresholds'
    | 'setToolSearchThresholds'
    | 'reasoningDefaults'
    | 'setReasoningDefaults'
    | 'reasoningSupport'
    | 'contextManagement'
  >;
  /** Masks the secrets Berth holds (SecretRedactor): server instructions pass through it before they reach the model. */
  redact?: (text: string) => string;
  /** Every provider's models: `router` sends each turn to its model key's provider. */
  providers: Pick<
    ProviderRegistry,
    'router' | 'assertReady' | 'takesTools' | 'takesImages' | 'modelName' | 'defersTools' | 'takesPrefill'
  >;
  events: Pick<EventHub, 'emit'>;
  logs: LogSink;
  /**
   * Host tools of features that need more than the conversation store (skills: the supervisor), added to the
   * ones ChatService registers itself. See app/chat/host-tools/host-tool.ts.
   */
  hostToolProviders?: (store: ConversationStore) => HostToolProvider[];
  /** A conversation went to the trash: what other features keep for it (skills loaded in it) goes too. */
  onConversationDeleted?: (conversationId: string) => void;
  /** A turn was stopped by the person: what its tool calls asked for (sampling, elicitation) should stop waiting too. */
  onTurnStopped?: (conversationId: string) => void;
  reportError(what: string, error: unknown): void;
  /** How long a model call waits and asks again after a rate limit or a network drop (default DEFAULT_RETRY_POLICY). */
  retryPolicy?: Partial<RetryPolicy>;
}

/**
 * Chat as the bridge serves it: the conversation store and the chat engine,
 * with the tools of the ready servers, every call through the consent broker,
 * and each turn sent to the provider of the conversation's model.
 */
export class ChatService {
  private readonly turns = new Map<string, Promise<TurnOutcome>>();
  private closing = false;
  /** Failed messages the person discarded in this run, by `conversation/message` id: Undo puts them back. */
  private readonly discarded = new Map<string, { message: ChatMessage; afterId: string | undefined }>();
  /** The whole text of the result last paged (conversation id, tool_use id): a 20 MiB text is built once per reading, not per page. */
  private paged: { id: string; toolUseId: string; text: string } | undefined;
  /** Where background tasks' results land (app/chat/background-tasks.ts). */
  private readonly background: BackgroundTasks;

  private constructor(
    private readonly options: ChatServiceOptions,
    readonly store: ConversationStore,
    readonly engine: ChatEngine,
    private readonly toolSearch: ToolSearch,
    private readonly calibration: TokenCalibrationFile | undefined,
    /** Full-text search over every conversation (app/chat/search), kept up to date as the store saves. */
    readonly search: ConversationSearch,
  ) {
    this.background = new BackgroundTasks({
      store,
      turns: {
        sendTaskResult: (id, taskId) => this.track(id, engine.sendTaskResult(id, taskId)),
        turnDone: (id) => engine.turnDone(id),
      },
      emit: (event) => options.events.emit('chat.event', previewChatEvent(event)),
      log: (level, text) => options.logs.append({ server: '', time: Date.now(), source: 'host', level, text }),
      canStart: (conversation) => {
        if (this.closing) throw HostError.coded('NOT_READY', bridgeError('bridge-errors.shutting-down', {}));
        options.providers.assertReady(conversation.model);
      },
    });
  }

  /** A chat call's task that went on in the background has ended (app/tasks): its result comes into its conversation. */
  taskEnded(end: BackgroundTaskEnd): Promise<void> {
    return this.background.deliver(end);
  }

  /** The person sends a background task's result to the model (the notice's button): a new turn, once per result. */
  sendTaskResult(id: string, taskId: string): Promise<{ accepted: true }> {
    return this.begin(id, undefined, () => this.engine.sendTaskResult(id, taskId));
  }

  /** What the conversation does when a background task finishes: tell the person, or continue with a follow-up turn. */
  setBackgroundTasks(id: string, mode: BackgroundTaskMode): Promise<Conversation> {
    return this.store.updateSettings(id, { backgroundTasks: mode });
  }

  static async open(options: ChatServiceOptions): Promise<ChatService> {
    const { supervisor, events, logs } = options;
    const store = await ConversationStore.open({
      dir: options.configDir,
      ...(options.seenConversationFiles !== undefined ? { seenFiles: options.seenConversationFiles } : {}),
      onProblem: (problem) =>
        logs.append({ server: '', time: Date.now(), source: 'host', level: 'error', text: problem.message }),
      onNotice: (message) =>
        logs.append({ server: '', time: Date.now(), source: 'host', level: 'info', text: message }),
      // Only what changed: sending every summary on each saved message froze the renderer at 5,000 conversations.
      onChange: (delta) => events.emit('chat.conversationsChanged', delta),
      onLoadedToolsChange: (change) => events.emit('chat.loadedToolsChanged', change),
    });
    // A server's own result limit, else Berth's default for the model's context (app/chat/results).
    const resultLimit = (server: string, model: string): number =>
      resultLimitTokens(options.settings.resultLimit(server), options.settings.contextWindow(model));
    // Tools Berth answers itself in a turn (app/chat/host-tools): one provider per feature.
    const toolSearch = new ToolSearch({ store, thresholds: () => options.settings.toolSearchThresholds() });
    const hostTools = new HostToolRegistry([
      toolSearch,
      createResultReading(resultLimit),
      ...(options.hostToolProviders?.(store) ?? []),
    ]);
    // The estimate's correction per model, learnt in earlier runs: the meter is right from the first turn.
    const calibration =
      options.stateDir === undefined
        ? undefined
        : await TokenCalibrationFile.open({
            stateDir: options.stateDir,
            warn: (text) => logs.append({ server: '', time: Date.now(), source: 'host', level: 'warning', text }),
          });
    const tokens = new TokenEstimator({
      factors: calibration?.factors ?? [],
      onCorrected: (factors) => void calibration?.save(factors),
    });
    const ready = new ReadyToolLists();
    const engine = new ChatEngine({
      provider: options.providers.router,
      tokens,
      takesTools: (model) => options.providers.takesTools(model),
      defersTools: (model) => options.providers.defersTools(model),
      prefills: (model) => options.providers.takesPrefill(model),
      takesImages: (model) => options.providers.takesImages(model),
      modelName: (model) => options.providers.modelName(model),
      store,
      // The same tool objects give the same entries: what the engine built for them is found again (tool-set-cache.ts).
      tools: () => ready.of(supervisor.list()),
      gate: { approve: (request) => approve(options, request) },
      apps: options.apps,
      hostTools,
      resultLimit,
      runner: {
        callTool: (server, tool, args, { onWaiting, ...callOptions } = {}) =>
          options.toolCalls.run(
            server,
            args,
            (personWaits) =>
              supervisor.callTool(server, tool, args, {
                ...callOptions,
                ...(personWaits === undefined ? {} : { personWaits }),
              }),
            {
              ...(onWaiting === undefined ? {} : { onWaiting }),
              ...(callOptions.signal === undefined ? {} : { signal: callOptions.signal }),
            },
          ),
      },
      onEvent: (event) => {
        // Windows get big results as previews (a 20 MiB event got them dropped); they read the rest in pages.
        events.emit('chat.event', previewChatEvent(event));
        if (event.type === 'turn-finished' && event.stopReason === STOPPED_BY_PERSON)
          options.onTurnStopped?.(event.conversationId);
      },
      onListenerError: (error) => options.reportError('a chat event listener threw', error),
      ...(options.retryPolicy !== undefined ? { retryPolicy: options.retryPolicy } : {}),
      system: (servers) => buildSystemPrompt(instructionsOf(options, servers)),
      contextWindow: (model) => options.settings.contextWindow(model),
      contextManagement: (model) => options.settings.contextManagement(model),
      // The conversation's own level, else the global default, as its model takes it.
      reasoning: (conversation) =>
        reasoningRequest(
          conversation.reasoning ?? options.settings.reasoningDefaults().level,
          options.settings.reasoningSupport(conversation.model),
        ),
    });
    // Not awaited: the index file loads (and any conversation it misses is indexed) while Berth starts serving.
    const search = new ConversationSearch({
      conversationsDir: store.conversationsDir,
      store,
      log: (level, text) => logs.append({ server: '', time: Date.now(), source: 'host', level, text }),
    });
    return new ChatService(options, store, engine, toolSearch, calibration, search);
  }

  list(): ConversationSummary[] {
    return this.store.list();
  }

  get(id: string): Promise<Conversation> {
    return this.store.get(id);
  }

  async create(model: string | undefined): Promise<Conversation> {
    if (model !== undefined) this.options.settings.checkModel(model);
    return this.store.create({ model: model ?? this.options.settings.defaultModel() });
  }

  async setPinned(id: string, pinned: boolean): Promise<ConversationSummary> {
    const conversation = await this.store.setPinned(id, pinned);
    return summaryOf(this.store, conversation.id);
  }

  async rename(id: string, title: string): Promise<ConversationSummary> {
    const conversation = await this.store.rename(id, title);
    return summaryOf(this.store, conversation.id);
  }

  async delete(id: string): Promise<{ deleted: string }> {
    await this.engine.stop(id);
    await this.store.delete(id);
    this.options.consent.forgetConversation(id);
    this.options.apps.forgetConversation(id);
    this.options.onConversationDeleted?.(id);
    return { deleted: id };
  }

  async restore(id: string): Promise<ConversationSummary> {
    return this.store.restore(id);
  }

  send(
    id: string,
    text: string,
    model: string | undefined,
    attachments: ChatAttachment[] = [],
  ): Promise<{ accepted: true }> {
    if (model !== undefined) this.options.settings.checkModel(model);
    return this.begin(id, model, () =>
      this.engine.send(id, text, { ...(model === undefined ? {} : { model }), attachments }),
    );
  }

  /** The person picked another model: saved with the conversation, so whatever runs next (Retry too) uses it. */
  async setModel(id: string, model: string): Promise<Conversation> {
    this.options.settings.checkModel(model);
    return this.store.updateSettings(id, { model });
  }

  retry(id: string, messageId?: string): Promise<{ accepted: true }> {
    return this.begin(id, undefined, () => this.engine.retry(id, messageId));
  }

  /** Take out a message of the person's that got no reply; `restoreFailed` puts it back while Berth runs (Undo). */
  async discardFailed(id: string, messageId: string): Promise<Conversation> {
    const { messages } = await this.store.get(id);
    const index = messages.findIndex((message) => message.id === messageId);
    const message = messages[index];
    if (message === undefined || message.failed === undefined)
      throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.not-failed', {}));
    const saved = await this.store.replaceMessages(
      id,
      messages.filter((kept) => kept.id !== messageId),
    );
    this.discarded.set(`${id}/${messageId}`, { message, afterId: messages[index - 1]?.id });
    return saved;
  }

  /** Undo of `discardFailed`: the message goes back after the one it followed (at the end when that one is gone). */
  async restoreFailed(id: string, messageId: string): Promise<Conversation> {
    const key = `${id}/${messageId}`;
    const entry = this.discarded.get(key);
    if (entry === undefined)
      throw HostError.coded('NOT_FOUND', conversationError('conversation-errors.nothing-to-restore', {}));
    const { messages } = await this.store.get(id);
    const after = entry.afterId === undefined ? 0 : messages.findIndex((kept) => kept.id === entry.afterId) + 1;
    const at = entry.afterId !== undefined && after === 0 ? messages.length : after;
    const saved = await this.store.replaceMessages(id, [
      ...messages.slice(0, at),
      entry.message,
      ...messages.slice(at),
    ]);
    this.discarded.delete(key);
    return saved;
  }

  continueReply(id: string): Promise<{ accepted: true }> {
    return this.begin(id, undefined, () => this.engine.continueReply(id));
  }

  compactAndRetry(id: string): Promise<{ accepted: true }> {
    return this.begin(id, undefined, () => this.engine.compactAndRetry(id));
  }

  contextFill(id: string): Promise<ContextFill> {
    return this.engine.contextFill(id);
  }

  setContextPolicy(id: string, policy: ContextPolicy): Promise<Conversation> {
    return this.store.updateSettings(id, { contextPolicy: policy });
  }

  editAndResend(id: string, text: string, messageId?: string): Promise<{ accepted: true }> {
    return this.begin(id, undefined, () => this.engine.editAndResend(id, text, messageId));
  }

  /** Edit an earlier message of the person's: the conversation branches there, the old branch kept (chat.editAt). */
  editAt(id: string, messageId: string, text: string): Promise<{ accepted: true }> {
    return this.begin(id, undefined, () => this.engine.editAt(id, messageId, text));
  }

  /** A new version of a reply, with `model` for this answer only (the conversation keeps its model) (chat.regenerate). */
  regenerate(id: string, messageId: string, model?: string): Promise<{ accepted: true }> {
    if (model !== undefined) this.options.settings.checkModel(model);
    return this.begin(id, model, () => this.engine.regenerate(id, messageId, model));
  }

  /** Another version of a position made live (chat.switchVersion). */
  switchVersion(id: string, after: string, version: number): Promise<Conversation> {
    return this.engine.switchVersion(id, after, version);
  }

  /** A page of a saved tool result's whole text (chat.readResult). */
  async readResult(id: string, toolUseId: string, offset: number, limit: number): Promise<ResultPage> {
    let text = this.paged?.id === id && this.paged.toolUseId === toolUseId ? this.paged.text : undefined;
    if (text === undefined) {
      const result = await this.store.toolResult(id, toolUseId);
      if (result === undefined)
        throw HostError.coded('NOT_FOUND', conversationError('conversation-errors.result-not-saved', {}));
      if (result.whole?.missing === true)
        throw HostError.coded('NOT_FOUND', conversationError('conversation-errors.result-gone', {}));
      text = wholeResultText(result);
      this.paged = { id, toolUseId, text };
    }
    if (offset > text.length)
      throw HostError.coded(
        'INVALID_INPUT',
        conversationError('conversation-errors.offset-past-end', { offset, length: text.length }),
        'offset',
      );
    const end = Math.min(text.length, offset + limit);
    return {
      text: text.slice(offset, end),
      offset,
      totalChars: text.length,
      nextOffset: end < text.length ? end : null,
    };
  }

  /** How many replies are being written now (for what the tray says runs). */
  runningTurns(): number {
    return this.engine.runningCount();
  }

  /** Settles when the conversation's running turn ends (never rejects); undefined when none runs. */
  turnDone(id: string): Promise<unknown> | undefined {
    return this.engine.turnDone(id);
  }

  async stop(id: string): Promise<{ stopped: boolean }> {
    await this.store.get(id);
    const running = this.engine.isRunning(id);
    await this.engine.stop(id);
    return { stopped: running };
  }

  /** Retry now: the reply waiting to ask the model again (rate limit, network) asks at once. */
  retryNow(id: string): boolean {
    return this.engine.retryNow(id);
  }

  async tools(id: string): Promise<ChatToolsView> {
    const conversation = await this.store.get(id);
    const offered = await this.engine.offeredTools(id);
    const disabledServers = new Set(conversation.disabledServers);
    const disabledTools = new Set(conversation.disabledTools);
    const tools = readyTools(this.options.supervisor.list()).map(({ server, tool }) => ({
      server,
      tool: tool.name,
      ...(tool.title !== undefined ? { title: tool.title } : {}),
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      enabled: !disabledServers.has(server) && !disabledTools.has(toolKey(server, tool.name)),
    }));
    const toolSearch = toolSearchView(
      this.toolSearch,
      conversation,
      this.engine.toolsFor(conversation),
      this.options.settings.contextWindow(conversation.model),
      this.options.settings.toolSearchThresholds(),
      this.engine.tokens.factor(conversation.model),
    );
    return {
      tools,
      offeredCount: offered.tools.length,
      ...(offered.toolCountWarning !== undefined ? { warning: offered.toolCountWarning } : {}),
      ...(offered.toolCountWarningMessage !== undefined ? { warningMessage: offered.toolCountWarningMessage } : {}),
      toolSearch,
    };
  }

  async setToolSearch(id: string, mode: ToolSearchMode): Promise<Conversation> {
    return this.store.updateSettings(id, { toolSearch: mode });
  }

  /** The person removes tools the model loaded: they stay searchable, and the model can load them again. */
  async unloadTools(id: string, tools: readonly string[]): Promise<Conversation> {
    const gone = new Set(tools);
    return this.store.changeLoadedTools(id, (loaded) => loaded.filter((key) => !gone.has(key)));
  }

  setToolSearchThresholds(thresholds: ToolSearchThresholds): Promise<ToolSearchThresholds> {
    return this.options.settings.setToolSearchThresholds(thresholds);
  }

  async setReasoning(id: string, level: ReasoningLevel): Promise<Conversation> {
    return this.store.updateSettings(id, { reasoning: level });
  }

  reasoningDefaults(): ReasoningDefaults {
    return this.options.settings.reasoningDefaults();
  }

  setReasoningDefaults(patch: Partial<ReasoningDefaults>): Promise<ReasoningDefaults> {
    return this.options.settings.setReasoningDefaults(patch);
  }

  /**
   * The conversation's own system prompt, temperature and longest reply (null: back to the default). Refused with
   * the fix when the conversation's model cannot take them: Anthropic's temperature stops at 1, and a reply cannot be
   * longer than the model's whole window where it is known.
   */
  async setParams(id: string, params: ConversationParams): Promise<Conversation> {
    const { model } = await this.store.get(id);
    const max = CONVERSATION_LIMITS.anthropicTemperatureMax;
    if (
      params.temperature !== null &&
      params.temperature > max &&
      splitModelKey(model).provider === ANTHROPIC_PROVIDER_ID
    )
      throw HostError.coded(
        'INVALID_INPUT',
        conversationError('conversation-errors.temperature-above-provider', { model, max }),
        'temperature',
      );
    const window = this.options.settings.contextWindow(model);
    if (params.maxTokens !== null && window !== undefined && params.maxTokens > window)
      throw HostError.coded(
        'INVALID_INPUT',
        conversationError('conversation-errors.max-tokens-above-window', { model, window }),
        'maxTokens',
      );
    return this.store.updateSettings(id, params);
  }

  async setTools(id: string, disabledServers: string[], disabledTools: string[]): Promise<Conversation> {
    return this.store.updateSettings(id, { disabledServers, disabledTools });
  }

  /** Stop every running turn; what completed is saved. */
  async close(): Promise<void> {
    this.closing = true;
    this.background.close();
    await Promise.all([...this.turns.keys()].map((id) => this.engine.stop(id)));
    await Promise.all([this.store.flushIndex(), this.calibration?.flush(), this.search.close()]);
  }

  /** `model`: the model the message asks for; otherwise the conversation's own. */
  private async begin(
    conversationId: string,
    model: string | undefined,
    start: () => Promise<TurnHandle>,
  ): Promise<{ accepted: true }> {
    if (this.closing) throw HostError.coded('NOT_READY', bridgeError('bridge-errors.shutting-down', {}));
    // Before anything is saved: a message whose provider lacks its key is not written.
    this.options.providers.assertReady(model ?? (await this.store.get(conversationId)).model);
    await this.track(conversationId, start());
    return { accepted: true };
  }

  /** A turn that started: `close` stops it with the others. */
  private async track(conversationId: string, started: Promise<TurnHandle>): Promise<TurnHandle> {
    const handle = await started;
    this.turns.set(conversationId, handle.done);
    void handle.done.finally(() => {
      if (this.turns.get(conversationId) === handle.done) this.turns.delete(conversationId);
    });
    return handle;
  }
}

/** Tools of every ready server the model may be offered, in server order (an MCP App's app-only tools never are). */
export function readyTools(states: readonly ServerState[]): AvailableTool[] {
  return new ReadyToolLists().of(states);
}

/**
 * The instructions of those servers (the ones a model request offers tools of) that gave some and
 * whose switch is on. Masked like everything else Berth shows: a server that echoes a secret Berth
 * gave it (an API key in its env) does not hand it to the model provider either.
 */
function instructionsOf(options: ChatServiceOptions, servers: readonly string[]): ServerInstructions[] {
  return servers.flatMap((server) => {
    const state = options.supervisor.get(server);
    const instructions = state?.status === 'ready' ? state.instructions : undefined;
    if (instructions === undefined || instructions.trim() === '' || !options.settings.sendsInstructions(server))
      return [];
    return [{ server, instructions: options.redact === undefined ? instructions : options.redact(instructions) }];
  });
}

function summaryOf(store: ConversationStore, id: string): ConversationSummary {
  const summary = store.summary(id);
  if (summary === undefined)
    throw HostError.coded('NOT_FOUND', conversationError('conversation-errors.not-found', { id }));
  return summary;
}

/** The consent gate: the broker decides, and approved arguments are tagged with their tool call. */
async function approve(options: ChatServiceOptions, request: ToolCallGateRequest): Promise<ToolCallGateAnswer> {
  const { conversationId, server, tool, input, toolUseId, signal } = request;
  const state = options.supervisor.get(server);
  if (state === undefined) {
    const { text, message } = withdrawal('withdrawal.server-not-configured', { server });
    return { allow: false, reason: text, reasonMessage: message, byHost: true };
  }
  const verdict = await options.consent.approveToolCall({
    conversationId,
    server,
    tool,
    input,
    toolUseId,
    signal,
    ...toolConsentFacts(state, tool),
  });
  if (!verdict.allowed) {
    return {
      allow: false,
      ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
      ...(verdict.reasonMessage !== undefined ? { reasonMessage: verdict.reasonMessage } : {}),
      ...(verdict.decidedBy === 'host' ? { byHost: true as const } : {}),
    };
  }
  // A fresh object per call: its identity is the tag that ties the run to this tool_use.
  const args = { ...verdict.arguments };
  options.toolCalls.tag(args, { conversationId, toolUseId });
  return { allow: true, input: args };
}
