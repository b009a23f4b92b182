import { createHmac } from 'node:crypto';
import { countPromptTokens, countTextTokens } from './fake-token-count';
import { blocksOf } from './validate-request';
import type { MessagesRequestBody, RequestMessage } from './validate-request';

// Server-side compaction as the Messages API does it (beta `compact-2026-01-12`, the SDK's
// BetaCompact20260112Edit / BetaCompactionBlock and the Compaction*Error family), for the fake:
//
// - A request asks for it with `context_management: {edits: [{type: 'compact_20260112', trigger}]}` and the
//   beta header; an unknown edit type, a missing header, a model whose listing has no compaction or a trigger
//   under the minimum is a 400 invalid_request_error.
// - When the prompt passes the trigger, the reply begins with a `compaction` block: a summary of everything
//   before (deterministic here), signed so only the API can vouch for it, with opaque `encrypted_content`.
//   Its own cost is a `compaction` entry of `usage.iterations`; the top-level usage is the compacted context.
// - A later request sends the block back first; the API drops every message block before it. Two blocks with
//   content, a block not first in its message (or in a user message), an unknown signature, or a summary
//   that differs from what its signature recorded, are refused with the error codes the SDK names.

/** The beta header that turns the edit on. */
export const COMPACT_BETA = 'compact-2026-01-12';
/** The edit types the API knows; the fake implements only compaction (compactionAsk refuses the others). */
const KNOWN_EDITS = ['clear_tool_uses_20250919', 'clear_thinking_20251015', 'compact_20260112'];
/** The API's default trigger, and the least it takes. */
export const DEFAULT_COMPACT_TRIGGER = 150_000;
export const MIN_COMPACT_TRIGGER = 50_000;

const SECRET = 'fake-anthropic-compaction-secret';

/** A refusal in the API's shape: status, error type, message and (for the Compaction* family) its error code. */
export interface CompactionRefusal {
  status: number;
  type: string;
  message: string;
  errorCode?: string;
}

/** What a request asked of compaction: the trigger, when it asked at all. */
export interface CompactionAsk {
  trigger: number;
}

type Block = Record<string, unknown>;

function signatureOf(content: string): string {
  return createHmac('sha256', SECRET).update(`compaction\n${content}`).digest('base64');
}

/** The request's `context_management`, checked as the API checks it; `undefined` when it has none. */
export function compactionAsk(
  body: MessagesRequestBody,
  betas: string,
  modelCompacts: (model: string) => boolean,
): CompactionAsk | CompactionRefusal | undefined {
  const raw = (body as { context_management?: unknown }).context_management;
  if (raw === undefined || raw === null) return undefined;
  const bad = (message: string): CompactionRefusal => ({ status: 400, type: 'invalid_request_error', message });
  if (typeof raw !== 'object') return bad('context_management: Input should be a valid dictionary');
  const edits = (raw as { edits?: unknown }).edits ?? [];
  if (!Array.isArray(edits)) return bad('context_management.edits: Input should be a valid list');
  let ask: CompactionAsk | undefined;
  for (const [index, edit] of (edits as unknown[]).entries()) {
    const type = typeof edit === 'object' && edit !== null ? (edit as { type?: unknown }).type : undefined;
    if (typeof type !== 'string' || !KNOWN_EDITS.includes(type))
      return bad(
        `context_management.edits.${index}: Input tag '${String(type)}' found using 'type' does not match any of the expected tags: ${KNOWN_EDITS.map((known) => `'${known}'`).join(', ')}`,
      );
    if (type !== 'compact_20260112') return bad(`fake-anthropic does not implement the ${type} edit`);
    if (
      !betas
        .split(',')
        .map((beta) => beta.trim())
        .includes(COMPACT_BETA)
    )
      return bad(`context_management.edits.${index}: compact_20260112 requires the '${COMPACT_BETA}' beta header`);
    if (!modelCompacts(body.model))
      return bad(`context_management.edits.${index}: compact_20260112 is not supported on model '${body.model}'`);
    const trigger = (edit as { trigger?: { type?: unknown; value?: unknown } | null }).trigger;
    const value = trigger?.value ?? DEFAULT_COMPACT_TRIGGER;
    if (trigger !== undefined && trigger !== null && trigger.type !== 'input_tokens')
      return bad(`context_management.edits.${index}.trigger.type: Input should be 'input_tokens'`);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_COMPACT_TRIGGER)
      return bad(
        `context_management.edits.${index}.trigger.value: Input should be greater than or equal to ${MIN_COMPACT_TRIGGER}`,
      );
    ask = { trigger: value };
  }
  return ask;
}

