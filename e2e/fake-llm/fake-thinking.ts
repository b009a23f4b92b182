import { createHmac, timingSafeEqual } from 'node:crypto';
import { blocksOf } from './validate-request';
import type { MessagesRequestBody, RequestContentBlock } from './validate-request';

// Extended thinking as the Messages API does it, for the fake. A request asks for thinking with
// `thinking: {type: 'enabled', budget_tokens}` (below max_tokens, at least 1,024) or `{type: 'adaptive'}`;
// the reply's thinking block carries a signature only the API can make (here: an HMAC of the text with a
// secret of this fake), and a hidden one comes as `redacted_thinking` with opaque data. In a turn that
// used tools, the next request must bring the turn's first assistant message back starting with its
// thinking, unchanged: a dropped or altered block is a 400, worded as the API words it.

/** The secret behind the fake's signatures: a host cannot make a valid one, only send back what it got. */
const SECRET = 'fake-anthropic-thinking-secret';

export function thinkingSignature(thinking: string): string {
  return createHmac('sha256', SECRET).update(`thinking\n${thinking}`).digest('base64');
}

/** A redacted block's data: the text sealed so that only the fake can check it (opaque to the host). */
export function redactedData(thinking: string): string {
  const body = Buffer.from(thinking, 'utf8').toString('base64');
  return `${body}.${createHmac('sha256', SECRET).update(`redacted\n${body}`).digest('base64')}`;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function validRedacted(data: unknown): boolean {
  if (typeof data !== 'string') return false;
  const [body, mac] = data.split('.');
  return (
    body !== undefined &&
    mac !== undefined &&
    sameText(mac, createHmac('sha256', SECRET).update(`redacted\n${body}`).digest('base64'))
  );
}

/** Whether the request asks for thinking (and so gets thinking blocks back). */
export function asksForThinking(body: MessagesRequestBody | undefined): boolean {
  const thinking = (body as { thinking?: { type?: unknown } } | undefined)?.thinking;
  return thinking?.type === 'enabled' || thinking?.type === 'adaptive';
}

const isThinking = (block: RequestContentBlock | undefined): boolean =>
  block?.type === 'thinking' || block?.type === 'redacted_thinking';

/** A user message the person wrote: the start of a turn (a message of only tool results continues one). */
function startsTurn(message: MessagesRequestBody['messages'][number]): boolean {
  return message.role === 'user' && blocksOf(message).some((block) => block.type !== 'tool_result');
}

/**
 * The API's error message when the request breaks a thinking rule, else undefined. `thoughtBefore`: ids of the
 * tool_use blocks this fake sent after a thinking block (with adaptive thinking the model may not think at all,
 * and then there is nothing to send back).
 */
export function thinkingError(body: MessagesRequestBody, thoughtBefore: ReadonlySet<string>): string | undefined {
  const config = (body as { thinking?: { type?: unknown; budget_tokens?: unknown } }).thinking;
  if (config?.type === 'enabled') {
    const budget = config.budget_tokens;
    if (typeof budget !== 'number' || budget < 1024)
      return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    if (budget >= body.max_tokens)
      return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  }
  if (asksForThinking(body) && typeof body.temperature === 'number' && body.temperature !== 1) {
    return '`temperature` may only be set to 1 when thinking is enabled or in interleaved thinking mode. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility';
  }
  for (const [index, message] of body.messages.entries()) {
    if (message.role !== 'assistant') continue;
    for (const [blockIndex, block] of blocksOf(message).entries()) {
      if (block.type === 'thinking') {
        const valid =
          typeof block.thinking === 'string' &&
          typeof block.signature === 'string' &&
          sameText(block.signature, thinkingSignature(block.thinking));
        if (!valid) return `messages.${index}.content.${blockIndex}: Invalid \`signature\` in \`thinking\` block`;
      } else if (block.type === 'redacted_thinking' && !validRedacted(block.data))
        return `messages.${index}.content.${blockIndex}: Invalid \`data\` in \`redacted_thinking\` block`;
    }
  }
  if (!asksForThinking(body)) return undefined;
  // The current turn: from the person's last message on. Its first assistant message, when the turn goes on
  // after tool use, must start with the thinking it came with.
  const start = body.messages.findLastIndex(startsTurn);
  const firstReply = body.messages.findIndex((message, index) => index > start && message.role === 'assistant');
  if (firstReply === -1) return undefined;
  const reply = body.messages[firstReply];
  const usedTools = body.messages
    .slice(firstReply)
    .some((message) => message.role === 'assistant' && blocksOf(message).some((block) => block.type === 'tool_use'));
  // A compaction block the API put first in the reply (fake-compaction.ts) stays before its thinking.
  const replyBlocks = reply === undefined ? [] : blocksOf(reply).filter((block) => block.type !== 'compaction');
  if (reply === undefined || !usedTools || isThinking(replyBlocks[0])) return undefined;
  const thought =
    (body as { thinking?: { type?: unknown } }).thinking?.type === 'enabled' ||
    blocksOf(reply).some((block) => block.type === 'tool_use' && thoughtBefore.has(String(block.id)));
  if (!thought) return undefined;
  const found = replyBlocks[0]?.type ?? 'nothing';
  return `messages.${firstReply}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
}
