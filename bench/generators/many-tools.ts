import type { ChatToolEntry, ChatToolsView } from '../../shared/contract/chat';
import { toolKey } from '../../shared/domain/chat';

export interface ManyToolsOptions {
  servers?: number;
  /** Tools in all, spread evenly over the servers. */
  tools?: number;
  /** Tools switched off in the conversation, as `toolKey(server, tool)`. */
  disabledTools?: readonly string[];
}

/** A tool as an MCP server would list it, for a fixture server or a fake `tools/list`. */
export interface GeneratedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, { type: string; description: string }> };
}

export function serverName(index: number): string {
  return `server-${String(index).padStart(2, '0')}`;
}

/** The tools of each of `servers` servers (50 by default), `tools` (2,000 by default) in all. */
export function generateServerTools(options: ManyToolsOptions = {}): Map<string, GeneratedTool[]> {
  const servers = options.servers ?? 50;
  const tools = options.tools ?? 2_000;
  if (!Number.isInteger(servers) || servers < 1) throw new Error(`servers must be a whole number ≥ 1, got ${servers}`);
  if (!Number.isInteger(tools) || tools < 0) throw new Error(`tools must be a whole number ≥ 0, got ${tools}`);
  const byServer = new Map<string, GeneratedTool[]>();
  for (let s = 0; s < servers; s++) byServer.set(serverName(s), []);
  for (let t = 0; t < tools; t++) {
    const list = byServer.get(serverName(t % servers))!;
    const name = `tool_${String(list.length).padStart(3, '0')}`;
    list.push({
      name,
      title: `Tool ${list.length} of ${serverName(t % servers)}`,
      description: `Does step ${t} of the bench workload.`,
      inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Where to work.' } } },
    });
  }
  return byServer;
}

/** What `chat.tools` answers for a conversation with these servers and tools. */
export function generateChatToolsView(options: ManyToolsOptions = {}): ChatToolsView {
  const disabled = new Set(options.disabledTools ?? []);
  const tools: ChatToolEntry[] = [];
  for (const [server, list] of generateServerTools(options)) {
    for (const tool of list)
      tools.push({
        server,
        tool: tool.name,
        title: tool.title,
        description: tool.description,
        enabled: !disabled.has(toolKey(server, tool.name)),
      });
  }
  const offeredCount = tools.filter((t) => t.enabled).length;
  return {
    tools,
    offeredCount,
    ...(offeredCount > 100
      ? { warning: `${offeredCount} tools are offered; the model picks less reliably with so many.` }
      : {}),
  };
}
