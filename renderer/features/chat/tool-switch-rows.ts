import type { ChatToolEntry } from '../../../shared/contract/chat';

/** A row of the tool switches: a server's head (its switch and count), or one of its tools. */
export type ToolSwitchRow =
  | { kind: 'server'; server: string; enabled: number; total: number }
  | { kind: 'tool'; server: string; tool: ChatToolEntry };

export function groupByServer(tools: readonly ChatToolEntry[]): [string, ChatToolEntry[]][] {
  const groups = new Map<string, ChatToolEntry[]>();
  for (const tool of tools) {
    const group = groups.get(tool.server);
    if (group) group.push(tool);
    else groups.set(tool.server, [tool]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/**
 * The rows the switches show for a search: a server whose name matches shows all
 * its tools; otherwise only the tools whose name, title or description match,
 * under their server's head. Counts are always of the whole server.
 */
export function toolSwitchRows(groups: readonly [string, ChatToolEntry[]][], query: string): ToolSwitchRow[] {
  const needle = query.trim().toLowerCase();
  const rows: ToolSwitchRow[] = [];
  for (const [server, tools] of groups) {
    const serverMatches = needle === '' || server.toLowerCase().includes(needle);
    const shown = serverMatches
      ? tools
      : tools.filter((tool) =>
          [tool.tool, tool.title ?? '', tool.description ?? ''].some((text) => text.toLowerCase().includes(needle)),
        );
    if (shown.length === 0) continue;
    rows.push({ kind: 'server', server, enabled: tools.filter((t) => t.enabled).length, total: tools.length });
    for (const tool of shown) rows.push({ kind: 'tool', server, tool });
  }
  return rows;
}
