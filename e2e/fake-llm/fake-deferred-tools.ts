import type { MessagesRequestBody, RequestContentBlock } from './validate-request';
import { blocksOf } from './validate-request';

// Deferred tool loading as the Messages API does it (platform.claude.com/docs/en/agents-and-tools/
// tool-use/tool-search-tool, "custom tool search"): a tool sent with `defer_loading: true` is not part
// of the prompt — not counted, not cached, not callable — until a tool_result refers to it with a
// `tool_reference` block; the API then puts the tool's definition there, inline, so the prompt before
// it (tools, system, earlier messages) stays as it was and the cache keeps it. A reference the API
// cannot resolve, and a deferred tool that carries a cache mark, are refused with its errors.

type Tool = NonNullable<MessagesRequestBody['tools']>[number];

/** The API's refusal: its message, and the `error_code` its error details carry when it has one. */
export interface DeferredToolsError {
  message: string;
  code?: string;
}

const isDeferred = (tool: Tool): boolean => tool.defer_loading === true;

function isReference(block: unknown): block is { type: 'tool_reference'; tool_name: unknown } {
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'tool_reference';
}

/** The content of a tool_result, as blocks (a string is one text). */
const resultParts = (block: RequestContentBlock): unknown[] => (Array.isArray(block.content) ? block.content : []);

/** The API's error for what it refuses about deferred tools and references in `body`, else undefined. */
export function deferredToolsError(body: MessagesRequestBody): DeferredToolsError | undefined {
  const tools = body.tools ?? [];
  for (const tool of tools)
    if (isDeferred(tool) && tool.cache_control != null)
      return {
        message: `Tool '${tool.name}' cannot have both defer_loading=true and cache_control set. Tools with defer_loading cannot use prompt caching.`,
      };
  // References resolve against the deferred tools only: a tool the prompt already holds is not loaded again.
  const deferred = new Set(tools.filter(isDeferred).map((tool) => tool.name));
  for (const [index, message] of body.messages.entries()) {
    for (const [at, block] of blocksOf(message).entries()) {
      if (isReference(block))
        return {
          message: `messages.${index}.content.${at}: tool_reference blocks are only valid inside tool_result content`,
        };
      if (block.type !== 'tool_result') continue;
      for (const part of resultParts(block)) {
        if (!isReference(part)) continue;
        const name = String(part.tool_name);
        if (!deferred.has(name))
          return {
            message: `Tool reference '${name}' not found in available tools`,
            code: 'tool_reference_unresolved',
          };
      }
    }
  }
  return undefined;
}

/**
 * The request as the model reads it, for counting and caching: the tools without the deferred ones, and
 * each tool_reference in a tool result carrying the definition the API expands it to.
 */
export function promptView(body: MessagesRequestBody): MessagesRequestBody {
  const tools = body.tools ?? [];
  if (!tools.some(isDeferred)) return body;
  const definitions = new Map(
    tools.filter(isDeferred).map((tool) => {
      const { defer_loading: _deferred, ...definition } = tool;
      return [tool.name, definition];
    }),
  );
  const messages = body.messages.map((message) => {
    if (typeof message.content === 'string') return message;
    const content = message.content.map((block) => {
      if (block.type !== 'tool_result' || !Array.isArray(block.content)) return block;
      return {
        ...block,
        content: (block.content as unknown[]).map((part) => {
          if (!isReference(part)) return part;
          const { tool_name: name, ...rest } = part;
          return { ...rest, definition: definitions.get(String(name)) };
        }),
      };
    });
    return { ...message, content };
  });
  return { ...body, tools: tools.filter((tool) => !isDeferred(tool)), messages };
}

/** The deferred tools of `body` the model cannot call: no tool result loaded them (yet). */
export function unloadedTools(body: MessagesRequestBody): Set<string> {
  const unloaded = new Set((body.tools ?? []).filter(isDeferred).map((tool) => tool.name));
  for (const message of body.messages)
    for (const block of blocksOf(message))
      if (block.type === 'tool_result')
        for (const part of resultParts(block)) if (isReference(part)) unloaded.delete(String(part.tool_name));
  return unloaded;
}
