import { countTextTokens, countValueTokens, MESSAGE_OVERHEAD } from './fake-token-count';
import { createHash } from 'node:crypto';
import type { MessagesRequestBody } from './validate-request';
import { blocksOf } from './validate-request';

// The fake Messages API's prompt cache, accounted by prefix as the real one is
// (platform.claude.com/docs/en/build-with-claude/prompt-caching): the prompt is
// read in order — tools, system, messages, block by block — and a block marked
// with `cache_control` (or the last block, with a top-level `cache_control`)
// writes the prefix up to it; a later request of the same model whose prompt
// starts with those same blocks reads them (cache_read_input_tokens), checking
// each breakpoint and up to 20 blocks before it; what follows the read is
// written up to the last breakpoint (cache_creation_input_tokens) and the rest
// is input_tokens. A prefix shorter than the minimum is never cached, and an
// entry lives 5 minutes from its last use. Tokens are counted by the fakes'
// own tokenizer (fake-token-count.ts), as their usage and context windows are.

export const MIN_CACHEABLE_TOKENS = 1024;
export const CACHE_TTL_MS = 5 * 60_000;
/** How many blocks before a breakpoint the API checks for an earlier cached prefix. */
export const CACHE_LOOKBACK_BLOCKS = 20;
const MAX_BREAKPOINTS = 4;

/** What a request is billed, in the API's usage fields. */
export interface PromptCacheBill {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

interface PromptBlock {
  /** The block's identity: its place (tools, system, a message's role) and its JSON without cache_control. */
  key: string;
  tokens: number;
  marked: boolean;
}

function hasMark(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { cache_control?: unknown }).cache_control != null;
}

function unmarked(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const { cache_control: _mark, ...rest } = value as Record<string, unknown>;
  return JSON.stringify(rest);
}

function block(place: string, value: unknown): PromptBlock {
  const json = unmarked(value);
  return { key: `${place}\u0000${json}`, tokens: countValueTokens(value), marked: hasMark(value) };
}

/** The prompt as the cache sees it: every block in order. */
function promptBlocks(body: MessagesRequestBody): PromptBlock[] {
  const blocks = (body.tools ?? []).map((tool) => block('tool', tool));
  const system = body.system;
  if (typeof system === 'string') {
    if (system !== '') blocks.push(block('system', { type: 'text', text: system }));
  } else if (system !== undefined) for (const part of system) blocks.push(block('system', part));
  for (const message of body.messages) {
    const parts = blocksOf(message).map((part) => block(message.role, part));
    // A message's framing (its role, the markers around it) counts with its first block, so the blocks add up to
    // the whole prompt as the fake's usage and context window count it (countPromptTokens).
    if (parts[0] !== undefined) parts[0].tokens += MESSAGE_OVERHEAD + countTextTokens(message.role);
    blocks.push(...parts);
  }
  return blocks;
}

/** A cache of prompt prefixes, as one API key's organization has it. */
export class FakePromptCache {
  private readonly entries = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The API's error for a request whose marks it refuses (checked before anything else is answered), else undefined. */
  refusal(body: MessagesRequestBody): string | undefined {
    const found = promptBlocks(body).filter((entry) => entry.marked).length + (hasMark(body) ? 1 : 0);
    return found > MAX_BREAKPOINTS
      ? `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`
      : undefined;
  }

  /** The usage of this request (the cache updated as the API does), or the API's error when it may not be cached. */
  bill(body: MessagesRequestBody): PromptCacheBill | { error: string } {
    const refused = this.refusal(body);
    if (refused !== undefined) return { error: refused };
    const blocks = promptBlocks(body);
    if (blocks.length > 0 && hasMark(body)) (blocks.at(-1) as PromptBlock).marked = true;
    const breakpoints = blocks.flatMap((entry, index) => (entry.marked ? [index] : []));
    // Each block's prefix, as a running hash, and the tokens up to it.
    const prefixes: Array<{ hash: string; tokens: number }> = [];
    let hash = createHash('sha256').update(body.model).digest('hex');
    let tokens = 0;
    for (const entry of blocks) {
      hash = createHash('sha256').update(hash).update(entry.key).digest('hex');
      tokens += entry.tokens;
      prefixes.push({ hash, tokens });
    }
    const now = this.now();
    for (const [key, expires] of this.entries) if (expires <= now) this.entries.delete(key);

    let read = 0;
    for (const at of breakpoints) {
      for (let index = at; index >= Math.max(0, at - CACHE_LOOKBACK_BLOCKS); index -= 1) {
        const prefix = prefixes[index] as { hash: string; tokens: number };
        if (!this.entries.has(prefix.hash)) continue;
        this.entries.set(prefix.hash, now + CACHE_TTL_MS);
        read = Math.max(read, prefix.tokens);
        break;
      }
    }
    let written = read;
    for (const at of breakpoints) {
      const prefix = prefixes[at] as { hash: string; tokens: number };
      if (prefix.tokens < MIN_CACHEABLE_TOKENS) continue;
      this.entries.set(prefix.hash, now + CACHE_TTL_MS);
      written = Math.max(written, prefix.tokens);
    }
    return {
      input_tokens: Math.max(0, tokens - written),
      cache_read_input_tokens: read,
      cache_creation_input_tokens: written - read,
    };
  }

  /** Forget every cached prefix. */
  clear(): void {
    this.entries.clear();
  }
}
