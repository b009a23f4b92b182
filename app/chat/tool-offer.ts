import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { toolKey } from '../../shared/domain/chat';
import type { Conversation } from '../../shared/domain/chat';
import { estimateTokens } from '../../shared/domain/chat-usage';
import { toolDefinitions } from './api-messages';
import type { AvailableTool } from './api-messages';
import type { HostTool } from './host-tools/host-tool';
import type { HostToolRegistry } from './host-tools/host-tool-registry';
import { toolLoadWarning } from './tool-warnings';
import type { ToolWarningLimits } from './tool-warnings';
import { ToolNameMap } from './tool-names';
import { messagesAfterCut } from './context/context-cut';
import { loadedInHistory } from './tool-search/tool-references';

// What one model request of a conversation is offered: the MCP tools its switches leave on (all of
// them, or only those a host tool provider such as tool search narrowed them to), the host tools,
// their definitions as sent, and the estimates the usage line and the warnings use.

/** The tools of one model request. */
export interface ToolOffer {
  /** Enabled MCP tools: the names map covers all of them, so a tool keeps its name when others are loaded. */
  enabled: AvailableTool[];
  /** The MCP tools whose definitions are sent. */
  offered: AvailableTool[];
  names: ToolNameMap;
  hostTools: ReadonlyMap<string, HostTool>;
  /**
   * MCP definitions (offered) then host tools', as the request carries them. With `references`, the host tools' then
   * every enabled tool's, deferred (`defer_loading`): the list stays the same whatever the model loads.
   */
  definitions: Tool[];
  /** How many of `definitions` the model reads (the deferred ones only once loaded). */
  toolCount: number;
  /** Estimated tokens of the definitions the model reads. */
  toolTokens: number;
  /**
   * Set when the provider loads deferred tools itself and tool search is on: toolKey → API name of each tool that is
   * loaded, for the tool_references in the load_tools results that loaded them (tool-search/tool-references.ts).
   */
  references?: ReadonlyMap<string, string>;
  /** Estimated tokens the definitions of every enabled tool would take: set only when fewer were sent (tool search). */
  fullToolTokens?: number;
  warning?: string;
}

export interface ToolOfferInput {
  conversation: Conversation;
  /** Every ready server's tools. */
  available: readonly AvailableTool[];
  hostTools: HostToolRegistry | undefined;
  contextWindow: number | undefined;
  limits: ToolWarningLimits;
  /** The model's token correction (TokenEstimator.factor, app/chat/context): the provider's count ÷ Berth's estimate. */
  tokenFactor?: number;
  /** The model's provider loads deferred tools itself (Anthropic's `defer_loading` and tool_reference). */
  defersTools?: boolean;
}

export function tokensOf(definitions: readonly Tool[]): number {
  // The definitions as the request serializes them: what the estimate (and the share warning) is about.
  return definitions.length === 0 ? 0 : estimateTokens(JSON.stringify(definitions));
}

/** The last estimate of every enabled tool's definitions, and the tools it was made for. */
let lastEnabled: { tools: readonly AvailableTool[]; tokens: number } | undefined;

/**
 * Estimated tokens of every enabled tool's definitions. Tool search's threshold and the usage line's
 * saving both ask it at each model request, with 2,000 tools the same as last time: the same tool
 * objects (a server's list is replaced, not edited, when it changes) give the last estimate without
 * serializing them again.
 */
export function enabledDefinitionTokens(enabled: readonly AvailableTool[], names: ToolNameMap): number {
  const last = lastEnabled;
  if (
    last !== undefined &&
    last.tools.length === enabled.length &&
    last.tools.every((entry, index) => entry.tool === enabled[index]?.tool && entry.server === enabled[index]?.server)
  ) {
    return last.tokens;
  }
  const tokens = tokensOf(toolDefinitions(enabled, names));
  lastEnabled = { tools: enabled, tokens };
  return tokens;
}

export function hostToolDefinition(tool: HostTool): Tool {
  return {
    name: tool.name,
    description: `${tool.description}\n\n(Answered by Berth, the app you run in; not an MCP server's tool.)`,
    input_schema: { ...tool.inputSchema, type: 'object' },
  };
}

/** The last deferred definitions of every enabled tool, and the tools and API names they were made for. */
let lastDeferred: { tools: readonly AvailableTool[]; apiNames: string[]; definitions: Tool[] } | undefined;

/**
 * Every enabled tool's definition, deferred. Built once for the same tool objects under the same API names (a heavy
 * user's 2,000 tools at each model request: the names map is rebuilt per request, the names it gives are not).
 */
function deferredDefinitions(enabled: readonly AvailableTool[], names: ToolNameMap): Tool[] {
  const apiNames = enabled.map(({ server, tool }) => names.apiName(server, tool.name) ?? '');
  const last = lastDeferred;
  if (
    last !== undefined &&
    last.tools.length === enabled.length &&
    last.tools.every(
      (entry, index) =>
        entry.tool === enabled[index]?.tool &&
        entry.server === enabled[index]?.server &&
        last.apiNames[index] === apiNames[index],
    )
  )
    return last.definitions;
  const definitions = toolDefinitions(enabled, names).map((tool) => ({ ...tool, defer_loading: true }));
  lastDeferred = { tools: enabled, apiNames, definitions };
  return definitions;
}

