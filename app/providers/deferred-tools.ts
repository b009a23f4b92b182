import type { MessageParam, Tool, ToolReferenceBlockParam } from '@anthropic-ai/sdk/resources/messages';

// Deferred tool loading as the Messages API does it: a tool sent with `defer_loading: true` is not
// part of the prompt until a tool_result refers to it with a `tool_reference` block; the API then
// puts the tool's definition there, in the conversation. Loading a tool so only adds to the
// conversation and leaves the tool list — the start of the prompt, which the cache keeps — as it was.

/** A tool the request lists but the model reads only once a tool_reference loads it. */
export function isDeferred(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && (tool as { defer_loading?: unknown }).defer_loading === true;
}

/** The tool_reference blocks of a tool_result's content. */
function referencesIn(content: unknown): ToolReferenceBlockParam[] {
  if (!Array.isArray(content)) return [];
  return content.filter(
    (block): block is ToolReferenceBlockParam =>
      typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'tool_reference',
  );
}

/** Names of the tools the messages' tool results refer to, in the order they are first referred to. */
export function referencedToolNames(messages: readonly { role: string; content: unknown }[]): string[] {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const block of message.content as unknown[]) {
      if (typeof block !== 'object' || block === null || (block as { type?: unknown }).type !== 'tool_result') continue;
      for (const reference of referencesIn((block as { content?: unknown }).content)) names.add(reference.tool_name);
    }
  }
  return [...names];
}

/** The tools the model reads in a request: those not deferred, and the deferred ones its tool results loaded. */
export function visibleTools<T>(
  tools: readonly T[] | undefined,
  messages: readonly { role: string; content: unknown }[],
): T[] {
  if (tools === undefined) return [];
  if (!tools.some(isDeferred)) return [...tools];
  const loaded = new Set(referencedToolNames(messages));
  return tools.filter((tool) => !isDeferred(tool) || loaded.has((tool as { name?: unknown }).name as string));
}

/** What a tool_reference becomes for an endpoint that does not load deferred tools. */
export function loadedToolText(name: string): string {
  return `Tool ${name} is loaded: its definition is in your tool list.`;
}

/**
 * The request as an endpoint without deferred loading takes it (an Anthropic-compatible proxy that
 * refuses `defer_loading`): the tools the conversation loaded are listed after the others, in the order
 * they were loaded, the rest are left out, and each tool_reference becomes a line saying the tool is loaded.
 */
export function withoutDeferral<T extends { tools?: Tool[]; messages: MessageParam[] }>(request: T): T {
  const tools = request.tools;
  if (tools === undefined || !tools.some(isDeferred)) return request;
  const byName = new Map(tools.filter(isDeferred).map((tool) => [tool.name, tool]));
  const loaded = referencedToolNames(request.messages).flatMap((name) => {
    const tool = byName.get(name);
    if (tool === undefined) return [];
    const { defer_loading: _deferred, ...definition } = tool;
    return [definition];
  });
  const messages = request.messages.map((message): MessageParam => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    return {
      ...message,
      content: message.content.map((block) => {
        if (block.type !== 'tool_result' || referencesIn(block.content).length === 0) return block;
        const content = (block.content as Exclude<typeof block.content, string | undefined>).map((part) =>
          part.type === 'tool_reference' ? { type: 'text' as const, text: loadedToolText(part.tool_name) } : part,
        );
        return { ...block, content };
      }),
    };
  });
  return { ...request, tools: [...tools.filter((tool) => !isDeferred(tool)), ...loaded], messages };
}

/** Whether a 400's message says the endpoint does not take deferred tools or tool references. */
export function refusesDeferral(message: string): boolean {
  return /defer_loading|tool_reference/i.test(message) && !/not found in available tools/i.test(message);
}
