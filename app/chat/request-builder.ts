import type { Conversation } from '../../shared/domain/chat';
import { HOST_TOOL_SERVER } from '../../shared/domain/host-tools';
import type { LlmStreamRequest } from '../providers/llm-provider';
import type { TokenEstimator } from '../providers/token-estimate';
import { toApiMessages, withTurnContext } from './api-messages';
import { continuation } from './continuation';
import type { AvailableTool, ToolResultShaper } from './api-messages';
import { apiContextManagement } from './context/api-compaction';
import { activeCut, messagesAfterCut, withCutPreface } from './context/context-cut';
import type { HostToolRegistry } from './host-tools/host-tool-registry';
import { RequestCapping } from './results/request-capping';
import { resultLimitTokens } from './results/result-cap';
import { offerTools } from './tool-offer';
import type { ToolOffer } from './tool-offer';
import { ToolReferences } from './tool-search/tool-references';
import { ToolSetCache } from './tool-set-cache';

/** What the request builder reads of the chat engine's options (see ChatEngineOptions for each). */
export interface RequestBuilderOptions {
  tools: () => AvailableTool[];
  hostTools?: HostToolRegistry;
  defersTools?: (model: string) => boolean;
  system?: (servers: readonly string[]) => string | undefined;
  reasoning?: (conversation: Conversation) => LlmStreamRequest['reasoning'];
  contextManagement?: (model: string) => boolean;
  contextWindow?: (model: string) => number | undefined;
  resultLimit?: (server: string, model: string) => number;
  /**
   * Whether `model` goes on from an assistant message that ends the request (a prefill: older Claude models);
   * default: no model does, and Continue asks with a short user turn instead.
   */
  prefills?: (model: string) => boolean;
  /** Labelled text an open app adds to the last user message of this request only (MCP Apps); undefined: none. */
  turnContext?: (conversationId: string) => string | undefined;
  tokens: TokenEstimator;
  maxTokens: number;
  /** The tool-count and tool-share warning thresholds. */
  limits: { countAt: number; shareAt: number };
}

/** How one request streams to the turn: its abort signal and the provider's callbacks. */
export type RequestStream = Pick<LlmStreamRequest, 'signal' | 'onText' | 'onThinking' | 'onToolUseStart'>;

/** One provider request, and the capping that cut its results (its savings go into the reply's usage). */
export interface BuiltRequest {
  request: LlmStreamRequest;
  capping: RequestCapping;
}

/**
 * Builds the provider request of a conversation: system prompt, the history as the API wants it (after the
 * context's cut, big results capped, tool search's references), the tools offered, reasoning, the provider's own
 * context management, and the cache's tail mark for an app's turn context. The chat engine's turn loop asks it
 * for each model call; the header's fill meter measures the same request without streaming it.
 */
export class RequestBuilder {
  /** Conversations whose provider refused to manage their context itself (this run): Berth compacts them. */
  private readonly apiContextOff = new Set<string>();
  /** The tool lists' names, definitions and estimate, built once while the servers' lists stay the same. */
  private readonly toolSets = new ToolSetCache();

  constructor(private readonly options: RequestBuilderOptions) {}

  /** The tools a request of this conversation carries now (what tool search sends, the host tools, the estimates). */
  toolsFor(conversation: Conversation): ToolOffer {
    const { options } = this;
    return offerTools({
      conversation,
      available: options.tools(),
      hostTools: options.hostTools,
      contextWindow: options.contextWindow?.(conversation.model),
      limits: options.limits,
      tokenFactor: options.tokens.factor(conversation.model),
      defersTools: options.defersTools?.(conversation.model) === true,
      toolSets: this.toolSets,
    });
  }

  /**
   * The system prompt for a request of `conversation` offering `offer`'s tools: the person's own prompt for the
   * conversation, then the instructions of every server with an enabled tool (in order), not only of the tools sent:
   * with tool search on, the model reaches the others through search_tools, and the prompt stays the same when it
   * loads one. undefined: none.
   */
  system(offer: ToolOffer, conversation: Pick<Conversation, 'systemPrompt'>): string | undefined {
    const servers = this.options.system?.([...new Set(offer.enabled.map(({ server }) => server))]);
    const parts = [conversation.systemPrompt, servers].filter((part) => part !== undefined && part.trim() !== '');
    return parts.length === 0 ? undefined : parts.join('\n\n');
  }

