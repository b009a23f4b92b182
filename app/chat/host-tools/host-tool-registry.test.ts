import { describe, expect, it } from 'vitest';
import { HOST_TOOL_SERVER } from '../../../shared/domain/host-tools';
import { ServerNameSchema } from '../../../shared/domain/server';
import { candidateToolName, ToolNameMap } from '../tool-names';
import type { HostOfferContext, HostTool, HostToolProvider } from './host-tool';
import { hostToolNameProblem } from './host-tool';
import { HostToolRegistry } from './host-tool-registry';

function hostTool(name: string): HostTool {
  return {
    name,
    description: name,
    inputSchema: { type: 'object' },
    run: async () => ({ content: [], isError: false, summary: name }),
  };
}

function provider(
  id: string,
  names: string[],
  offer: HostToolProvider['offer'] = () => ({ tools: names.map(hostTool) }),
): HostToolProvider {
  return { id, names, offer };
}

const context = (): HostOfferContext => ({
  conversation: {
    id: 'c',
    title: 't',
    createdAt: 0,
    updatedAt: 0,
    model: 'm',
    messages: [],
    disabledServers: [],
    disabledTools: [],
  },
  enabled: [],
  names: ToolNameMap.build([]),
  contextWindow: undefined,
});

describe('host tools seam', () => {
  it('keeps the reserved server id out of every configurable server name', () => {
    expect(ServerNameSchema.safeParse(HOST_TOOL_SERVER).success).toBe(false);
  });

  it('refuses names shaped like an MCP tool API name', () => {
    expect(hostToolNameProblem('search_tools')).toBeUndefined();
    expect(hostToolNameProblem('read_result')).toBeUndefined();
    for (const bad of ['web__search', 'Search', 'tool_2', 'x_abcdefab', '', 'a-b', `${'a'.repeat(41)}`])
      expect(hostToolNameProblem(bad), bad).toBeDefined();
  });

  it('refuses a provider with a bad or taken name, and an offer outside its declared names', () => {
    const registry = new HostToolRegistry([provider('one', ['search_tools'])]);
    expect(() => registry.register(provider('two', ['search_tools']))).toThrow(/already one's/);
    expect(() => registry.register(provider('three', ['Bad']))).toThrow(/not a host tool name/);
    registry.register(provider('sneaky', ['load_skill'], () => ({ tools: [hostTool('read_result')] })));
    expect(() => registry.offer(context())).toThrow(/not one of its declared host tools/);
  });

  it('combines offers and intersects narrowed MCP tool sets', () => {
    const registry = new HostToolRegistry([
      provider('a', ['search_tools'], () => ({ tools: [hostTool('search_tools')], sendOnly: new Set(['s/x', 's/y']) })),
      provider('b', ['read_result'], () => ({ tools: [], sendOnly: new Set(['s/y', 's/z']) })),
    ]);
    const offer = registry.offer(context());
    expect([...offer.tools.keys()]).toEqual(['search_tools']);
    expect([...(offer.sendOnly ?? [])]).toEqual(['s/y']);
    expect(new HostToolRegistry().offer(context())).toEqual({ tools: new Map(), sendOnly: undefined });
  });

  it('keeps reserved host names out of MCP API names even when a tool would take one', () => {
    // A server whose tool name sanitizes to a host tool's name can only happen through a hash/counter,
    // but the map must never hand out a reserved name whatever the candidates are.
    const refs = [{ server: 'search', tool: 'tools' }];
    expect(candidateToolName(refs[0] as { server: string; tool: string })).toBe('search__tools');
    const map = ToolNameMap.build(refs, ['search__tools']);
    expect(map.apiName('search', 'tools')).toBe('search__tools_2');
    expect(map.resolve('search__tools')).toBeUndefined();
  });
});
