import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import { SECRET_MASK } from '../../shared/domain/server';
import { ServerLog, TRACE_BODY_LIMIT } from '../servers/server-log';
import { LogCollector } from '../servers/test-support';
import { LogHub, type LogHubOptions } from './log-hub';

/**
 * The LogHub keeps traced messages as compact records and builds their
 * entries when asked (trace-ring.ts). These tests hold what it hands out to
 * what the whole-entry path (ServerLog → LogSink.append, as before) makes.
 */

const hubs: LogHub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.dispose();
});

function makeHub(options: Partial<LogHubOptions> = {}): { hub: LogHub; delivered: LogEntry[] } {
  const delivered: LogEntry[] = [];
  const hub = new LogHub({ onBatch: (entries) => delivered.push(...entries), ...options });
  hubs.push(hub);
  return { hub, delivered };
}

const raw = (message: JSONRPCMessage) => JSON.stringify(message);
function traceAll(log: ServerLog, messages: readonly ['in' | 'out', JSONRPCMessage][]): void {
  for (const [direction, message] of messages) {
    const text = raw(message);
    log.trace(direction, message, Buffer.byteLength(text), text);
  }
}

/** Every shape of summary: request, notification, result, error, an answer to an unknown request, string ids, a huge body. */
const CONVERSATION: ['in' | 'out', JSONRPCMessage][] = [
  ['out', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }],
  ['out', { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['in', { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } }],
  ['in', { jsonrpc: '2.0', id: 'req-7', method: 'roots/list' }],
  ['out', { jsonrpc: '2.0', id: 'req-7', result: { roots: [] } }],
  ['out', { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'x' } }],
  ['in', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Unknown prompt x' } }],
  ['in', { jsonrpc: '2.0', id: 99, error: { code: -32601, message: 'Method not found' } }],
  [
    'in',
    {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'y'.repeat(TRACE_BODY_LIMIT + 10) },
    },
  ],
];

/** Seq and time differ between the two runs of the same messages; everything else must not. */
const withoutSeq = (entries: readonly LogEntry[]) => entries.map(({ seq: _seq, time: _time, ...rest }) => rest);

