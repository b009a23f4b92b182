import { z } from 'zod';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, MAX_MESSAGE_CHARS } from '../domain/attachment-limits';
import {
  ChatAttachmentSchema,
  ChatEventSchema,
  ConversationIdSchema,
  ConversationSchema,
  ConversationSummarySchema,
  BACKGROUND_TASK_MODES,
  CONTEXT_POLICIES,
  ContextCutSchema,
  CONVERSATION_LIMITS,
} from '../domain/chat';
import { TOOL_SEARCH_MODES } from '../domain/tool-search';
import { HostMessageSchema } from '../domain/host-message';
import { REASONING_LEVELS } from '../domain/reasoning';
import { method } from './define';

const byId = z.object({ id: ConversationIdSchema }).strict();
/** A saved message's id (ChatMessage.id). */
const MessageIdSchema = z.string().min(1).max(200);
/** A model id from the configured list (settings.get → models). */
const ModelIdSchema = z.string().trim().min(1).max(200);
const TOO_LONG = `Keep a message under ${MAX_MESSAGE_CHARS.toLocaleString('en-US')} characters, or attach the long text as a file`;
const MessageTextSchema = z.string().min(1, 'Write a message first').max(MAX_MESSAGE_CHARS, TOO_LONG);
export { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS };
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/**
 * What the person attaches is checked beyond its shape (stored messages are not: what a server once sent stays
 * readable): media under its own family's type, and binary data as base64, so the model API is not the first to object.
 */
const SentAttachmentSchema = ChatAttachmentSchema.superRefine((attachment, context) => {
  const { content } = attachment;
  if (content.type === 'image' || content.type === 'audio') {
    if (!content.mimeType.toLowerCase().startsWith(`${content.type}/`)) {
      context.addIssue({
        code: 'custom',
        path: ['content', 'mimeType'],
        message: `${attachment.label} is not an ${content.type} (${content.mimeType})`,
      });
    }
    if (!BASE64.test(content.data))
      context.addIssue({
        code: 'custom',
        path: ['content', 'data'],
        message: `${attachment.label} is not valid base64 data`,
      });
  } else if (
    'blob' in content.resource &&
    typeof content.resource.blob === 'string' &&
    !BASE64.test(content.resource.blob)
  ) {
    context.addIssue({
      code: 'custom',
      path: ['content', 'resource', 'blob'],
      message: `${attachment.label} is not valid base64 data`,
    });
  }
});
const AttachmentsSchema = z
  .array(SentAttachmentSchema)
  .max(MAX_ATTACHMENTS, `Attach at most ${MAX_ATTACHMENTS} items to one message`)
  .refine(
    (list) => JSON.stringify(list).length <= MAX_ATTACHMENT_BYTES,
    `Attachments are limited to ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB per message`,
  );

/** One tool of a ready server, and whether this conversation offers it to the model. */
export const ChatToolEntrySchema = z.object({
  server: z.string(),
  tool: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  /** False when its server or the tool itself is switched off in this conversation. */
  enabled: z.boolean(),
});
export type ChatToolEntry = z.infer<typeof ChatToolEntrySchema>;

/** Every tool of the ready servers for one conversation, and what the model is offered. */
export const ChatToolsViewSchema = z.object({
  tools: z.array(ChatToolEntrySchema),
  /** How many tools the model is offered (the enabled ones). */
  offeredCount: z.number().int().min(0),
  /** Present when so many tools are offered that the model picks less reliably. */
  warning: z.string().optional(),
  /** The warning as a code (chat-notice.*), for the person's language; `warning` is its English. */
  warningMessage: HostMessageSchema.optional(),
  /** Tool search in this conversation (shared/domain/tool-search.ts); absent from an older host. */
  toolSearch: z
    .object({
      mode: z.enum(TOOL_SEARCH_MODES),
      /** Whether the model is offered search_tools/load_tools instead of every enabled tool now. */
      active: z.boolean(),
      /** Why, in the person's words. */
      reason: z.string(),
      /** The global thresholds `auto` follows. */
      thresholds: z.object({ countAbove: z.number().int().min(0), shareAbove: z.number().min(0).max(1) }),
      /** Tools the model loaded, oldest first; `enabled` false when a switch turned it off since (it is not sent then). */
      loaded: z.array(z.object({ server: z.string(), tool: z.string(), enabled: z.boolean() })),
      /** Estimated tokens of every enabled tool's definitions, and of what a request sends now. */
      fullTokensEstimate: z.number().int().min(0),
      sentTokensEstimate: z.number().int().min(0),
    })
    .optional(),
});
export type ChatToolsView = z.infer<typeof ChatToolsViewSchema>;

