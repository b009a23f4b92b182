import type { Tool } from '@modelcontextprotocol/client';
import type { ToolInfo } from '../../shared/domain/server';

/**
 * The definition a call of `tool` (Berth's name) hands the SDK when the tool shares its server's name with another
 * (shared/domain/tool-twins.ts), else undefined. The SDK checks a result against the output schema it finds by name
 * in its tools/list cache, where the last twin listed wins: handed the twin's own definition, under the name the
 * server listed, it checks each twin's result against that twin's schema.
 */
export function twinDefinition(tools: readonly ToolInfo[], tool: string): Tool | undefined {
  const info = tools.find((candidate) => candidate.name === tool);
  if (info === undefined) return undefined;
  if (info.listedName === undefined && !tools.some((candidate) => candidate.listedName === tool)) return undefined;
  return {
    name: info.listedName ?? info.name,
    inputSchema: { ...info.inputSchema, type: 'object' },
    ...(info.outputSchema !== undefined ? { outputSchema: { ...info.outputSchema, type: 'object' } } : {}),
  };
}
