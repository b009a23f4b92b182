import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { toolKey } from '../../shared/domain/chat';
import type { Conversation } from '../../shared/domain/chat';
import { estimateTokens } from '../../shared/domain/chat-usage';
import { toolDefinitions } from './api-messages';
import type { AvailableTool } from './api-messages';
import type { HostTool } from './host-tools/host-tool';
import type { HostToolRegistry } from './host-tools/host-tool-registry';
import { toolLoadWording } from './tool-warnings';
import type { HostMessage } from '../../shared/domain/host-message';
import type { ToolWarningLimits } from './tool-warnings';
import type { ToolNameMap } from './tool-names';
import { messagesAfterCut } from './context/context-cut';
import { loadedInHistory } from './tool-search/tool-references';
import { ToolSetCache, toolSetOf } from './tool-set-cache';
import type { EnabledToolSet } from './tool-set-cache';

// What one model request of a conversation is offered: the MCP tools its switches leave on (all of
// them, or only those a host tool provider such as tool search narrowed them to), the host tools,
// their definitions as sent, and the estimates the usage line and the warnings use.

/** The tools of one model request. */
export interface ToolOffer {
  /** Enabled MCP tools: the names map covers all of them, so a tool keeps its name when others are loaded. */
  enabled: readonly AvailableTool[];
  /** The MCP tools whose definitions are sent. */
  offered: readonly AvailableTool[];
  names: ToolNameMap;
  hostTools: ReadonlyMap<string, HostTool>;
  /**
   * Every name a host tool may have, offered in this request or not: a model that calls search_tools after tool search
   * went off still called Berth's tool, not an unknown one, and its card says so.
   */
  hostToolNames: ReadonlySet<string>;
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
  /** The warning as a code (chat-notice.*), for the person's language. */
  warningMessage?: HostMessage;
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
  /** What was built for earlier requests' tool lists (the engine's); default: nothing kept, all built now. */
  toolSets?: ToolSetCache;
}

export function tokensOf(definitions: readonly Tool[]): number {
  // The definitions as the request serializes them: what the estimate (and the share warning) is about.
  return definitions.length === 0 ? 0 : estimateTokens(JSON.stringify(definitions));
}

/**
 * Estimated tokens of every enabled tool's definitions. Tool search's threshold and the usage line's saving both ask
 * it at each model request: for the enabled tools of an offer (its set, tool-set-cache.ts) the set's own estimate,
 * made once; for any other list, made now.
 */
export function enabledDefinitionTokens(enabled: readonly AvailableTool[], names: ToolNameMap): number {
  return toolSetOf(enabled, names)?.definitionTokens() ?? tokensOf(toolDefinitions(enabled, names));
}

export function hostToolDefinition(tool: HostTool): Tool {
  return {
    name: tool.name,
    description: `${tool.description}\n\n(Answered by Berth, the app you run in; not an MCP server's tool.)`,
    input_schema: { ...tool.inputSchema, type: 'object' },
  };
}

