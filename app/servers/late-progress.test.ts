import { describe, expect, it } from 'vitest';
import { LateProgress } from './late-progress';

const unknownToken = (token: unknown): Error =>
  new Error(
    `Received a progress notification for an unknown token: ${JSON.stringify({ method: 'notifications/progress', params: { progress: 2, progressToken: token } })}`,
  );

describe('LateProgress', () => {
  it('names the request of a late progress notification only for ids this client sent', () => {
    const late = new LateProgress();
    expect(late.requestOf(unknownToken(0))).toBeUndefined();
    late.sent({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    late.sent({ jsonrpc: '2.0', method: 'notifications/initialized' });
    late.sent({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow' } });
    // Responses the client sends (to server requests) carry the server's ids: they do not count.
    late.sent({ jsonrpc: '2.0', id: 99, result: {} });
    expect(late.requestOf(unknownToken(3))).toBe(3);
    expect(late.requestOf(unknownToken('2'))).toBe(2);
    // A token no request of ours ever had is still a protocol error for the caller to report.
    expect(late.requestOf(unknownToken(4))).toBeUndefined();
    expect(late.requestOf(unknownToken('abc'))).toBeUndefined();
    expect(
      late.requestOf(new Error('Received a progress notification for an unknown token: {not json')),
    ).toBeUndefined();
    expect(late.requestOf(new Error('Failed to send cancellation: closed'))).toBeUndefined();
  });
});
