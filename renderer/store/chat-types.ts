import type { ReasoningDefaults, ReasoningLevel } from '../../shared/domain/reasoning';
import type {
  ChatToolsView,
  ContextFill,
  ConversationsDelta,
  LoadedToolsChange,
  SearchResult,
} from '../../shared/contract/chat';
import type {
  ChatAttachment,
  ChatEvent,
  ChatToolResultBlock,
  BackgroundTaskMode,
  ContextPolicy,
  Conversation,
  ConversationSummary,
  ToolAppRef,
} from '../../shared/domain/chat';
import type { TaskStatus } from '../../shared/domain/task';
import type { HostMessage } from '../../shared/domain/host-message';
import type { Result } from '../../shared/result';

/** What one tool call is doing right now, from `chat.event`s (the saved messages hold the final result). */
export interface LiveToolCall {
  toolUseId: string;
  server: string;
  tool: string;
  input: Record<string, unknown>;
  status: 'awaiting-consent' | 'running' | 'finished';
  progress?: { progress: number; total?: number; message?: string };
  isError?: boolean;
  denied?: boolean;
  /** The result, from `tool-call-finished`, until the saved message holds it (parallel calls are saved together). */
  result?: ChatToolResultBlock;
  /** The call runs as an MCP task (`tool-task`): Berth's task id, status and the server's message. */
  task?: { id: string; status: TaskStatus; statusMessage?: string };
  /** A question of this call waits for the person: the pending request to open. */
  waitingFor?: string;
  /** The tool names an MCP Apps UI (`tool-call-started`): the card renders it before the result. */
  app?: ToolAppRef;
}

/** The turn a conversation is running (or last ran) as the renderer follows it. */
/** Reasoning as it streams: its text, whether the provider hid a block, and whether the answer has begun. */
export interface LiveThinking {
  text: string;
  redacted?: boolean;
  /** The answer (or a tool call) started: the thinking is over and its block folds. */
  done: boolean;
}

/** A `turn-notice`: the host's English, and its code for the person's language. */
export interface LiveNotice {
  message: string;
  hostMessage?: HostMessage;
}

export interface LiveTurn {
  turnId: string;
  running: boolean;
  model?: string;
  toolCount?: number;
  toolCountWarning?: string;
  /** The warning as a code, worded in the person's language (`turn-started.toolCountWarningMessage`). */
  toolCountWarningMessage?: HostMessage;
  /** What the person should know about this turn (`turn-notice`: the model cannot use tools, or take images), in order, each once; stays after the turn ends. */
  notices?: LiveNotice[];
  /** Text streamed since the last saved assistant message: the reply being written. */
  draft: string;
  /** The model's reasoning streamed since the last saved assistant message (`thinking-delta`); absent: none. */
  thinking?: LiveThinking;
  toolCalls: Record<string, LiveToolCall>;
  /** Set when the turn failed (`turn-failed`): the host's English. */
  error?: string;
  /** The failure as a code, worded in the person's language (`turn-failed.hostMessage`). */
  errorMessage?: HostMessage;
  /** The turn failed because the conversation did not fit the model's window: the chat offers Compact and retry. */
  contextFull?: boolean;
  /** The stop reason once finished (`stopped` when the person pressed stop). */
  stopReason?: string;
  /** The turn waits to ask the model again (`turn-waiting`: rate limit, overload, network) until `turn-resumed`. */
  waiting?: LiveWait;
}

/** A `turn-waiting` as the chat shows it: why, until when, which attempt. */
export type LiveWait = Omit<Extract<ChatEvent, { type: 'turn-waiting' }>, 'type' | 'conversationId' | 'turnId'>;

