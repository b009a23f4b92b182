import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { acceptResultsWithoutType } from './berth-client';

describe('acceptResultsWithoutType (SEP-2322)', () => {
  it('reads a result without resultType as complete, says so once, and leaves everything else alone', () => {
    const delivered: JSONRPCMessage[] = [];
    const transport = { onmessage: (message: JSONRPCMessage) => delivered.push(message) } as unknown as Transport;
    let notices = 0;
    acceptResultsWithoutType(transport, () => notices++);
    const deliver = (message: JSONRPCMessage): void => transport.onmessage?.(message);
    deliver({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    deliver({ jsonrpc: '2.0', id: 2, result: { content: [], resultType: 'input_required' } } as JSONRPCMessage);
    deliver({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'no' } });
    deliver({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    deliver({ jsonrpc: '2.0', id: 4, result: {} });
    expect(delivered).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [], resultType: 'complete' } },
      { jsonrpc: '2.0', id: 2, result: { content: [], resultType: 'input_required' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'no' } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
      { jsonrpc: '2.0', id: 4, result: { resultType: 'complete' } },
    ]);
    expect(notices).toBe(1);
  });
});
