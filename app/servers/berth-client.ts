import { Client, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import type { Tool, Transport } from '@modelcontextprotocol/client';
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


/**
 * SEP-2322: a 2026-07-28 result without `resultType` is to be read as
 * "complete". The SDK (2.4) refuses such a result instead, so after the
 * handshake of a modern-era connection every incoming result that lacks the
 * field gets `resultType: "complete"` before the SDK sees it. `noticed` is
 * told the first time, so the server's log says so once.
 */
export function acceptResultsWithoutType(transport: Transport, noticed: () => void): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  let told = false;
  transport.onmessage = (message, extra) => {
    if ('result' in message && typeof message.result === 'object' && message.result !== null && !Array.isArray(message.result) && !('resultType' in message.result)) {
      if (!told) {
        told = true;
        noticed();
      }
      deliver.call(transport, { ...message, result: { ...message.result, resultType: 'complete' } }, extra);
      return;
    }
    deliver.call(transport, message, extra);
  };
}
