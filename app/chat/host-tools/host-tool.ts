import type { Conversation } from '../../../shared/domain/chat';
import type { AvailableTool } from '../api-messages';
import type { ToolNameMap } from '../tool-names';
import type { McpToolOutcome } from '../tool-results';

// The seam for host tools: tools Berth answers itself in a chat turn. A feature
// (tool search, result capping, skills) registers one HostToolProvider with the
// HostToolRegistry; the chat engine asks the registry, at every model request,
// which host tools this conversation is offered, and runs their calls without
// a server and without consent (see run-host-tool.ts for why).

/**
 * A host tool's name: lowercase words joined by single underscores, at most 40 characters.
 * An MCP tool's API name (tool-names.ts) always holds `__`, or ends in `_` + 8 hex digits or `_` + a
 * counter; this pattern allows none of those shapes (no `__`, no digits, and no last word of exactly
 * 8 letters a–f), and ToolNameMap.build also keeps every registered host name out of the MCP names.
 */
export const HOST_TOOL_NAME_PATTERN = /^[a-z]+(?:_[a-z]+)*$/;

/** Why `name` cannot be a host tool's name, or undefined when it can. */
export function hostToolNameProblem(name: string): string | undefined {
  if (!HOST_TOOL_NAME_PATTERN.test(name) || name.length > 40)
    return `"${name}" is not a host tool name: use lowercase words joined by single underscores (at most 40 characters)`;
  if (/_[a-f]{8}$/.test(name))
    return `"${name}" ends like a hashed MCP tool name (_ and 8 hex digits): choose another last word`;
  return undefined;
}

/** What a host tool's run has while it answers one call. */
export interface HostToolContext {
  conversationId: string;
  toolUseId: string;
  /** Fires when the person stops the turn. */
  signal: AbortSignal;
  /** The conversation as the model saw it for this request (its messages, settings, loaded tools). */
  conversation: Conversation;
}

/**
 * What one host tool call returns: the model's result (as an MCP tool's), and `summary`, one
 * short line the chat's compact card shows after "Berth " (e.g. `searched tools for “read file”: 5 found`).
 */
export interface HostToolOutcome extends McpToolOutcome {
  summary: string;
  /**
   * The server whose words the result carries (a skill's text), when it is a server's and not
   * Berth's own: such a result is cut for the model as that server's tool results are (app/chat/results).
   */
  source?: string;
  /** The MCP tools (toolKeys) this call loaded (tool search's load_tools): saved with the result (ChatToolResultBlock). */
  loadsTools?: string[];
}

/** One tool Berth answers itself. */
export interface HostTool {
  /** The name the model sees and calls (hostToolNameProblem must find none). */
  name: string;
  /** Shown on the card when set; else the name. */
  title?: string;
  description: string;
  /** JSON Schema of the input (type "object"). */
  inputSchema: Record<string, unknown>;
  /**
   * Answer one call. `input` is the model's, unchecked: validate it and answer a bad one with
   * `isError: true` and a text saying what to fix (never throw for bad input; a throw is reported to
   * the model as an error of Berth's).
   */
  run(input: Record<string, unknown>, context: HostToolContext): Promise<HostToolOutcome>;
}

/** What a provider learns about one conversation before a model request. */
export interface HostOfferContext {
  conversation: Conversation;
  /** The MCP tools the person's switches leave on in this conversation (every ready server's). */
  enabled: readonly AvailableTool[];
  /** API names of `enabled` (stable for the set: a tool's name does not change when another is loaded). */
  names: ToolNameMap;
  /** The model's context window in tokens, when known. */
  contextWindow: number | undefined;
  /** The model's token correction (TokenEstimator.factor, app/chat/context), for budgets counted in Berth's estimate; default 1. */
  tokenFactor?: number;
  /**
   * The model's provider loads deferred tools itself (Anthropic): every enabled tool is listed deferred and a loaded
   * one's definition goes into the conversation where it was loaded, so loading never changes the tool list.
   */
  defersTools?: boolean;
}

/** What a provider adds to one model request. */
export interface HostOffer {
  /** Host tools this conversation is offered now (e.g. read_result only once something was capped). */
  tools: HostTool[];
  /**
   * When set, only these MCP tools (by toolKey) have their definitions sent, in this set's order,
   * after the host tools: tool search sends the loaded ones instead of all. Undefined: no opinion
   * (every enabled tool is sent).
   */
  sendOnly?: ReadonlySet<string>;
}

/** One feature's host tools (tool search, result capping, skills). */
export interface HostToolProvider {
  /** For messages: `tool search`, `results`, `skills`. */
  id: string;
  /** Every name this provider may ever offer: kept out of the MCP tools' API names, so the two never collide. */
  names: readonly string[];
  offer(context: HostOfferContext): HostOffer;
}
