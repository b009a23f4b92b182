// Host tools: tools Berth itself answers in a chat turn (tool search, reading a capped result,
// loading a skill), not tools of an MCP server. Without zod, like chat-text.ts: the chat screen
// (first screen) reads HOST_TOOL_SERVER to pick the compact card.

/**
 * The `server` a saved ChatToolUseBlock holds when Berth answered the call itself. ServerNameSchema
 * (./server) refuses it — a server name starts with a letter or digit — so no configured server can
 * ever take it, and a saved call can never be mistaken for a server's.
 */
export const HOST_TOOL_SERVER = '@berth';

/** True for a tool call Berth answers itself (no server, no consent). */
export function isHostToolCall(use: { readonly server: string }): boolean {
  return use.server === HOST_TOOL_SERVER;
}