  /**
   * The request for `conversation` as it is (or as a cut would leave it: the context keeper builds both), with
   * `offer`'s tools and `system`, streaming through `stream`. `continuing`: the conversation ends with an unfinished
   * reply the model is to go on from (continuation.ts).
   */
  build(
    conversation: Conversation,
    offer: ToolOffer,
    system: string | undefined,
    stream: RequestStream,
    continuing = false,
  ): BuiltRequest {
    const capping = this.capping(conversation.model);
    const reasoning = this.options.reasoning?.(conversation);
    const managed = this.apiContext(conversation);
    // The provider's own summary goes back as its block; any other cut as Berth's preface.
    const preface = managed?.compaction !== undefined ? undefined : activeCut(conversation);
    const sent = withCutPreface(toApiMessages(messagesAfterCut(conversation), this.shaper(offer, capping)), preface);
    // A prefill cannot think first: with reasoning asked for, the model is asked to continue in a user turn.
    const prefill = reasoning === undefined && this.options.prefills?.(conversation.model) === true;
    const history = continuing ? continuation(sent, prefill) : sent;
    const messages = withTurnContext(history, this.options.turnContext?.(conversation.id));
    const request: LlmStreamRequest = {
      model: conversation.model,
      ...(system !== undefined ? { system } : {}),
      messages,
      // An app's context goes with this request only: the cache keeps the conversation before it.
      ...(messages !== history ? { uncachedTailBlocks: 1 } : {}),
      tools: offer.definitions,
      maxTokens: conversation.maxTokens ?? this.options.maxTokens,
      ...(conversation.temperature !== undefined ? { temperature: conversation.temperature } : {}),
      ...(reasoning !== undefined ? { reasoning } : {}),
      ...(managed !== undefined ? { contextManagement: managed } : {}),
      ...stream,
    };
    return { request, capping };
  }

  /** What the fill meter measures: the system prompt, tools and history of the next request (no app context). */
  measured(conversation: Conversation, offer: ToolOffer): Pick<LlmStreamRequest, 'system' | 'tools' | 'messages'> {
    const system = this.system(offer, conversation);
    return {
      ...(system !== undefined ? { system } : {}),
      tools: offer.definitions,
      messages: withCutPreface(
        toApiMessages(messagesAfterCut(conversation), this.shaper(offer, this.capping(conversation.model))),
        activeCut(conversation),
      ),
    };
  }

  /** The provider's own context management for the next request of `conversation` (context/api-compaction.ts). */
  apiContext(conversation: Conversation): LlmStreamRequest['contextManagement'] {
    if (this.apiContextOff.has(conversation.id)) return undefined;
    return apiContextManagement({
      conversation,
      takes: this.options.contextManagement?.(conversation.model) === true,
      window: this.options.contextWindow?.(conversation.model),
      maxTokens: conversation.maxTokens ?? this.options.maxTokens,
    });
  }

  /** False once the provider refused to manage this conversation's context (this run). */
  mayManageContext(conversationId: string): boolean {
    return !this.apiContextOff.has(conversationId);
  }

  /** The provider refused to manage this conversation's context: Berth compacts it from now on (this run). */
  stopManagingContext(conversationId: string): void {
    this.apiContextOff.add(conversationId);
  }

  /** The limit of a new result of `server` on `model` (see ChatEngineOptions.resultLimit). */
  resultLimit(server: string, model: string): number {
    return (
      this.options.resultLimit?.(server, model) ?? resultLimitTokens(undefined, this.options.contextWindow?.(model))
    );
  }

  /** How a request to `model` cuts big tool results (app/chat/results). */
  capping(model: string): RequestCapping {
    // Big results go in cut (app/chat/results); Berth's own tools bound their answers themselves.
    return new RequestCapping(
      (server) => this.resultLimit(server, model),
      (server) => server === HOST_TOOL_SERVER,
      this.options.tokens.charsPerToken(model),
    );
  }

  /** How a request's tool results are shaped: cut by `capping`, and with the tool_references of loads (tool search). */
  private shaper(offer: ToolOffer, capping: RequestCapping): ToolResultShaper {
    return offer.references === undefined ? capping : new ToolReferences(capping, offer.references);
  }
}
