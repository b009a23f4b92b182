import { Client, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import type { Tool } from '@modelcontextprotocol/client';
import type { LogLevel, ToolInfo } from '../../shared/domain/server';

/**
 * The SDK client with one addition: in the 2026-07-28 era there is no
 * `logging/setLevel`, the level travels in each request's `_meta`, so the
 * envelope the SDK attaches gets the requested level added.
 */
export class BerthClient extends Client {
  requestLogLevel: LogLevel | undefined;

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (envelope === undefined || this.requestLogLevel === undefined) return envelope;
    return { ...envelope, [LOG_LEVEL_META_KEY]: this.requestLogLevel };
  }
}

export function toToolInfo(tool: Tool): ToolInfo {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations as Record<string, unknown> } : {}),
  };
}

