import { createHash } from 'node:crypto';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

// A conversation can change model, and provider, between turns: the tool_use
// ids one provider made are then sent to another, which may refuse them.
// - Anthropic takes ids of [A-Za-z0-9_-] only (a Kimi-style `functions.read:0`
//   from a vLLM server fails the whole request);
// - OpenAI (and Azure, and servers that copy its validation) refuse ids over
//   40 characters (vLLM makes `chatcmpl-tool-` + 32 hex = 46);
// - Mistral's API, and the chat templates of Mistral models on local servers
//   (vLLM, llama.cpp, MLX), take exactly 9 characters of [A-Za-z0-9] and
//   nothing else ("Tool call id was toolu_… but must be a-z, A-Z, 0-9, with a
//   length of 9").
// As LiteLLM and the multi-provider apps do, Berth keeps the stored history
// as it was and rewrites ids only in the request, only where the target would
// refuse them: an id it takes goes out untouched (a model sees its own ids
// back), one it would refuse becomes a hash of itself in the target's form.
// The same id maps to the same replacement in every request (the prompt stays
// cacheable), a call and its result keep matching, and no replacement can
// collide with another id of the request. An id used again by a later call
// (some local servers number calls from 0 each reply) is made unique too.

/** What ids a target takes, and what a replacement looks like. */
export interface ToolCallIdRule {
  /** Named in tests and comments. */
  name: string;
  accepts(id: string): boolean;
  /** A replacement made from base-62 digest characters (at least `length` of them). */
  prefix: string;
  length: number;
}

export const ANTHROPIC_TOOL_IDS: ToolCallIdRule = {
  name: 'anthropic',
  accepts: (id) => /^[A-Za-z0-9_-]{1,64}$/.test(id),
  prefix: 'toolu_',
  length: 24,
};

/** Printable ASCII without spaces, at most 40: what OpenAI takes, and every other server we know of. */
export const OPENAI_TOOL_IDS: ToolCallIdRule = {
  name: 'openai',
  accepts: (id) => /^[\x21-\x7e]{1,40}$/.test(id),
  prefix: 'call_',
  length: 24,
};

export const MISTRAL_TOOL_IDS: ToolCallIdRule = {
  name: 'mistral',
  accepts: (id) => /^[A-Za-z0-9]{9}$/.test(id),
  prefix: '',
  length: 9,
};

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62Digest(text: string, length: number): string {
  const bytes = createHash('sha256').update(text).digest();
  let out = '';
  // 32 bytes give 32 characters; a small modulo bias does not matter for ids.
  for (let index = 0; index < length; index += 1) out += BASE62[(bytes[index % bytes.length] as number) % 62];
  return out;
}

/**
 * The messages with every tool_use id (and the tool_result ids that answer
 * it) the target would refuse, or that an earlier call already used, replaced.
 * Messages without such ids are returned as they are.
 */
export function toolCallIdsFor(messages: readonly MessageParam[], rule: ToolCallIdRule): MessageParam[] {
  const taken = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_use' && rule.accepts(block.id)) taken.add(block.id);
  }
  const usedByCalls = new Set<string>();
  /** What each original id stands for now: set by its latest call, read by the results after it. */
  const current = new Map<string, string>();
  const replace = (id: string, occurrence: number): string => {
    for (let attempt = 0; ; attempt += 1) {
      const candidate = rule.prefix + base62Digest(`${id}\u0000${occurrence}\u0000${attempt}`, rule.length);
      if (!taken.has(candidate)) {
        taken.add(candidate);
        return candidate;
      }
    }
  };
  const seen = new Map<string, number>();
  return messages.map((message) => {
    if (typeof message.content === 'string') return message;
    let changed = false;
    const content = message.content.map((block) => {
      if (block.type === 'tool_use') {
        const occurrence = seen.get(block.id) ?? 0;
        seen.set(block.id, occurrence + 1);
        const id = rule.accepts(block.id) && !usedByCalls.has(block.id) ? block.id : replace(block.id, occurrence);
        usedByCalls.add(block.id);
        current.set(block.id, id);
        if (id === block.id) return block;
        changed = true;
        return { ...block, id };
      }
      if (block.type === 'tool_result') {
        // A result without its call (a cut history) keeps a valid id of its own.
        const id =
          current.get(block.tool_use_id) ??
          (rule.accepts(block.tool_use_id) ? block.tool_use_id : replace(block.tool_use_id, 0));
        if (id === block.tool_use_id) return block;
        changed = true;
        return { ...block, tool_use_id: id };
      }
      return block;
    });
    return changed ? ({ ...message, content } as MessageParam) : message;
  });
}