export function offerTools({
  conversation,
  available,
  hostTools,
  contextWindow,
  limits,
  tokenFactor = 1,
  defersTools = false,
}: ToolOfferInput): ToolOffer {
  const disabledServers = new Set(conversation.disabledServers);
  const disabledTools = new Set(conversation.disabledTools);
  const enabled = available.filter(
    ({ server, tool }) => !disabledServers.has(server) && !disabledTools.has(toolKey(server, tool.name)),
  );
  const names = ToolNameMap.build(
    enabled.map(({ server, tool }) => ({ server, tool: tool.name })),
    hostTools?.reservedNames(),
  );
  const host = hostTools?.offer({ conversation, enabled, names, contextWindow, tokenFactor, defersTools }) ?? {
    tools: new Map<string, HostTool>(),
    sendOnly: undefined,
  };
  const { sendOnly } = host;
  if (defersTools && sendOnly !== undefined)
    return deferredOffer({
      conversation,
      enabled,
      names,
      hostTools: host.tools,
      sendOnly,
      contextWindow,
      limits,
      tokenFactor,
    });
  const offered = sendOnly === undefined ? enabled : inSendOrder(enabled, sendOnly);
  const mcpDefinitions = toolDefinitions(offered, names);
  const hostDefinitions = [...host.tools.values()].map(hostToolDefinition);
  // A narrowed list (tool search) grows by appending: its host tools first, then each loaded tool after those loaded
  // before it, so a load leaves the tools already sent where they were and the prompt cache keeps them.
  const definitions =
    sendOnly === undefined ? [...mcpDefinitions, ...hostDefinitions] : [...hostDefinitions, ...mcpDefinitions];
  const toolTokens = Math.ceil(tokensOf(definitions) * tokenFactor);
  const fullToolTokens =
    offered.length < enabled.length ? Math.ceil(enabledDefinitionTokens(enabled, names) * tokenFactor) : undefined;
  // The warning is about what is sent: with tool search on, 2,000 enabled tools are not a problem.
  const warning = toolLoadWarning({ count: definitions.length, tokensEstimate: toolTokens, contextWindow }, limits);
  return {
    enabled,
    offered,
    names,
    hostTools: host.tools,
    definitions,
    toolCount: definitions.length,
    toolTokens,
    ...(fullToolTokens !== undefined ? { fullToolTokens } : {}),
    ...(warning !== undefined ? { warning } : {}),
  };
}

/**
 * The offer when tool search is on and the provider loads deferred tools itself: the host tools, then every enabled
 * tool deferred, so the tool list — the start of the prompt — never changes when the model loads one; the model can
 * call the loaded tools whose load_tools result is still in the conversation (not cut by compaction).
 */
function deferredOffer(input: {
  conversation: Conversation;
  enabled: AvailableTool[];
  names: ToolNameMap;
  hostTools: ReadonlyMap<string, HostTool>;
  sendOnly: ReadonlySet<string>;
  contextWindow: number | undefined;
  limits: ToolWarningLimits;
  tokenFactor: number;
}): ToolOffer {
  const { conversation, enabled, names, hostTools, sendOnly, contextWindow, limits, tokenFactor } = input;
  const byKey = new Map(enabled.map((entry) => [toolKey(entry.server, entry.tool.name), entry]));
  const references = new Map<string, string>();
  for (const key of sendOnly) {
    const entry = byKey.get(key);
    const name = entry === undefined ? undefined : names.apiName(entry.server, entry.tool.name);
    if (name !== undefined) references.set(key, name);
  }
  const loaded = loadedInHistory(messagesAfterCut(conversation), new Set(references.keys()));
  const offered = loaded.flatMap((key) => {
    const entry = byKey.get(key);
    return entry === undefined ? [] : [entry];
  });
  const hostDefinitions = [...hostTools.values()].map(hostToolDefinition);
  // What the model reads: the host tools, and each loaded tool's definition where it was loaded.
  const read = [...hostDefinitions, ...toolDefinitions(offered, names)];
  const toolTokens = Math.ceil(tokensOf(read) * tokenFactor);
  const fullToolTokens =
    offered.length < enabled.length ? Math.ceil(enabledDefinitionTokens(enabled, names) * tokenFactor) : undefined;
  const warning = toolLoadWarning({ count: read.length, tokensEstimate: toolTokens, contextWindow }, limits);
  return {
    enabled,
    offered,
    names,
    hostTools,
    definitions: [...hostDefinitions, ...deferredDefinitions(enabled, names)],
    toolCount: read.length,
    toolTokens,
    references,
    ...(fullToolTokens !== undefined ? { fullToolTokens } : {}),
    ...(warning !== undefined ? { warning } : {}),
  };
}

/** The enabled tools a provider narrowed the request to, in its order (tool search: the order they were loaded in). */
function inSendOrder(enabled: readonly AvailableTool[], sendOnly: ReadonlySet<string>): AvailableTool[] {
  // One pass over the enabled tools (2,000 at a heavy user's), keeping only the few sent.
  const sent = new Map<string, AvailableTool>();
  for (const entry of enabled) {
    const key = toolKey(entry.server, entry.tool.name);
    if (sendOnly.has(key)) sent.set(key, entry);
  }
  return [...sendOnly].flatMap((key) => {
    const entry = sent.get(key);
    return entry === undefined ? [] : [entry];
  });
}

/**
 * Why the model may not call this MCP tool in this request, or undefined when it may: a tool that
 * tool search has not loaded has no definition in the request, so the model is asked to load it first.
 */
export function notOfferedReason(offer: ToolOffer, server: string, tool: string): string | undefined {
  if (offer.offered.length === offer.enabled.length) return undefined;
  if (offer.offered.some((entry) => entry.server === server && entry.tool.name === tool)) return undefined;
  return `The tool "${offer.names.apiName(server, tool) ?? tool}" is not loaded in this conversation: load it with load_tools first, then call it.`;
}
