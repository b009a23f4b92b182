import type { ToolInfo } from './server';

// A server may list two tools with the same name (MCP forbids it; real servers do it). The model APIs refuse a
// request whose tool names repeat ("tools: Tool names must be unique"), so every turn would fail. Berth gives
// each of a server's tools a name of its own once, where the list comes in (app/servers): a later tool with an
// earlier one's name becomes `name_2`, `name_3`… in the order the server lists them, skipping any name the server
// itself lists; a tool listed again with the very same definition is kept once. Everything after that (the chat's
// name map, consent rules, tool search, apps, the Tools tab) sees distinct names; a call goes to the server under
// the name it listed (`listedName`).

/** Two listings of the same tool: every field the server gave is the same. */
function sameDefinition(a: ToolInfo, b: ToolInfo): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The server's tools with a distinct name each: a twin (same name, another definition) renamed `name_N` with the
 * smallest N ≥ 2 that no tool of the list has, a repeat (same definition) dropped and counted on the first
 * (`repeats`). The same list always gives the same names.
 */
export function nameToolTwins(tools: readonly ToolInfo[]): ToolInfo[] {
  const listed = new Set(tools.map((tool) => tool.name));
  /** Per listed name, each distinct definition as listed (compared as listed) and its place in `named`. */
  const seen = new Map<string, Array<{ listed: ToolInfo; at: number }>>();
  const taken = new Set<string>();
  const named: ToolInfo[] = [];
  for (const tool of tools) {
    const same = seen.get(tool.name) ?? [];
    seen.set(tool.name, same);
    const copy = same.find((earlier) => sameDefinition(earlier.listed, tool));
    if (copy !== undefined) {
      const kept = named[copy.at]!;
      named[copy.at] = { ...kept, repeats: (kept.repeats ?? 0) + 1 };
      continue;
    }
    same.push({ listed: tool, at: named.length });
    if (same.length === 1) {
      taken.add(tool.name);
      named.push(tool);
      continue;
    }
    let counter = 2;
    while (listed.has(`${tool.name}_${counter}`) || taken.has(`${tool.name}_${counter}`)) counter += 1;
    const name = `${tool.name}_${counter}`;
    taken.add(name);
    named.push({ ...tool, name, listedName: tool.name });
  }
  return named;
}

/** Tools of one server that share a listed name: the first keeps it, the others were renamed. */
export interface ToolTwinGroup {
  /** The name the server gave them all. */
  listedName: string;
  /** Berth's names for the second, third… in the order the server listed them. */
  renamed: string[];
}

/** The names the server listed more than once with different definitions, in list order. */
export function toolTwinGroups(tools: readonly ToolInfo[]): ToolTwinGroup[] {
  const groups = new Map<string, string[]>();
  for (const tool of tools) {
    if (tool.listedName === undefined) continue;
    const renamed = groups.get(tool.listedName) ?? [];
    renamed.push(tool.name);
    groups.set(tool.listedName, renamed);
  }
  return [...groups].map(([listedName, renamed]) => ({ listedName, renamed }));
}

/** The tools the server listed more than once with the very same definition (kept once each). */
export function repeatedTools(tools: readonly ToolInfo[]): Array<{ name: string; repeats: number }> {
  return tools.flatMap((tool) => (tool.repeats === undefined ? [] : [{ name: tool.name, repeats: tool.repeats }]));
}