export interface ChatSlice {
  /** Host-owned list, newest first. */
  conversations: ConversationSummary[];
  conversationsLoaded: boolean;
  /** Conversations opened in this window, with every message (kept current by `message-saved`). */
  conversationDetails: Record<string, Conversation>;
  activeConversationId: string | undefined;
  liveTurns: Record<string, LiveTurn>;
  conversationTools: Record<string, ChatToolsView>;
  /** How full each open conversation's context window is (`chat.context`), for the header's meter and the chat's compaction block. */
  contextFills: Record<string, ContextFill>;
  /** The whole list (chat.list on connect). */
  applyConversationsChanged(list: ConversationSummary[]): void;
  /** One `chat.conversationsChanged` event: only what changed. */
  applyConversationsDelta(delta: ConversationsDelta): void;
  applyChatEvent(event: ChatEvent): void;
  /** One `chat.loadedToolsChanged` event: the conversation's loaded tools as they are now. */
  applyLoadedToolsChanged(change: LoadedToolsChange): void;
  applyConversation(conversation: Conversation): void;
  loadConversations(): Promise<void>;
  openConversation(id: string): Promise<void>;
  /** A search hit's message the chat should scroll to and highlight briefly; the message list clears it once done. */
  messageFocus: { conversationId: string; messageId: string } | undefined;
  /** Opens the conversation scrolled to the message (a search hit). */
  openConversationAt(id: string, messageId: string): Promise<void>;
  clearMessageFocus(): void;
  createConversation(model?: string): Promise<Result<Conversation>>;
  renameConversation(id: string, title: string): Promise<Result<ConversationSummary>>;
  /** Pin a conversation to the top of the list, or unpin it (a toast says when the host refuses). */
  setConversationPinned(id: string, pinned: boolean): Promise<Result<ConversationSummary>>;
  /** Full-text search over every conversation's messages (the host's index); the list shows the hits. */
  searchConversations(query: string, limit?: number): Promise<Result<SearchResult>>;
  /** Moves it to the trash and offers Undo in a toast. */
  deleteConversation(id: string): Promise<void>;
  restoreConversation(id: string): Promise<void>;
  sendMessage(
    id: string,
    text: string,
    model?: string,
    attachments?: ChatAttachment[],
  ): Promise<Result<{ accepted: true }>>;
  stopTurn(id: string): Promise<void>;
  /** Ask the model now instead of waiting out a rate limit or a network drop (a toast says when the host refuses). */
  retryNow(id: string): Promise<void>;
  retryTurn(id: string): Promise<void>;
  /** Go on from the unfinished reply that ends the conversation (stopped or cut off). */
  continueTurn(id: string): Promise<void>;
  /** Make room (compact, or drop when set to) and answer the last message again. */
  compactAndRetry(id: string): Promise<void>;
  loadContextFill(id: string): Promise<void>;
  setContextPolicy(id: string, policy: ContextPolicy): Promise<void>;
  /** Send a background task's result (its notice) to the model as a new turn. */
  sendTaskResult(id: string, taskId: string): Promise<void>;
  /** When a background task of the conversation finishes: tell the person, or continue with a follow-up turn. */
  setBackgroundTasks(id: string, mode: BackgroundTaskMode): Promise<void>;
  /** `messageId`: a failed message of the person's, replaced by `text` sent as the newest. */
  editAndResend(id: string, text: string, messageId?: string): Promise<Result<{ accepted: true }>>;
  /** Edit an earlier message of the person's: the conversation branches there (chat.editAt). */
  editAt(id: string, messageId: string, text: string): Promise<Result<{ accepted: true }>>;
  /** A new version of the reply `messageId`, by `model` for this reply only when given (chat.regenerate). */
  regenerate(id: string, messageId: string, model?: string): Promise<void>;
  /** Show version `version` (0-based) of the position after message `after` (chat.switchVersion). */
  switchVersion(id: string, after: string, version: number): Promise<void>;
  /** Send a failed message of the person's again (it becomes the newest). */
  retryFailed(id: string, messageId: string): Promise<void>;
  /** Take out a failed message; the toast's Undo puts it back. */
  discardFailed(id: string, messageId: string): Promise<void>;
  loadConversationTools(id: string): Promise<void>;
  setConversationTools(id: string, disabledServers: string[], disabledTools: string[]): Promise<void>;
  /** Tool search for one conversation (`auto`, `on`, `off`), removing tools the model loaded, and the global thresholds. */
  setToolSearch(id: string, mode: 'auto' | 'on' | 'off'): Promise<void>;
  /** The global reasoning defaults (`chat.reasoningDefaults`), once loaded. */
  reasoningDefaults?: ReasoningDefaults;
  loadReasoningDefaults(): Promise<void>;
  /** The conversation's model, saved at once: the picker shows it, and Retry and Continue use it. */
  setConversationModel(id: string, model: string): Promise<void>;
  /** The model's reasoning in one conversation. */
  setReasoning(id: string, level: ReasoningLevel): Promise<void>;
  setReasoningDefaults(patch: Partial<ReasoningDefaults>): Promise<void>;
  /** The conversation's own system prompt, temperature and longest reply (null: the default); the answer says what was refused. */
  setConversationParams(
    id: string,
    params: { systemPrompt: string | null; temperature: number | null; maxTokens: number | null },
  ): Promise<Result<Conversation>>;
  unloadTools(id: string, tools: string[]): Promise<void>;
  setToolSearchThresholds(id: string, countAbove: number, shareAbove: number): Promise<boolean>;
}

/** A message being written: its text and what is attached to it. */
export interface ComposerDraft {
  text: string;
  attachments: ChatAttachment[];
}

export interface ComposerSlice {
  /** Unsent messages by conversation id; read with `composerDraft()`. */
  composerDrafts: Record<string, ComposerDraft>;
  setComposerText(conversationId: string, text: string): void;
  /** Adds text after the draft (blank line between), e.g. a prompt's messages. */
  insertIntoComposer(conversationId: string, text: string): void;
  attachToComposer(conversationId: string, attachments: ChatAttachment[]): void;
  removeComposerAttachment(conversationId: string, index: number): void;
  /** After a message was sent. */
  clearComposer(conversationId: string): void;
}
