import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** The SDK's words (Protocol._onprogress) for a progress notification whose request it no longer waits for. */
const UNKNOWN_TOKEN = /^Received a progress notification for an unknown token: (.*)$/s;

/**
 * Tells a late progress notification from a stray one. A server may go on
 * reporting progress for a request that has ended: cancelled by the person
 * (`notifications/cancelled` races the server's next step) or just answered.
 * The SDK reports those as errors; for a request this client did send they are
 * expected and ignored quietly, while a token that never named a request of
 * ours is still a protocol error worth a warning. The SDK uses the request id
 * as the progress token and counts ids up from 0 per client.
 */
export class LateProgress {
  private highestSentId = -1;

  /** Every outgoing message, from the trace. */
  sent(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message && typeof message.id === 'number')
      this.highestSentId = Math.max(this.highestSentId, message.id);
  }

  /** The request id a client error is about, when it is a late progress notification for a request this client sent. */
  requestOf(error: Error): number | undefined {
    const match = UNKNOWN_TOKEN.exec(error.message);
    if (match === null) return undefined;
    let token: unknown;
    try {
      token = (JSON.parse(match[1] ?? '') as { params?: { progressToken?: unknown } }).params?.progressToken;
    } catch {
      return undefined;
    }
    const id =
      typeof token === 'number' ? token : typeof token === 'string' && /^\d+$/.test(token) ? Number(token) : undefined;
    return id !== undefined && id <= this.highestSentId ? id : undefined;
  }
}