const Accepted = z.object({ accepted: z.literal(true) });

/** Characters of a big result one chat.readResult page may carry: its reply stays a few MiB whatever the text. */
export const RESULT_PAGE_MAX_CHARS = 1024 * 1024;

/** One page of a saved tool result's whole text (shared/domain/result-text.ts). */
export const ResultPageSchema = z.object({
  /** The characters from `offset`, at most the asked limit. */
  text: z.string(),
  offset: z.number().int().min(0),
  /** The whole text's length. */
  totalChars: z.number().int().min(0),
  /** Where the next page starts; null after the last. */
  nextOffset: z.number().int().min(0).nullable(),
});
export type ResultPage = z.infer<typeof ResultPageSchema>;

/** How full the model's context window is for a conversation's next request (Berth's estimate, corrected by the provider's counts). */
export const ContextFillSchema = z.object({
  /** The window of the conversation's model (its listing, Berth's table, or the person's entry); absent: unknown. */
  window: z.number().int().optional(),
  /** Tokens kept free in the window for the reply (the request's max_tokens): Berth acts before the rest is full. */
  reserve: z.number().int().min(0),
  /** Estimated tokens of the next request without a new message. */
  tokens: z.number().int().min(0),
  /** What takes the room, in tokens (they add up to `tokens`). */
  parts: z.object({
    tools: z.number().int().min(0),
    system: z.number().int().min(0),
    history: z.number().int().min(0),
    attachments: z.number().int().min(0),
  }),
  /** Whether the estimate is checked against the provider's count yet (false before the first reply of this model). */
  calibrated: z.boolean(),
  policy: z.enum(CONTEXT_POLICIES),
  /** Where requests begin now (the latest compaction or drop), shown in the chat. */
  cut: ContextCutSchema.optional(),
  /**
   * The provider compacts the conversation itself (Anthropic's context management) when a request passes this many
   * tokens, before Berth would; absent: Berth does it.
   */
  providerCompactsAt: z.number().int().min(0).optional(),
});
export type ContextFill = z.infer<typeof ContextFillSchema>;

/** The tools tool search loaded in one conversation changed: the whole new list (`toolKey`s, oldest first). */
export const LoadedToolsChangeSchema = z.object({
  id: ConversationIdSchema,
  loadedTools: z.array(z.string()).max(10_000),
});
export type LoadedToolsChange = z.infer<typeof LoadedToolsChangeSchema>;

/** What changed in the conversation list: summaries new or updated, and ids gone (deleted). */
export const ConversationsDeltaSchema = z.object({
  changed: z.array(ConversationSummarySchema).max(10_000),
  removed: z.array(ConversationIdSchema).max(10_000),
});
export type ConversationsDelta = z.infer<typeof ConversationsDeltaSchema>;

/** The longest search accepted (the host searches its first 200 characters, at most 16 words). */
export const MAX_SEARCH_CHARS = 1_000;
/** The most hits one chat.search answers. */
export const MAX_SEARCH_HITS = 100;

/** A stretch of a message around a search's first hit, with where the matches are in it. */
export const SearchSnippetSchema = z.object({
  /** A stretch of the message's text; `cutStart`/`cutEnd`: the message goes on before/after it. */
  text: z.string(),
  cutStart: z.boolean(),
  cutEnd: z.boolean(),
  /** Whose words: the person's, the model's, or a tool result's text. */
  role: z.enum(['user', 'assistant', 'tool']),
  messageId: z.string(),
  /** The matches in `text`: UTF-16 offsets, end exclusive, in order, not overlapping; the first is the first hit. */
  highlights: z.array(z.object({ start: z.number().int().min(0), end: z.number().int().min(0) })),
});
export type SearchSnippet = z.infer<typeof SearchSnippetSchema>;

