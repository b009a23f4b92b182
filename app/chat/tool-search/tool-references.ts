import type { ToolReferenceBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ChatToolResultBlock } from '../../../shared/domain/chat';
import { HOST_TOOL_SERVER } from '../../../shared/domain/host-tools';
import type { ToolResultShaper } from '../api-messages';

// Tool search with a provider that loads deferred tools itself (Anthropic): every enabled tool is
// listed with `defer_loading`, and a load_tools result carries a tool_reference to each tool it
// loaded, where the API puts the tool's definition. The request is built from what is saved, so the
// same history gives the same references in every later request: the prompt before them stays
// byte-identical, and the cache keeps it.

/**
 * The tools (toolKeys) the history's load_tools results loaded, in the order first loaded, that are
 * `live` (still loaded in the conversation, and enabled): the tools the model can call.
 */
export function loadedInHistory(messages: readonly ChatMessage[], live: ReadonlySet<string>): string[] {
  const loaded = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const block of message.content)
      if (block.type === 'tool_result' && block.loadsTools !== undefined)
        for (const key of block.loadsTools) if (live.has(key)) loaded.add(key);
  }
  return [...loaded];
}

/**
 * Shapes each tool result as `inner` does, and adds to a load_tools result a tool_reference for each
 * tool it loaded that is still `live` (by its API name) — only at the tool's first load, since the
 * API has its definition from there on. One instance per request: it remembers what it referenced.
 */
export class ToolReferences implements ToolResultShaper {
  private readonly referenced = new Set<string>();

  constructor(
    private readonly inner: ToolResultShaper,
    /** toolKey → API name of every tool that may be referenced (loaded and enabled). */
    private readonly live: ReadonlyMap<string, string>,
  ) {}

  toolResult(block: ChatToolResultBlock, server: string | undefined): ToolResultBlockParam {
    const result = this.inner.toolResult(block, server);
    if (server !== HOST_TOOL_SERVER || block.loadsTools === undefined) return result;
    const references: ToolReferenceBlockParam[] = [];
    for (const key of block.loadsTools) {
      const name = this.live.get(key);
      if (name === undefined || this.referenced.has(key)) continue;
      this.referenced.add(key);
      references.push({ type: 'tool_reference', tool_name: name });
    }
    if (references.length === 0) return result;
    const content =
      typeof result.content === 'string' ? [{ type: 'text' as const, text: result.content }] : (result.content ?? []);
    return { ...result, content: [...content, ...references] };
  }
}
