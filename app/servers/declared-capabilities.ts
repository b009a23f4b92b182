import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** The requests whose results declare the server's capabilities (both eras). */
const HANDSHAKES: ReadonlySet<string> = new Set(['initialize', 'server/discover']);
/** The server's state carries them to every window on each change: a larger declaration is not kept as sent. */
const MAX_CHARS = 64 * 1024;

/**
 * A server's capabilities as it declared them. The SDK's schema keeps only the keys it knows, so a draft extension
 * declared at the top level — MCP Events' design sketch, `capabilities.events` — would never reach the services: the
 * handshake's answer (and only it: a `capabilities` key in any other result is the server's data) is kept as sent,
 * and the SDK's reading goes over it.
 */
export class DeclaredCapabilities {
  private raw: Record<string, unknown> = {};
  /** Ids of the handshake requests sent. */
  private readonly handshakes = new Set<string | number>();

  /** Every message of the link, both ways; says `too-large` when a declaration was not kept for its size. */
  seen(direction: 'in' | 'out', message: JSONRPCMessage): 'too-large' | undefined {
    if (direction === 'out') {
      if ('method' in message && 'id' in message && HANDSHAKES.has(message.method)) this.handshakes.add(message.id);
      return undefined;
    }
    if (!('result' in message) || !this.handshakes.has(message.id)) return undefined;
    const { capabilities } = message.result as { capabilities?: unknown };
    if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) return undefined;
    if (JSON.stringify(capabilities).length > MAX_CHARS) return 'too-large';
    this.raw = capabilities as Record<string, unknown>;
    return undefined;
  }

  /** The SDK's reading over the keys as sent (the ones it does not know stay); undefined before the handshake. */
  over(parsed: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    return parsed === undefined ? undefined : { ...this.raw, ...parsed };
  }
}
