import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { visibleToModel } from '../../shared/apps/tool-ui';
import { toolKey } from '../../shared/domain/chat';
import type { ServerState, ToolInfo } from '../../shared/domain/server';
import { estimateTokens } from '../../shared/domain/chat-usage';
import { toolDefinitions } from './api-messages';
import type { AvailableTool } from './api-messages';
import { ToolNameMap } from './tool-names';

// Every model request needs the enabled tools' API names (and, with tool search, their definitions'
// estimate); with 2,000 tools building them took most of Berth's time from Send to the request.
// They depend only on the servers' tool lists, which change rarely: a server's list is replaced
// (tools/list_changed, a restart), never edited, so the tool objects themselves are the version.
// A request whose enabled tools are the same objects as an earlier one's reuses what was built;
// any change (a tool added, renamed or removed, a server stopped or renamed, a switch) is a
// different list and is built afresh for that very request.

/** How many enabled-tool lists are kept: conversations with other switches each have their own. */
const KEPT_SETS = 4;

/** The enabled tools of a request and what depends on them alone, built once for as long as they stay the same. */
export class EnabledToolSet {
  /** The names map covers every enabled tool, so a tool keeps its name when others are loaded. */
  readonly names: ToolNameMap;
  private readonly definitionOf = new Map<AvailableTool, Tool>();
  private byKey: Map<string, AvailableTool> | undefined;
  private allTokens: number | undefined;
  private deferred: Tool[] | undefined;

  constructor(
    /** The enabled tools, in the servers' order. */
    readonly tools: readonly AvailableTool[],
    /** Names no tool may take (host tools'). */
    readonly reserved: ReadonlySet<string>,
  ) {
    this.names = ToolNameMap.build(
      tools.map(({ server, tool }) => ({ server, tool: tool.name })),
      reserved,
    );
  }

  /** Whether `tools` and `reserved` are what this set was built from: the same tool objects of the same servers. */
  matches(tools: readonly AvailableTool[], reserved: ReadonlySet<string>): boolean {
    if (tools.length !== this.tools.length || reserved.size !== this.reserved.size) return false;
    for (const name of reserved) if (!this.reserved.has(name)) return false;
    return tools.every(
      (entry, index) => entry.tool === this.tools[index]?.tool && entry.server === this.tools[index]?.server,
    );
  }

  /** The enabled tool with this toolKey, or undefined. */
  find(key: string): AvailableTool | undefined {
    this.byKey ??= new Map(this.tools.map((entry) => [toolKey(entry.server, entry.tool.name), entry]));
    return this.byKey.get(key);
  }

  /**
   * The definitions of `subset` (entries of `tools`), in its order, as the request carries them. Each is
   * built once and then shared by every request, frozen: a provider that marks one (cache_control) copies it.
   */
  definitions(subset: readonly AvailableTool[]): Tool[] {
    const definitions: Tool[] = [];
    for (const entry of subset) {
      let definition = this.definitionOf.get(entry);
      if (definition === undefined) {
        definition = toolDefinitions([entry], this.names)[0];
        // A tool of another list has no name here, as toolDefinitions leaves it out.
        if (definition === undefined) continue;
        this.definitionOf.set(entry, Object.freeze(definition));
      }
      definitions.push(definition);
    }
    return definitions;
  }

  /**
   * Every enabled tool's definition marked `defer_loading` (Anthropic's deferred tool loading lists them all in every
   * request), built once for the set.
   */
  deferredDefinitions(): Tool[] {
    this.deferred ??= this.definitions(this.tools).map((tool) => Object.freeze({ ...tool, defer_loading: true }));
    return this.deferred;
  }

  /** Estimated tokens of every enabled tool's definition (what tool search saves is measured against it). */
  definitionTokens(): number {
    this.allTokens ??= this.tools.length === 0 ? 0 : estimateTokens(JSON.stringify(this.definitions(this.tools)));
    return this.allTokens;
  }
}

/** Which set a names map belongs to: host tools are handed the names and the tools, and ask for the set's estimate. */
const setOfNames = new WeakMap<ToolNameMap, EnabledToolSet>();

/** The set `names` was built for, when `tools` is that set's own list. */
export function toolSetOf(tools: readonly AvailableTool[], names: ToolNameMap): EnabledToolSet | undefined {
  const set = setOfNames.get(names);
  return set?.tools === tools ? set : undefined;
}

/** The last few enabled-tool lists and what was built for them (one per chat engine). */
export class ToolSetCache {
  private sets: EnabledToolSet[] = [];

  /** The set for these enabled tools: a kept one when they are the same tool objects, else a new one. */
  for(tools: readonly AvailableTool[], reserved: Iterable<string> = []): EnabledToolSet {
    const names = new Set(reserved);
    const found = this.sets.find((set) => set.matches(tools, names));
    const set = found ?? new EnabledToolSet([...tools], names);
    if (found === undefined) setOfNames.set(set.names, set);
    this.sets = [set, ...this.sets.filter((kept) => kept !== set)].slice(0, KEPT_SETS);
    return set;
  }
}

/** Whether two lists hold the same tool objects in the same order. */
function sameTools(a: readonly ToolInfo[], b: readonly ToolInfo[]): boolean {
  return a.length === b.length && a.every((tool, index) => tool === b[index]);
}

/**
 * Tools of every ready server the model may be offered, in server order (an MCP App's app-only tools never
 * are). Each server's share is worked out once per tool list it reports and kept while it reports the same tool
 * objects: the engine asks at every model request, and the states come as fresh copies each time.
 */
export class ReadyToolLists {
  private readonly byServer = new Map<string, { tools: readonly ToolInfo[]; offered: readonly AvailableTool[] }>();

  of(states: readonly ServerState[]): AvailableTool[] {
    const ready: AvailableTool[] = [];
    const seen = new Set<string>();
    for (const state of states) {
      if (state.status !== 'ready') continue;
      seen.add(state.name);
      let kept = this.byServer.get(state.name);
      if (kept === undefined || !sameTools(kept.tools, state.tools)) {
        kept = {
          tools: state.tools,
          offered: state.tools.filter(visibleToModel).map((tool) => ({ server: state.name, tool })),
        };
        this.byServer.set(state.name, kept);
      }
      for (const entry of kept.offered) ready.push(entry);
    }
    // A server that stopped or went away: its tools are not kept for it.
    for (const name of this.byServer.keys()) if (!seen.has(name)) this.byServer.delete(name);
    return ready;
  }
}
