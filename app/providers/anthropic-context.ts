import { APIError, BadRequestError } from '@anthropic-ai/sdk';
import type { ContentBlock, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type {
  BetaCompactionBlockParam,
  BetaContentBlock,
  BetaContextManagementConfig,
  BetaMessageParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';

// Anthropic's own context management (beta `compact-2026-01-12`): a request names a trigger, and when its
// prompt passes it the API summarises the conversation itself; the reply begins with a `compaction` block
// that later requests send back first, in place of what it summarised (the API drops what came before it).
// Berth asks for it only on models whose listing says they take it (anthropic-capabilities.ts); a refusal
// (the SDK's Compaction*Error family, or a 400 about `context_management`) becomes an LlmError the chat answers
// by compacting itself.

/** The beta that turns server-side compaction on. */
export const COMPACT_BETA = 'compact-2026-01-12';
/** The least trigger the API takes; under it Berth compacts itself. */
export const MIN_COMPACT_TRIGGER = 50_000;
/** The API's trigger when a request names none. */
export const API_DEFAULT_COMPACT_TRIGGER = 150_000;

/** A compaction block as the API returned it, kept to be sent back verbatim. */
export interface ApiCompaction {
  /** The summary (what the model now remembers of the messages before). */
  content: string;
  signature?: string;
  encryptedContent?: string;
}

/** Anthropic's context management for one request (LlmStreamRequest.contextManagement). */
export interface ApiContextManagement {
  /** Compact when the prompt passes this many tokens (at least MIN_COMPACT_TRIGGER); absent: the API's default. */
  triggerTokens?: number;
  /** The conversation's last compaction, sent back first. */
  compaction?: ApiCompaction;
}

/** The request fields that ask for it. */
export function contextManagementFields(managed: ApiContextManagement): {
  betas: string[];
  context_management: BetaContextManagementConfig;
} {
  const trigger = managed.triggerTokens;
  return {
    betas: [COMPACT_BETA],
    context_management: {
      edits: [
        {
          type: 'compact_20260112',
          ...(trigger !== undefined ? { trigger: { type: 'input_tokens', value: Math.floor(trigger) } } : {}),
        },
      ],
    },
  };
}

/**
 * `messages` with the compaction block first, as the API wants it back: the first block of the assistant message
 * it began (Berth sends that reply's other blocks after it), or an assistant message of its own.
 */
export function withCompaction(messages: MessageParam[], compaction: ApiCompaction | undefined): BetaMessageParam[] {
  if (compaction === undefined) return messages;
  const block: BetaCompactionBlockParam = {
    type: 'compaction',
    content: compaction.content,
    ...(compaction.signature !== undefined ? { signature: compaction.signature } : {}),
    ...(compaction.encryptedContent !== undefined ? { encrypted_content: compaction.encryptedContent } : {}),
  };
  const [first, ...rest] = messages;
  if (first?.role !== 'assistant') return [{ role: 'assistant', content: [block] }, ...messages];
  const content = typeof first.content === 'string' ? [{ type: 'text' as const, text: first.content }] : first.content;
  return [{ role: 'assistant', content: [block, ...content] }, ...rest];
}

/** The reply's compaction, when the API compacted (a block with no content is a failed one: nothing to keep). */
export function compactionOf(content: ReadonlyArray<ContentBlock | BetaContentBlock>): ApiCompaction | undefined {
  const block = content.find((part) => part.type === 'compaction');
  if (block?.type !== 'compaction' || block.content === null || block.content === '') return undefined;
  return {
    content: block.content,
    ...(typeof block.signature === 'string' ? { signature: block.signature } : {}),
    ...(block.encrypted_content !== null ? { encryptedContent: block.encrypted_content } : {}),
  };
}

/** The API refused its own context management for this request (a Compaction*Error, or a 400 about it). */
export function refusesContextManagement(error: unknown): boolean {
  if (!(error instanceof APIError)) return false;
  if (typeof error.errorCode === 'string' && error.errorCode.startsWith('compaction_')) return true;
  const detail = error.apiMessage ?? error.message;
  return error instanceof BadRequestError && /context_management|compact_20260112|'compaction'/.test(detail);
}
