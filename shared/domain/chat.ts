import { z } from 'zod';
import { TaskStatusSchema } from './task';
import { HostMessageSchema } from './host-message';
import { TOOL_SEARCH_MODES } from './tool-search';
import { REASONING_LEVELS } from './reasoning';

// Conversations as Berth stores and shows them. Tool calls keep the real
// server and tool next to the name the model saw, so the UI never has to
// decode API tool names. MCP content blocks are loose objects: `annotations`
// and `_meta` from the server survive storage untouched.

/** Conversation ids are file names on disk: a UUID or similar, never a path. */
export const CONVERSATION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const ConversationIdSchema = z
  .string()
  .regex(CONVERSATION_ID_PATTERN, 'A conversation id uses letters, digits, dash and underscore (at most 64)');

/** The title a conversation gets until its first message (or the person) names it. */
export const DEFAULT_CONVERSATION_TITLE = 'New conversation';

export const McpTextContentSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
export const McpImageContentSchema = z.looseObject({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
});
export const McpAudioContentSchema = z.looseObject({
  type: z.literal('audio'),
  data: z.string(),
  mimeType: z.string(),
});
export const McpResourceContentsSchema = z.union([
  z.looseObject({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
  z.looseObject({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
]);
export const McpEmbeddedResourceSchema = z.looseObject({
  type: z.literal('resource'),
  resource: McpResourceContentsSchema,
});
export const McpResourceLinkSchema = z.looseObject({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
});

/** One block of an MCP tool result (text, image, audio, embedded resource, resource link). */
export const McpContentBlockSchema = z.discriminatedUnion('type', [
  McpTextContentSchema,
  McpImageContentSchema,
  McpAudioContentSchema,
  McpEmbeddedResourceSchema,
  McpResourceLinkSchema,
]);
export type McpContentBlock = z.infer<typeof McpContentBlockSchema>;

export const ChatTextBlockSchema = z.object({ type: z.literal('text'), text: z.string() });
export type ChatTextBlock = z.infer<typeof ChatTextBlockSchema>;

/**
 * The model asked to call a tool. `apiName` is the name the model used;
 * `server`/`tool` are the real ones. When the model named a tool that was not
 * offered, `server` is '' and `tool` repeats `apiName`. A tool Berth answers
 * itself (a host tool) has `server` HOST_TOOL_SERVER ('@berth', see ./host-tools).
 */
export const ChatToolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  server: z.string(),
  tool: z.string(),
  apiName: z.string(),
  input: z.record(z.string(), z.unknown()),
});
export type ChatToolUseBlock = z.infer<typeof ChatToolUseBlockSchema>;

/** A tool call whose tool names an MCP Apps UI resource: the card renders that app (saved with the result, so a reload re-renders it). */
export const ToolAppRefSchema = z.object({ resourceUri: z.string().min(1).max(2000) });
export type ToolAppRef = z.infer<typeof ToolAppRefSchema>;

/** What came back for one tool call (or why nothing did). */
export const ChatToolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  toolUseId: z.string().min(1),
  content: z.array(McpContentBlockSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean(),
  /**
   * Present when the call did not run for want of a yes: the person said no (with their reason), or Berth withdrew
   * the question before they answered (`byHost`: Berth quit, its window closed, the server went away; `reason` says which).
   * The model is told which it was.
   */
  denied: z
    .object({
      reason: z.string().optional(),
      /** Berth's reason as a code (withdrawal.*), for the person's language; `reason` is its English, what the model is told. */
      reasonMessage: HostMessageSchema.optional(),
      byHost: z.literal(true).optional(),
    })
    .optional(),
  /** The arguments actually sent, when the person edited them before approving. */
  sentInput: z.record(z.string(), z.unknown()).optional(),
  /** The person stopped the call (Stop) before it had a result: the card says so, also after a reload. */
  stopped: z.literal(true).optional(),
  /** The call ran as an MCP task that was cancelled (by the person in the Tasks view or on the card, or by its server): the card says so, also after a reload. */
  taskCancelled: z.literal(true).optional(),
  /** The tool names an MCP Apps UI resource: the card renders that app with this input and result. */
  app: ToolAppRefSchema.optional(),
  /**
   * The result was above its server's limit when it arrived: the model gets its head and tail with a note (app/chat/results),
   * cut to `limitTokens` in every request; the card says how much the model saw. The content above stays whole.
   */
  capped: z
    .object({
      limitTokens: z.number().int().min(1),
      shownChars: z.number().int().min(0),
      totalChars: z.number().int().min(0),
      /** Characters a token it was cut with, when the model's token estimate had been corrected by its usage. */
      charsPerToken: z.number().positive().optional(),
    })
    .optional(),
  /**
   * The result is too big to travel whole (app/chat/results/result-preview.ts): `content` and `structuredContent`
   * here are its preview, and the whole is stored once beside the conversation and read in pages (chat.readResult).
   * `chars`: the length of its whole text (shared/domain/result-text.ts); `missing`: its file is gone or damaged.
   */
  whole: z
    .object({
      chars: z.number().int().min(0),
      blocks: z.number().int().min(0),
      missing: z.literal(true).optional(),
    })
    .optional(),
  /** A host tool's call (server HOST_TOOL_SERVER): what Berth did, the one line of its compact card ("Berth …"). */
  hostSummary: z.string().max(1000).optional(),
  /**
   * Berth wrote `content` (the call could not run, or failed in the host: tool-outcome.*, or a host failure's code):
   * its text as a code for the person's language; the content stays the English the model reads.
   */
  outcomeMessage: HostMessageSchema.optional(),
  /**
   * A load_tools call's result: the tools (toolKeys) it loaded. With a provider that loads tools itself (Anthropic's
   * deferred tools), each request carries a tool_reference to them in this result, where the API puts their definitions.
   */
  loadsTools: z.array(z.string().min(1)).max(100).optional(),
  /**
   * The call's MCP task did not finish soon, so the model got an immediate answer (this content) and the task went on
   * in the background (its Berth task id): its result comes into the conversation as a `task_result` block.
   */
  backgroundTask: z.object({ taskId: z.string().min(1).max(200) }).optional(),
});
export type ChatToolResultBlock = z.infer<typeof ChatToolResultBlockSchema>;

/** How a background task's end reached the conversation. */
export const TASK_RESULT_STATUSES = ['completed', 'failed', 'cancelled', 'lost'] as const;

/**
 * A task that went on in the background has ended. Without `forModel` it is the notice the person sees (a card with
 * "Send to the model"), never sent; with it, the copy the person (or the automatic follow-up) sent: a user message the
 * model reads as Berth's words about the task, with the server's result as untrusted words, cut like a tool result.
 * `result.toolUseId` is `task-<taskId>`: both copies share one stored whole when the result is big.
 */
export const ChatTaskResultBlockSchema = z.object({
  type: z.literal('task_result'),
  /** Berth's task id (tasks.list). */
  taskId: z.string().min(1).max(200),
  /** The server's own id for the task, as the model was told it. */
  serverTaskId: z.string().max(1000),
  server: z.string(),
  tool: z.string(),
  /** The tool call that started it. */
  toolUseId: z.string().optional(),
  status: z.enum(TASK_RESULT_STATUSES),
  /** Epoch ms. */
  finishedAt: z.number(),
  result: ChatToolResultBlockSchema,
  forModel: z.literal(true).optional(),
});
export type ChatTaskResultBlock = z.infer<typeof ChatTaskResultBlockSchema>;

/**
 * Context the person attached to a message: a resource picked in a server's
 * resource browser, or an image / embedded resource a prompt produced. The
 * content travels inline (read when attached) so the message is complete on
 * its own, even if the server is gone later.
 */
export const ChatAttachmentSchema = z.object({
  /** The server it came from, shown on the chip. */
  server: z.string().max(200).optional(),
  /** What the chip says: the resource's name or URI, or what the prompt called it. */
  label: z.string().min(1).max(500),
  content: z.discriminatedUnion('type', [McpImageContentSchema, McpAudioContentSchema, McpEmbeddedResourceSchema]),
});
export type ChatAttachment = z.infer<typeof ChatAttachmentSchema>;

/** An attachment as saved in a user message. */
export const ChatAttachmentBlockSchema = z.object({ type: z.literal('attachment'), attachment: ChatAttachmentSchema });
export type ChatAttachmentBlock = z.infer<typeof ChatAttachmentBlockSchema>;

/**
 * The model's reasoning before its answer (Anthropic thinking, OpenAI-compatible `reasoning_content` or `<think>`).
 * `signature` (Anthropic) must go back unchanged with the block; `redacted` holds the encrypted data of a block the
 * provider hid (its `thinking` is then empty). `durationMs`: how long it streamed, measured by Berth.
 */
export const ChatThinkingBlockSchema = z.object({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
  redacted: z.string().optional(),
  durationMs: z.number().int().min(0).optional(),
});
export type ChatThinkingBlock = z.infer<typeof ChatThinkingBlockSchema>;

export const ChatContentBlockSchema = z.discriminatedUnion('type', [
  ChatTextBlockSchema,
  ChatThinkingBlockSchema,
  ChatToolUseBlockSchema,
  ChatToolResultBlockSchema,
  ChatAttachmentBlockSchema,
  ChatTaskResultBlockSchema,
]);
export type ChatContentBlock = z.infer<typeof ChatContentBlockSchema>;

const tokens = z.number().int().min(0);
/**
 * What one model request (or, summed, a turn) used: see UsageLike in chat-usage.ts. As LlmUsage, `inputTokens` is the
 * prompt outside the provider's cache; the cache fields (where the provider reported them) are the rest of it.
 */
export const ChatUsageSchema = z.object({
  inputTokens: tokens,
  outputTokens: tokens,
  cacheReadTokens: tokens.optional(),
  cacheWriteTokens: tokens.optional(),
  /** Input tokens' worth the prompt cache saved at the provider's cache prices; negative when writes cost more than reads saved. */
  cacheSavedTokens: z.number().int().optional(),
  /** Berth's estimate of the tool definitions' part of the prompt (serialized characters / 4), not the provider's count. */
  toolTokensEstimate: tokens.optional(),
  /** Berth's estimate of the tokens the request did not carry because big tool results were cut for the model (app/chat/results). */
  cappedTokensEstimate: tokens.optional(),
  /**
   * Berth's estimate of what the definitions of every enabled tool would have taken, present only when fewer were sent
   * (tool search sent its own tools and the loaded ones): the difference is what tool search saved.
   */
  toolTokensFullEstimate: tokens.optional(),
  /** Output tokens the model spent reasoning, where the provider says (already part of outputTokens). */
  reasoningTokens: tokens.optional(),
  /** How many model requests were summed (a turn's total); absent for one request. */
  requests: z.number().int().min(1).optional(),
});
export type ChatUsage = z.infer<typeof ChatUsageSchema>;

/**
 * A reply that did not finish, kept as far as it came: `stopped` — the person pressed Stop; `cut-off` — the stream
 * broke (`reason`: the failure's English, `reasonMessage` its chat-error code). Its text goes back to the model as
 * plain assistant text; its thinking, unsigned, is shown but never sent back. A tool call still streaming was dropped.
 */
export const ChatPartialSchema = z.object({
  cause: z.enum(['stopped', 'cut-off']),
  reason: z.string().optional(),
  reasonMessage: HostMessageSchema.optional(),
});
export type ChatPartial = z.infer<typeof ChatPartialSchema>;

/**
 * A message the person sent that got no reply: the turn failed before the model answered (`reason`: the failure's
 * English, `reasonMessage` its chat-error code). Kept where it is and shown so; never sent to a model until the person
 * retries it, so a next message goes alone instead of merged with it.
 */
export const ChatFailedSchema = z.object({
  reason: z.string(),
  reasonMessage: HostMessageSchema.optional(),
});
export type ChatFailed = z.infer<typeof ChatFailedSchema>;

/**
 * One completed message. User messages hold the person's text (and any
 * attachments), or the tool
 * results of the previous assistant message; assistant messages hold text and
 * tool_use blocks.
 */
export const ChatMessageSchema = z.object({
  id: z.string().min(1),
  role: z.enum(['user', 'assistant']),
  /** Epoch ms. */
  createdAt: z.number(),
  content: z.array(ChatContentBlockSchema),
  /** Assistant only: the model that wrote it. */
  model: z.string().optional(),
  /** Assistant only: the API's stop_reason. */
  stopReason: z.string().optional(),
  usage: ChatUsageSchema.optional(),
  /** Assistant only: the reply did not finish, and this is what had arrived (ChatPartialSchema). */
  partial: ChatPartialSchema.optional(),
  /** The person's message only: its turn failed before any reply (ChatFailedSchema). */
  failed: ChatFailedSchema.optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** What Berth does when a conversation's next request would not fit the model's context window (app/chat/context). */
export const CONTEXT_POLICIES = ['compact', 'drop', 'ask'] as const;
export type ContextPolicy = (typeof CONTEXT_POLICIES)[number];

/** What happens when a background task of a conversation finishes (Conversation.backgroundTasks). */
export const BACKGROUND_TASK_MODES = ['tell', 'continue'] as const;
export type BackgroundTaskMode = (typeof BACKGROUND_TASK_MODES)[number];

/**
 * Where requests of a conversation now begin: the messages up to and including `throughMessageId` stay
 * saved (the person can read them) but are not sent; with `summary` (compact) the model gets it in
 * their place, as what it now remembers of them; without (drop) it is told they were left out.
 */
export const ContextCutSchema = z.object({
  kind: z.enum(['compact', 'drop']),
  throughMessageId: z.string().min(1),
  summary: z.string().optional(),
  /** Epoch ms. */
  createdAt: z.number(),
  /** The model that wrote the summary, or whose window the drop was for. */
  model: z.string(),
  /** How many messages (saved ones, tool rounds included) the cut leaves out of requests. */
  messageCount: z.number().int().min(0),
  /** Berth's estimate of the request before and after the cut (tokens). */
  tokensBefore: z.number().int().min(0),
  tokensAfter: z.number().int().min(0),
  /**
   * The provider compacted the conversation itself (Anthropic's context management; `summary` is its block's
   * content): the block's signature and opaque data, sent back verbatim with the summary first in later requests.
   * Absent: Berth's own cut.
   */
  api: z.object({ signature: z.string().optional(), encryptedContent: z.string().optional() }).optional(),
});
export type ContextCut = z.infer<typeof ContextCutSchema>;

/**
 * Another version of the conversation from one position on (app/chat/conversation-forks.ts): an earlier message edited,
 * or a reply regenerated. `after` is the id of the message before the position ('' for the first one); each version
 * is the whole tail from there, with the forks inside that tail; the `active` one is the live `messages` (its slot here
 * stays empty).
 */
export interface ChatFork {
  after: string;
  active: number;
  versions: ChatForkVersion[];
}
export interface ChatForkVersion {
  messages: ChatMessage[];
  forks?: ChatFork[];
}
export const ChatForkSchema: z.ZodType<ChatFork> = z.lazy(() =>
  z.object({
    after: z.string(),
    active: z.number().int().min(0),
    versions: z.array(z.object({ messages: z.array(ChatMessageSchema), forks: z.array(ChatForkSchema).optional() })),
  }),
);

/** Bounds of a conversation's own settings (chat.setParams): the prompt's length, temperature, reply tokens. */
export const CONVERSATION_LIMITS = {
  systemPromptChars: 20_000,
  temperatureMax: 2,
  /** Anthropic's Messages API takes a temperature from 0 to 1. */
  anthropicTemperatureMax: 1,
  maxTokensMax: 1_000_000,
} as const;

export const ConversationSchema = z.object({
  id: ConversationIdSchema,
  title: z.string(),
  /** Epoch ms. */
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The model used for the next reply. */
  model: z.string().min(1),
  messages: z.array(ChatMessageSchema),
  /** Servers whose tools are not offered in this conversation. */
  disabledServers: z.array(z.string()).default([]),
  /** Tools not offered in this conversation, as `toolKey(server, tool)`. */
  disabledTools: z.array(z.string()).default([]),
  /** Tool search (shared/domain/tool-search.ts); absent: `auto`, which follows the global threshold. */
  toolSearch: z.enum(TOOL_SEARCH_MODES).optional(),
  /** Tools the model loaded with tool search, as `toolKey(server, tool)`, oldest first; the person can remove each. Absent: none. */
  loadedTools: z.array(z.string()).optional(),
  /** The model's reasoning in this conversation (shared/domain/reasoning.ts); absent: the global default. */
  reasoning: z.enum(REASONING_LEVELS).optional(),
  /** What to do when the next request would not fit the model's window; absent: `compact`. */
  contextPolicy: z.enum(CONTEXT_POLICIES).optional(),
  /** Where requests begin now (the latest compaction or drop); absent: every message is sent. */
  contextCut: ContextCutSchema.optional(),
  /** When a background task finishes: `tell` the person (a card to send on), or `continue` with a follow-up turn. Absent: `tell`. */
  backgroundTasks: z.enum(BACKGROUND_TASK_MODES).optional(),
  /** Pinned by the person: first in the list, whatever its time. Absent: not pinned. */
  pinned: z.boolean().optional(),
  /** The other versions at each position where the person edited a message or regenerated a reply; absent: none. */
  forks: z.array(ChatForkSchema).optional(),
  /** The person's own system prompt for this conversation, sent before the servers' instructions. Absent: none. */
  systemPrompt: z.string().max(CONVERSATION_LIMITS.systemPromptChars).optional(),
  /** Sampling temperature of this conversation's requests (Anthropic's models take at most 1). Absent: the model's default. */
  temperature: z.number().min(0).max(CONVERSATION_LIMITS.temperatureMax).optional(),
  /** The longest reply of this conversation, in tokens. Absent: Berth's default. */
  maxTokens: z.number().int().min(1).max(CONVERSATION_LIMITS.maxTokensMax).optional(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

/** What the conversation list shows. */
export const ConversationSummarySchema = z.object({
  id: ConversationIdSchema,
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  model: z.string(),
  messageCount: z.number().int().min(0),
  /** Shown first in the list; absent: not pinned. */
  pinned: z.boolean().optional(),
});
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;

export {
  isPersonMessage,
  isStoppedResult,
  messageText,
  STOPPED_BY_PERSON,
  STOPPED_TOOL_TEXT,
  toolKey,
} from './chat-text';

export function summarizeConversation(conversation: Conversation): ConversationSummary {
  const { id, title, createdAt, updatedAt, model, messages, pinned } = conversation;
  return { id, title, createdAt, updatedAt, model, messageCount: messages.length, ...(pinned ? { pinned } : {}) };
}

/** Why a turn waits before the model is asked again. */
export const ModelWaitReasonSchema = z.enum(['rate-limit', 'overloaded', 'network']);
export type ModelWaitReason = z.infer<typeof ModelWaitReasonSchema>;

// Events the chat engine reports while a turn runs (one topic for the UI).
const base = { conversationId: z.string(), turnId: z.string() };

export const ChatEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('turn-started'),
    ...base,
    model: z.string(),
    toolCount: z.number().int(),
    toolCountWarning: z.string().optional(),
    /** The warning as a code (chat-notice.*), for the person's language; `toolCountWarning` is its English. */
    toolCountWarningMessage: HostMessageSchema.optional(),
  }),
  /**
   * Something the person should know about this turn: the model cannot use tools, so the reply has none; or it takes no images, so they were left out. It comes
   * before the reply's text; text streamed before it (a model that refused tools mid-reply) is dropped.
   */
  z.object({
    type: z.literal('turn-notice'),
    ...base,
    message: z.string(),
    /** The notice as a code (chat-notice.*), for the renderer to word in the person's language; `message` is its English. */
    hostMessage: HostMessageSchema.optional(),
  }),
  /** Coalesced: several tokens per event, at most ~30 events per second per conversation. */
  z.object({ type: z.literal('text-delta'), ...base, text: z.string() }),
  /** The model's reasoning as it streams, coalesced like text; `redacted`: the provider hid a block. */
  z.object({ type: z.literal('thinking-delta'), ...base, text: z.string(), redacted: z.literal(true).optional() }),
  /** Waiting for the person's yes (or a stored policy). */
  z.object({
    type: z.literal('tool-call-pending'),
    ...base,
    toolUseId: z.string(),
    server: z.string(),
    tool: z.string(),
    input: z.record(z.string(), z.unknown()),
  }),
  z.object({
    type: z.literal('tool-call-started'),
    ...base,
    toolUseId: z.string(),
    server: z.string(),
    tool: z.string(),
    input: z.record(z.string(), z.unknown()),
    /** The tool names an MCP Apps UI resource: the card can render the app (with the input) before the result arrives. */
    app: ToolAppRefSchema.optional(),
  }),
  z.object({
    type: z.literal('tool-progress'),
    ...base,
    toolUseId: z.string(),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
  /**
   * `result` is the block the saved message will hold, sent at once so a card shows its result before the slowest
   * parallel call ends (the results are saved together, in one message, after every call has one).
   */
  z.object({
    type: z.literal('tool-call-finished'),
    ...base,
    toolUseId: z.string(),
    isError: z.boolean(),
    denied: z.boolean(),
    result: ChatToolResultBlockSchema.optional(),
  }),
  /** The call runs as an MCP task: its Berth task id (tasks.list), status and the server's status message. */
  z.object({
    type: z.literal('tool-task'),
    ...base,
    toolUseId: z.string(),
    taskId: z.string(),
    status: TaskStatusSchema,
    statusMessage: z.string().optional(),
  }),
  /** A question that belongs to this call (its elicitation form, a sampling review) waits for the person (`pendingId`), or no longer does (null). */
  z.object({ type: z.literal('tool-call-waiting'), ...base, toolUseId: z.string(), pendingId: z.string().nullable() }),
  z.object({ type: z.literal('message-saved'), ...base, message: ChatMessageSchema }),
  /** A background task's end came into the conversation outside any turn (`message` holds its task_result block). */
  z.object({ type: z.literal('task-finished'), conversationId: z.string(), message: ChatMessageSchema }),
  /** `stopReason` is the API's, or `stopped` when the person pressed stop. `usage`: the turn's model requests summed (absent when none answered). */
  z.object({ type: z.literal('turn-finished'), ...base, stopReason: z.string(), usage: ChatUsageSchema.optional() }),
  /** `contextFull`: the request did not fit the model's window (refused, or the conversation is set to ask): the chat offers Compact and retry. */
  z.object({
    type: z.literal('turn-failed'),
    ...base,
    message: z.string(),
    /** The failure as a code (chat-error.*), for the renderer to word in the person's language; `message` is its English. */
    hostMessage: HostMessageSchema.optional(),
    contextFull: z.literal(true).optional(),
    /** The person's message that got no reply: saved marked `failed` with this failure (ChatMessage.failed). */
    failedMessageId: z.string().optional(),
  }),
  /**
   * The model is asked again after a wait (app/providers/model-call-retries.ts): a rate limit or an overload until
   * `until`, or the network until it is back (at most until `giveUpAt`). chat.retryNow ends the wait early.
   */
  z.object({
    type: z.literal('turn-waiting'),
    ...base,
    reason: ModelWaitReasonSchema,
    until: z.number().optional(),
    giveUpAt: z.number().optional(),
    attempt: z.number().int(),
    maxAttempts: z.number().int(),
    /** The provider's name where its error gave it; absent: Anthropic's API. */
    provider: z.string().optional(),
    /** The failure that started the wait, as a code (chat-error.*). */
    cause: HostMessageSchema.optional(),
  }),
  /** The wait is over: the model is being asked again. */
  z.object({ type: z.literal('turn-resumed'), ...base }),
]);
export type ChatEvent = z.infer<typeof ChatEventSchema>;
