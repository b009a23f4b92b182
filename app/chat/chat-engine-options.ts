import type { ChatEvent, Conversation, ToolAppRef } from '../../shared/domain/chat';
import type { LlmStreamRequest } from '../providers/llm-provider';
import type { AvailableTool } from './api-messages';
import type { ConversationStore } from './conversation-store';
import type { HostToolRegistry } from './host-tools/host-tool-registry';
import type { LlmProvider } from '../providers/llm-provider';
import type { ToolCallGate, ToolRunner } from './tool-call-run';
import type { NamedToolRef } from './tool-names';
import type { TokenEstimator } from '../providers/token-estimate';

// The chat engine's options and answers (chat-engine.ts), apart so the engine's file holds the turn loop.

export interface ChatEngineOptions {
  provider: LlmProvider;
  /** False for a model marked as taking no tools (default: every model does): its turns get none and say so. */
  takesTools?: (model: string) => boolean;
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

export type TurnOutcome =
  | { status: 'finished'; stopReason: string }
  | { status: 'stopped' }
  | { status: 'failed'; message: string; contextFull?: true };

export interface TurnHandle {
  turnId: string;
  /** Settles when the turn ends; never rejects (failures are an outcome and a `turn-failed` event). */
  done: Promise<TurnOutcome>;
}

/** Tools offered in one conversation, with the names the model sees. */
export interface OfferedTools {
  tools: NamedToolRef[];
  toolCountWarning?: string;
}

/** Every tool of the ready servers for one conversation, switched on or off (the shape of the `chat.tools` answer). */
export interface ConversationToolsView {
  tools: Array<{ server: string; tool: string; title?: string; description?: string; enabled: boolean }>;
  offeredCount: number;
  warning?: string;
}