/** A Compaction*Error as the API sends it (the SDK picks the error class by `details.error_code`). */
function refusal(errorCode: string, message: string): { refusal: CompactionRefusal } {
  return { refusal: { status: 400, type: 'invalid_request_error', message, errorCode } };
}

/**
 * The server-side compactions of one fake: what it signed, so a block sent back is checked against it.
 * `forget()` is a test's way to make the API no longer vouch for a block (another organization, a key change).
 */
export class FakeCompactions {
  private readonly signed = new Map<string, string>();

  forget(): void {
    this.signed.clear();
  }

  /**
   * The request as the model reads it: from the last compaction block on (the API drops what came before), or
   * the API's refusal of the blocks sent back.
   */
  effective(body: MessagesRequestBody): { body: MessagesRequestBody } | { refusal: CompactionRefusal } {
    const found: Array<{ message: number; index: number; block: Block; role: RequestMessage['role'] }> = [];
    body.messages.forEach((message, messageIndex) =>
      blocksOf(message).forEach((block, index) => {
        if (block.type === 'compaction') found.push({ message: messageIndex, index, block, role: message.role });
      }),
    );
    const withContent = found.filter(({ block }) => block.content !== null && block.content !== undefined);
    if (withContent.length > 1)
      return refusal(
        'compaction_block_ambiguous',
        '`messages` holds more than one `compaction` block with content. Send only the block the conversation returned last.',
      );
    const last = withContent[0];
    // A block with null content is a failed compaction: the API treats it as a no-op.
    if (last === undefined) return { body };
    if (last.index !== 0 || last.role !== 'assistant')
      return refusal(
        'compaction_block_misplaced',
        'The `compaction` block must be the first block of an assistant message, where the API returned it.',
      );
    const { content, signature } = last.block;
    const recorded = typeof signature === 'string' ? this.signed.get(signature) : undefined;
    if (recorded === undefined)
      return refusal('compaction_signature_invalid', "The `compaction` block's `signature` does not verify.");
    if (recorded !== content)
      return refusal(
        'compaction_content_mismatch',
        "The `compaction` block's `content` differs from the text its `signature` recorded.",
      );
    return { body: { ...body, messages: body.messages.slice(last.message) } };
  }

  /** The block that begins a reply whose prompt passed the trigger: a summary of the whole prompt, signed. */
  compact(body: MessagesRequestBody): { block: Block; summaryTokens: number } {
    const content = summaryOf(body);
    const signature = signatureOf(content);
    this.signed.set(signature, content);
    const encrypted = Buffer.from(`fake-compaction:${signature.slice(0, 16)}`).toString('base64');
    return {
      block: { type: 'compaction', content, encrypted_content: encrypted, signature },
      summaryTokens: countTextTokens(content),
    };
  }
}

/** A deterministic summary: how much was there, and the start of each of the person's messages. */
function summaryOf(body: MessagesRequestBody): string {
  const asks: string[] = [];
  for (const message of body.messages) {
    for (const block of blocksOf(message)) {
      if (message.role === 'user' && block.type === 'text' && typeof block.text === 'string')
        asks.push(block.text.replace(/\s+/g, ' ').slice(0, 60).trim());
      if (block.type === 'compaction' && typeof block.content === 'string') asks.push(block.content.slice(0, 200));
    }
  }
  return `Summary of the conversation so far (${body.messages.length} messages, ${countPromptTokens(body)} tokens). The user asked: ${asks.map((ask) => `"${ask}"`).join('; ')}.`;
}
