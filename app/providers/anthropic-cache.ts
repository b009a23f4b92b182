import type {
  CacheControlEphemeral,
  ContentBlockParam,
  MessageParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import { isDeferred } from './deferred-tools';

// Prompt caching for the Messages API. The API caches the prompt in its order — tools, system,
// messages — up to each block marked with `cache_control`, and a later request whose prompt
// starts with the same blocks reads that prefix from the cache (a tenth of the input price)
// instead of paying for it again. A chat turn re-sends everything before it, so the API's
// automatic mark (a top-level `cache_control`: on the last block, moving forward as the
// conversation grows) caches the whole conversation for the next request, which finds it by
// checking up to CACHE_LOOKBACK_BLOCKS blocks back from its own last block.

/** The API refuses a request with more breakpoints than this. */
export const MAX_CACHE_BREAKPOINTS = 4;
/** How many blocks before a breakpoint the API checks for an earlier cached prefix. */
export const CACHE_LOOKBACK_BLOCKS = 20;

const EPHEMERAL: CacheControlEphemeral = { type: 'ephemeral' };

/** The parts of a Messages request that caching marks. */
export interface CacheablePrompt {
  tools?: Tool[];
  messages: MessageParam[];
  cache_control?: CacheControlEphemeral | null;
}

const blockCount = (message: MessageParam): number =>
  typeof message.content === 'string' ? 1 : message.content.length;

/** Blocks that may not carry cache_control (thinking is cached as part of its turn, never marked itself). */
function markable(block: ContentBlockParam): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  return block.type !== 'text' || block.text !== '';
}

/**
 * The message with its last markable block marked — before its last `skip` blocks — or undefined when it has none
 * there.
 */
function marked(message: MessageParam, skip = 0): MessageParam | undefined {
  if (message.role !== 'user') return undefined;
  const blocks: ContentBlockParam[] =
    typeof message.content === 'string'
      ? message.content === ''
        ? []
        : [{ type: 'text', text: message.content }]
      : [...message.content];
  const at = blocks.findLastIndex((block, index) => index < blocks.length - skip && markable(block));
  const target = blocks[at];
  if (target === undefined) return undefined;
  blocks[at] = { ...target, cache_control: EPHEMERAL } as ContentBlockParam;
  return { ...message, content: blocks };
}

/**
 * The request marked for the prompt cache: the automatic mark (the whole prompt, for the next
 * request), the last tool (the tool list is most of a tool-heavy prompt and outlives an edited
 * conversation), and — only when this request added more blocks since the previous user message
 * than the API looks back over (many parallel tool calls) — that user message, where the previous
 * request's prompt ended. Nothing the model reads changes, and the messages stay as they were
 * unless that last case needs a mark in them.
 *
 * `uncachedTail`: the last message's last blocks that this request alone carries (what an open MCP
 * App adds to the turn, which the next request does not repeat there). The conversation's mark then
 * goes on the block before them instead of the automatic one: a prefix that ended in them would
 * never be read, and the next request finds the conversation cached up to where they began.
 */
export function withCacheBreakpoints<T extends CacheablePrompt>(request: T, uncachedTail = 0): T {
  // A deferred tool is not part of the prompt until loaded, and the API refuses a mark on one: the last tool the
  // prompt starts with is the last one not deferred.
  const lastTool = request.tools?.findLastIndex((tool) => !isDeferred(tool)) ?? -1;
  const tools =
    request.tools !== undefined && lastTool !== -1
      ? request.tools.map((tool, index) => (index === lastTool ? { ...tool, cache_control: EPHEMERAL } : tool))
      : request.tools;
  let messages = request.messages;
  const previous = messages.findLastIndex((message, index) => index < messages.length - 1 && message.role === 'user');
  const since = messages.slice(previous + 1).reduce((sum, message) => sum + blockCount(message), 0);
  const mark =
    previous === -1 || since < CACHE_LOOKBACK_BLOCKS ? undefined : marked(messages[previous] as MessageParam);
  if (mark !== undefined) messages = messages.map((message, index) => (index === previous ? mark : message));
  const last = messages.at(-1);
  if (uncachedTail <= 0 || last === undefined)
    return { ...request, ...(tools !== undefined ? { tools } : {}), messages, cache_control: EPHEMERAL };
  const before = marked(last, uncachedTail);
  if (before !== undefined) messages = [...messages.slice(0, -1), before];
  const { cache_control: _automatic, ...rest } = request;
  return { ...rest, ...(tools !== undefined ? { tools } : {}), messages } as T;
}

/** Whether a 400's message says the endpoint does not take cache marks (a proxy or gateway that validates strictly). */
export function refusesCacheControl(message: string): boolean {
  return /cache_control/i.test(message);
}