describe('the compact trace', () => {
  it('hands out, by query and in batches, the very entries the whole-entry path makes', async () => {
    const collector = new LogCollector();
    traceAll(new ServerLog(collector, 'srv', []), CONVERSATION);
    const { hub, delivered } = makeHub();
    traceAll(new ServerLog(hub, 'srv', []), CONVERSATION);
    await hub.flush();
    const expected = withoutSeq(collector.for('srv', 'trace'));
    expect(expected[0]?.text).toBe('→ tools/call #1 (97 B)');
    expect(expected[7]?.text).toBe('← response #99 error -32601: Method not found (78 B)');
    const queried = hub.query({ server: 'srv' }).entries;
    expect(withoutSeq(queried)).toEqual(expected);
    expect(withoutSeq(delivered)).toEqual(expected);
    // Same keys in the same order as an entry LogHub stamps (what JSON on the wire shows).
    expect(queried.map((entry) => Object.keys(entry).join())).toEqual(
      delivered.map((entry) => Object.keys(entry).join()),
    );
    expect(Object.keys(queried[0] as LogEntry)).toEqual([
      'seq',
      'server',
      'time',
      'source',
      'text',
      'direction',
      'method',
      'id',
      'size',
      'body',
    ]);
    expect(queried.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('finds entries by their summary and their body, and filters by seq', () => {
    const { hub } = makeHub();
    traceAll(new ServerLog(hub, 'srv', []), CONVERSATION);
    expect(hub.query({ text: 'UNKNOWN PROMPT' }).entries.map((entry) => entry.text)).toEqual([
      '← prompts/get #2 error -32602: Unknown prompt x (77 B)',
    ]);
    expect(hub.query({ text: '"roots":[]' }).entries.map((entry) => entry.id)).toEqual(['req-7']);
    expect(hub.query({ afterSeq: 7 }).entries.map((entry) => entry.seq)).toEqual([8, 9]);
    expect(hub.query({ sources: ['stderr'] }).entries).toEqual([]);
    expect(hub.query({ limit: 2, minLevel: 'error' }).entries.map((entry) => entry.seq)).toEqual([8, 9]);
  });

  it("masks the connection's secrets and the host's in summary and body, and keeps them masked after the host forgets a secret", () => {
    let hostSecrets = ['host-token-123'];
    const { hub } = makeHub({
      redact: (text) => hostSecrets.reduce((masked, secret) => masked.replaceAll(secret, SECRET_MASK), text),
    });
    const log = new ServerLog(hub, 'srv', ['conn-secret-456']);
    traceAll(log, [
      [
        'out',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { arguments: { a: 'conn-secret-456', b: 'host-token-123' } },
        },
      ],
      ['in', { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'bad conn-secret-456 and host-token-123' } }],
      ['out', { jsonrpc: '2.0', id: 2, method: 'host-token-123/conn-secret-456' }],
    ]);
    // The secret is rotated away: the host no longer knows it, what was kept stays masked.
    hostSecrets = [];
    const entries = hub.query({ server: 'srv' }).entries;
    // The method field is kept as the message had it, as it always was (only the text and body are masked).
    const shown = JSON.stringify(entries.map(({ method: _method, ...rest }) => rest));
    expect(shown).not.toContain('conn-secret-456');
    expect(shown).not.toContain('host-token-123');
    expect(entries.map((entry) => entry.text)).toEqual([
      '→ tools/call #1 (114 B)',
      `← tools/call #1 error 1: bad ${SECRET_MASK} and ${SECRET_MASK} (94 B)`,
      `→ ${SECRET_MASK}/${SECRET_MASK} #2 (66 B)`,
    ]);
    expect(entries[0]?.body).toBe(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"a":"${SECRET_MASK}","b":"${SECRET_MASK}"}}}`,
    );
    expect(hub.query({ text: 'host-token' }).entries).toEqual([]);
  });

  it('cuts a long summary after masking it, as any text', () => {
    const { hub } = makeHub({ maxTextChars: 30 });
    traceAll(new ServerLog(hub, 'srv', []), [
      ['in', { jsonrpc: '2.0', id: 5, error: { code: 7, message: 'z'.repeat(100) } }],
    ]);
    expect(hub.query({}).entries[0]?.text).toBe('← response #5 error 7: zzzzzzz… (101 more characters)');
  });

  it('keeps the newest messages past many wraps of the ring, counts the rest as dropped, and keeps bodies within the budget', () => {
    const { hub } = makeHub({ capacity: { trace: 300 }, maxTraceBodyBytes: 50 * 40 });
    const log = new ServerLog(hub, 'srv', []);
    for (let n = 0; n < 1_000; n += 1)
      traceAll(log, [['out', { jsonrpc: '2.0', id: n, method: 'ping', params: { pad: 'x'.repeat(n < 10 ? 1 : 0) } }]]);
    const { entries, dropped } = hub.query({ server: 'srv' });
    expect(dropped).toBe(700);
    expect(entries.map((entry) => entry.id)).toEqual(Array.from({ length: 300 }, (_, index) => 700 + index));
    const kept = entries.filter((entry) => entry.body !== undefined);
    // The oldest bodies went first; each left ones after it.
    expect(kept.length).toBeGreaterThan(0);
    expect(entries.slice(entries.length - kept.length)).toEqual(kept);
    expect(hub.bodyBytes('srv')).toBe(kept.reduce((sum, entry) => sum + Buffer.byteLength(entry.body ?? ''), 0));
    expect(hub.bodyBytes('srv')).toBeLessThanOrEqual(50 * 40);
    expect(hub.clear('srv')).toBe(300);
    expect(hub.bodyBytes('srv')).toBe(0);
  });
});