export function offerTools({
  conversation,
  available,
  hostTools,
  contextWindow,
  limits,
  tokenFactor = 1,
  defersTools = false,
  toolSets = new ToolSetCache(),
}: ToolOfferInput): ToolOffer {
  const disabledServers = new Set(conversation.disabledServers);
  const disabledTools = new Set(conversation.disabledTools);
  const switchedOn =
    disabledServers.size === 0 && disabledTools.size === 0
      ? available
      : available.filter(
          ({ server, tool }) => !disabledServers.has(server) && !disabledTools.has(toolKey(server, tool.name)),
        );
  const hostToolNames = hostTools?.reservedNames() ?? new Set<string>();
  const set = toolSets.for(switchedOn, hostToolNames);
  // The set's own list from here on: host tools that are handed it find the set's estimate (enabledDefinitionTokens).
  const { tools: enabled, names } = set;
  const host = hostTools?.offer({ conversation, enabled, names, contextWindow, tokenFactor, defersTools }) ?? {
    tools: new Map<string, HostTool>(),
    sendOnly: undefined,
  };
  const { sendOnly } = host;
  if (defersTools && sendOnly !== undefined)
    return deferredOffer({
      conversation,
      set,
      hostTools: host.tools,
      hostToolNames,
      sendOnly,
      contextWindow,
      limits,
      tokenFactor,
    });
  const offered = sendOnly === undefined ? enabled : inSendOrder(set, sendOnly);
  const mcpDefinitions = set.definitions(offered);
  const hostDefinitions = [...host.tools.values()].map(hostToolDefinition);
  // A narrowed list (tool search) grows by appending: its host tools first, then each loaded tool after those loaded
  // before it, so a load leaves the tools already sent where they were and the prompt cache keeps them.
  const definitions =
    sendOnly === undefined ? [...mcpDefinitions, ...hostDefinitions] : [...hostDefinitions, ...mcpDefinitions];
  const toolTokens = Math.ceil(tokensOf(definitions) * tokenFactor);
  const fullToolTokens = offered.length < enabled.length ? Math.ceil(set.definitionTokens() * tokenFactor) : undefined;
  // The warning is about what is sent: with tool search on, 2,000 enabled tools are not a problem.
  const warned = toolLoadWording({ count: definitions.length, tokensEstimate: toolTokens, contextWindow }, limits);
  return {
    enabled,
    offered,
    names,
    hostTools: host.tools,
    hostToolNames,
    definitions,
    toolCount: definitions.length,
    toolTokens,
    ...(fullToolTokens !== undefined ? { fullToolTokens } : {}),
    ...(warned !== undefined ? { warning: warned.text, warningMessage: warned.message } : {}),
  };
}

/**
 * The offer when tool search is on and the provider loads deferred tools itself: the host tools, then every enabled
 * tool deferred, so the tool list — the start of the prompt — never changes when the model loads one; the model can
 * call the loaded tools whose load_tools result is still in the conversation (not cut by compaction).
 */
function deferredOffer(input: {
  conversation: Conversation;
  set: EnabledToolSet;
  hostTools: ReadonlyMap<string, HostTool>;
  hostToolNames: ReadonlySet<string>;
  sendOnly: ReadonlySet<string>;
  contextWindow: number | undefined;
  limits: ToolWarningLimits;
  tokenFactor: number;
}): ToolOffer {
  const { conversation, set, hostTools, hostToolNames, sendOnly, contextWindow, limits, tokenFactor } = input;
  const { tools: enabled, names } = set;
  const references = new Map<string, string>();
  for (const key of sendOnly) {
    const entry = set.find(key);
    const name = entry === undefined ? undefined : names.apiName(entry.server, entry.tool.name);
    if (name !== undefined) references.set(key, name);
  }
  const loaded = loadedInHistory(messagesAfterCut(conversation), new Set(references.keys()));
  const offered = loaded.flatMap((key) => {
    const entry = set.find(key);
    return entry === undefined ? [] : [entry];
  });
  const hostDefinitions = [...hostTools.values()].map(hostToolDefinition);
  // What the model reads: the host tools, and each loaded tool's definition where it was loaded.
  const read = [...hostDefinitions, ...set.definitions(offered)];
  const toolTokens = Math.ceil(tokensOf(read) * tokenFactor);
  const fullToolTokens = offered.length < enabled.length ? Math.ceil(set.definitionTokens() * tokenFactor) : undefined;
  const warned = toolLoadWording({ count: read.length, tokensEstimate: toolTokens, contextWindow }, limits);
  return {
    enabled,
    offered,
    names,
    hostTools,
    hostToolNames,
    definitions: [...hostDefinitions, ...set.deferredDefinitions()],
    toolCount: read.length,
    toolTokens,
    references,
    ...(fullToolTokens !== undefined ? { fullToolTokens } : {}),
    ...(warned !== undefined ? { warning: warned.text, warningMessage: warned.message } : {}),
  };
}

/** The enabled tools a provider narrowed the request to, in its order (tool search: the order they were loaded in). */
function inSendOrder(set: EnabledToolSet, sendOnly: ReadonlySet<string>): AvailableTool[] {
  // Looked up by key in the set (built once), not by a pass over 2,000 enabled tools at each request.
  return [...sendOnly].flatMap((key) => {
    const entry = set.find(key);
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