/** One conversation a search found; no snippet when only its title matched. */
export const SearchHitSchema = z.object({
  id: ConversationIdSchema,
  title: z.string(),
  updatedAt: z.number(),
  snippet: SearchSnippetSchema.optional(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const SearchResultSchema = z.object({
  /** Best first: a title holding every word, then the newest. */
  hits: z.array(SearchHitSchema),
  /** How many conversations match in all. */
  total: z.number().int().min(0),
  /** False while conversations are still being indexed (the first start, or an index file rebuilt). */
  complete: z.boolean(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

/** The global reasoning defaults (shared/domain/reasoning.ts ReasoningDefaults). */
export const ReasoningDefaultsSchema = z.object({ level: z.enum(REASONING_LEVELS), sampling: z.boolean() });

export const chatMethods = {
  'chat.list': method({
    summary: 'Every conversation, newest first.',
    input: z.object({}).strict(),
    output: z.array(ConversationSummarySchema),
  }),
  'chat.get': method({ summary: 'One conversation with all its messages.', input: byId, output: ConversationSchema }),
  'chat.search': method({
    summary:
      'Full-text search over every message of every conversation: the conversations holding every word (the last one as a prefix), best first, each with a snippet around its first hit.',
    input: z
      .object({
        query: z
          .string()
          .max(MAX_SEARCH_CHARS, `Keep a search under ${MAX_SEARCH_CHARS.toLocaleString('en-US')} characters`),
        limit: z
          .number()
          .int('The limit is a whole number of conversations')
          .min(1, 'Ask for at least 1 conversation')
          .max(MAX_SEARCH_HITS, `Ask for at most ${MAX_SEARCH_HITS} conversations`)
          .optional(),
      })
      .strict(),
    output: SearchResultSchema,
  }),
  'chat.readResult': method({
    summary:
      'A page of a saved tool result’s whole text (a big result travels as a preview): from offset, at most limit characters.',
    input: z
      .object({
        id: ConversationIdSchema,
        toolUseId: z.string().min(1).max(500),
        offset: z.number().int('The offset is a whole number of characters').min(0, 'The offset starts at 0'),
        limit: z
          .number()
          .int('The limit is a whole number of characters')
          .min(1, 'Ask for at least 1 character')
          .max(RESULT_PAGE_MAX_CHARS, `Ask for at most ${RESULT_PAGE_MAX_CHARS.toLocaleString('en-US')} characters`),
      })
      .strict(),
    output: ResultPageSchema,
  }),
  'chat.create': method({
    summary: 'Start an empty conversation (with the default model unless one is given).',
    input: z.object({ model: ModelIdSchema.optional() }).strict(),
    output: ConversationSchema,
  }),
  'chat.rename': method({
    summary: 'Give a conversation a new title.',
    input: z
      .object({ id: ConversationIdSchema, title: z.string().trim().min(1, 'Give the conversation a title').max(200) })
      .strict(),
    output: ConversationSummarySchema,
  }),
  'chat.setPinned': method({
    summary: 'Pin a conversation to the top of the list, or unpin it; kept with the conversation.',
    input: z.object({ id: ConversationIdSchema, pinned: z.boolean() }).strict(),
    output: ConversationSummarySchema,
  }),
  'chat.delete': method({
    summary: 'Move a conversation to the trash (stopping its reply if one is running); chat.restore brings it back.',
    input: byId,
    output: z.object({ deleted: z.string() }),
  }),
  'chat.restore': method({
    summary: 'Bring a deleted conversation back from the trash.',
    input: byId,
    output: ConversationSummarySchema,
  }),
  'chat.send': method({
    summary: 'Save the message (with any attachments) and start the reply; progress arrives as chat.event.',
    input: z
      .object({
        id: ConversationIdSchema,
        // With attachments the text may be empty ("here is the file"); without, it may not.
        text: z.string().max(MAX_MESSAGE_CHARS, TOO_LONG),
        attachments: AttachmentsSchema.optional(),
        model: ModelIdSchema.optional(),
      })
      .strict()
      .refine((input) => input.text.trim() !== '' || (input.attachments?.length ?? 0) > 0, {
        message: 'Write a message first',
        path: ['text'],
      }),
    output: Accepted,
  }),
  'chat.stop': method({
    summary: 'Stop the running reply (stream and tool calls); false when none was running.',
    input: byId,
    output: z.object({ stopped: z.boolean() }),
  }),
  'chat.setModel': method({
    summary:
      'Choose the model of a conversation (from the configured list): its next turn, a Retry or a Continue go to it.',
    input: z.object({ id: ConversationIdSchema, model: ModelIdSchema }).strict(),
    output: ConversationSchema,
  }),
  'chat.retry': method({
    summary:
      'Answer the last message the person wrote again; with messageId, send again a message of theirs that got no reply (it becomes the newest).',
    input: z.object({ id: ConversationIdSchema, messageId: MessageIdSchema.optional() }).strict(),
    output: Accepted,
  }),
  'chat.discardFailed': method({
    summary: 'Take out a message of the person’s that got no reply (marked failed); chat.restoreFailed undoes it.',
    input: z.object({ id: ConversationIdSchema, messageId: MessageIdSchema }).strict(),
    output: ConversationSchema,
  }),
  'chat.restoreFailed': method({
    summary: 'Put back a failed message chat.discardFailed took out (while Berth runs), where it was.',
    input: z.object({ id: ConversationIdSchema, messageId: MessageIdSchema }).strict(),
    output: ConversationSchema,
  }),
  'chat.continue': method({
    summary:
      'Go on from the reply that ends the conversation unfinished (stopped by the person, or cut off): the model writes the rest.',
    input: byId,
    output: Accepted,
  }),
  'chat.compactAndRetry': method({
    summary:
      'Make room in a conversation that outgrew the model’s window (compact, or drop when it is set to), then answer the last message again.',
    input: byId,
    output: Accepted,
  }),
  'chat.context': method({
    summary: 'How full the model’s context window is for the conversation’s next request, and what takes the room.',
    input: byId,
    output: ContextFillSchema,
  }),
  'chat.setContextPolicy': method({
    summary:
      'What Berth does when the conversation would not fit the window: compact (default), drop the oldest turns, or ask.',
    input: z.object({ id: ConversationIdSchema, policy: z.enum(CONTEXT_POLICIES) }).strict(),
    output: ConversationSchema,
  }),
  'chat.sendTaskResult': method({
    summary:
      "Send a background task's result (its notice in the conversation) to the model as a new turn; CONFLICT when it was sent already or a reply is being written.",
    input: z.object({ id: ConversationIdSchema, taskId: z.string().min(1).max(200) }).strict(),
    output: Accepted,
  }),
  'chat.setBackgroundTasks': method({
    summary:
      'What the conversation does when a background task finishes: tell the person (default), or continue with a follow-up turn.',
    input: z.object({ id: ConversationIdSchema, mode: z.enum(BACKGROUND_TASK_MODES) }).strict(),
    output: ConversationSchema,
  }),
  'chat.editAndResend': method({
    summary:
      'Replace the last message the person wrote (and every reply after it), then reply; with messageId, a failed message of theirs is replaced by the text sent as the newest.',
    input: z
      .object({ id: ConversationIdSchema, text: MessageTextSchema, messageId: MessageIdSchema.optional() })
      .strict(),
    output: Accepted,
  }),
  'chat.tools': method({
    summary: 'The tools of every ready server and which of them this conversation offers.',
    input: byId,
    output: ChatToolsViewSchema,
  }),
  'chat.setToolSearch': method({
    summary: 'Tool search for one conversation: auto (the global threshold), on or off.',
    input: z.object({ id: ConversationIdSchema, mode: z.enum(TOOL_SEARCH_MODES) }).strict(),
    output: ConversationSchema,
  }),
  'chat.unloadTools': method({
    summary: 'Remove tools the model loaded with tool search from one conversation (they stay searchable).',
    input: z
      .object({ id: ConversationIdSchema, tools: z.array(z.string().min(1).max(500)).min(1).max(1_000) })
      .strict(),
    output: ConversationSchema,
  }),
  'chat.setToolSearchThresholds': method({
    summary:
      'When tool search starts in conversations left on auto: more than countAbove enabled tools, or definitions over shareAbove of the model context.',
    input: z
      .object({
        countAbove: z
          .number()
          .int('A whole number of tools')
          .min(1, 'At least 1 tool')
          .max(10_000, 'At most 10,000 tools'),
        shareAbove: z.number().min(0.01, 'At least 1%').max(0.9, 'At most 90%'),
      })
      .strict(),
    output: z.object({ countAbove: z.number().int(), shareAbove: z.number() }),
  }),
  'chat.setReasoning': method({
    summary: 'The model’s reasoning in one conversation: off, or on with effort low, medium or high.',
    input: z.object({ id: ConversationIdSchema, level: z.enum(REASONING_LEVELS) }).strict(),
    output: ConversationSchema,
  }),
  'chat.reasoningDefaults': method({
    summary: 'The reasoning of new conversations, and whether servers’ sampling requests may reason (default: no).',
    input: z.object({}).strict(),
    output: ReasoningDefaultsSchema,
  }),
  'chat.setReasoningDefaults': method({
    summary: 'Change the reasoning of new conversations, or whether servers’ sampling requests may reason.',
    input: ReasoningDefaultsSchema.partial().strict(),
    output: ReasoningDefaultsSchema,
  }),
  'chat.setTools': method({
    summary: 'Switch servers and tools off (or on again) for one conversation.',
    input: z
      .object({
        id: ConversationIdSchema,
        disabledServers: z.array(z.string().min(1).max(200)).max(1_000),
        /** `toolKey(server, tool)`, i.e. `server/tool`. */
        disabledTools: z.array(z.string().min(1).max(500)).max(10_000),
      })
      .strict(),
    output: ConversationSchema,
  }),
  'chat.retryNow': method({
    summary:
      'End the wait of a reply waiting to ask the model again (rate limit, network): ask now; false when none waits.',
    input: byId,
    output: z.object({ retrying: z.boolean() }),
  }),
  'chat.editAt': method({
    summary:
      'Edit an earlier message the person wrote: the conversation branches there; what followed is kept as the other version (chat.switchVersion), then the model replies.',
    input: z.object({ id: ConversationIdSchema, messageId: MessageIdSchema, text: MessageTextSchema }).strict(),
    output: Accepted,
  }),
  'chat.regenerate': method({
    summary:
      'Write a reply of the model again as a new version of it (the earlier ones kept); with model, that model writes this version only — the conversation keeps its model.',
    input: z.object({ id: ConversationIdSchema, messageId: MessageIdSchema, model: ModelIdSchema.optional() }).strict(),
    output: Accepted,
  }),
  'chat.switchVersion': method({
    summary:
      'Show another version of a position ("‹ 2 / 3 ›"): `after` is the id of the message before it (empty for the first); CONFLICT while a reply is written.',
    input: z
      .object({
        id: ConversationIdSchema,
        after: z.union([z.literal(''), MessageIdSchema]),
        version: z.number().int().min(0).max(1_000),
      })
      .strict(),
    output: ConversationSchema,
  }),
  'chat.setParams': method({
    summary:
      'The conversation’s own system prompt (sent before the servers’ instructions), temperature and longest reply; null clears one back to the default.',
    input: z
      .object({
        id: ConversationIdSchema,
        systemPrompt: z
          .string()
          .max(
            CONVERSATION_LIMITS.systemPromptChars,
            `Keep the system prompt under ${CONVERSATION_LIMITS.systemPromptChars.toLocaleString('en-US')} characters`,
          )
          .nullable(),
        temperature: z
          .number()
          .min(0, 'The temperature is 0 or more')
          .max(CONVERSATION_LIMITS.temperatureMax, `The temperature is at most ${CONVERSATION_LIMITS.temperatureMax}`)
          .nullable(),
        maxTokens: z
          .number()
          .int('A whole number of tokens')
          .min(1, 'At least 1 token')
          .max(CONVERSATION_LIMITS.maxTokensMax, 'At most 1,000,000 tokens')
          .nullable(),
      })
      .strict(),
    output: ConversationSchema,
  }),
};

export const chatTopics = {
  /** Progress of a running turn: tokens, tool calls, saved messages, the end. */
  'chat.event': ChatEventSchema,
  /**
   * A conversation was created, renamed, deleted, restored or got a message:
   * only what changed (chat.list gives the whole list, e.g. on connect).
   */
  'chat.conversationsChanged': ConversationsDeltaSchema,
  /** The model loaded tools (load_tools) or the person removed some: the conversation's loaded list as it is now. */
  'chat.loadedToolsChanged': LoadedToolsChangeSchema,
};
