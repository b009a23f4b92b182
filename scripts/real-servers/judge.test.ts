import { describe, expect, it } from 'vitest';
import { applyMasks, judge, normalizeResult } from './judge';
import type { Mask, Observation } from './judge';

const tools = [{ name: 'read', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
const ready = (call: Observation['call'], more: Partial<Observation> = {}): Observation => ({
  ready: true,
  protocolVersion: '2025-11-25',
  era: 'legacy',
  tools,
  call,
  ...more,
});
const text = (value: string): Observation['call'] => ({
  result: { content: [{ type: 'text', text: value }], isError: false },
});
const TIME: Mask = { name: 'time', pattern: /\d{2}:\d{2}:\d{2}/g };

describe('test:servers judge', () => {
  it('finds the same observation the same, whatever the key order and JSON spacing in text', () => {
    const bare = ready(text('{"a":1,"b":[2,3]}'), {
      tools: [{ name: 'read', inputSchema: { properties: { path: { type: 'string' } }, type: 'object' } }],
    });
    const berth = ready(text('{\n  "b": [2, 3],\n  "a": 1\n}'));
    expect(judge(bare, berth, [])).toEqual({ kind: 'same' });
  });

  it('finds a result that differs in one character, and says where', () => {
    const verdict = judge(ready(text('hello world')), ready(text('hello World')), []);
    expect(verdict.kind).toBe('different');
    if (verdict.kind !== 'different') return;
    expect(verdict.differences).toHaveLength(1);
    expect(verdict.differences[0]).toMatch(
      /^the call's result differs at character \d+: bare ".*hello world.*", Berth ".*hello World/,
    );
  });

  it('finds structuredContent, isError or a content block that only one side has', () => {
    const base = { content: [{ type: 'text', text: 'x' }], isError: false };
    const cases: Array<[Observation['call'], Observation['call']]> = [
      [{ result: base }, { result: { ...base, structuredContent: { x: 1 } } }],
      [{ result: base }, { result: { ...base, isError: true } }],
      [{ result: base }, { result: { ...base, content: [...base.content, { type: 'text', text: 'x' }] } }],
      [{ result: { ...base, content: [{ type: 'text', text: 'x', annotations: { priority: 1 } }] } }, { result: base }],
    ];
    for (const [bare, berth] of cases) expect(judge(ready(bare), ready(berth), []).kind).toBe('different');
  });

  it('masks only what a server names: a clock is equal once masked, a different word is still different', () => {
    expect(judge(ready(text('at 10:00:01 ok')), ready(text('at 11:59:59 ok')), [TIME])).toEqual({ kind: 'same' });
    expect(judge(ready(text('at 10:00:01 ok')), ready(text('at 11:59:59 ok')), [])).toMatchObject({
      kind: 'different',
    });
    expect(judge(ready(text('at 10:00:01 ok')), ready(text('at 10:00:01 KO')), [TIME])).toMatchObject({
      kind: 'different',
    });
    expect(applyMasks({ when: ['10:00:01'], n: 3 }, [TIME])).toEqual({ when: ['<time>'], n: 3 });
    expect(normalizeResult({ content: [{ type: 'text', text: 'at 10:00:01' }], isError: false }, [TIME])).toBe(
      '{"content":[{"text":"at <time>","type":"text"}],"isError":false}',
    );
  });

  it('finds tools missing, added, or with another schema', () => {
    const other = [{ name: 'read', inputSchema: { type: 'object', properties: { path: { type: 'number' } } } }];
    const verdicts = [
      judge(ready(text('x')), ready(text('x'), { tools: [] }), []),
      judge(ready(text('x')), ready(text('x'), { tools: [...tools, { name: 'write', inputSchema: {} }] }), []),
      judge(ready(text('x')), ready(text('x'), { tools: other }), []),
      judge(ready(text('x')), ready(text('x'), { tools: [{ ...tools[0]!, outputSchema: { type: 'object' } }] }), []),
    ];
    expect(verdicts.map((verdict) => (verdict.kind === 'different' ? verdict.differences[0] : verdict.kind))).toEqual([
      'tools Berth does not list: read',
      'tools only Berth lists: write',
      expect.stringMatching(/^read\.inputSchema differs/),
      expect.stringMatching(/^read\.outputSchema differs/),
    ]);
  });

  it('finds another era or protocol version', () => {
    expect(judge(ready(text('x')), ready(text('x'), { era: 'modern', protocolVersion: '2026-07-28' }), [])).toEqual({
      kind: 'different',
      differences: ['era: bare legacy 2025-11-25, Berth modern 2026-07-28'],
    });
  });

  it('tells a server that failed for both from one that failed only in Berth, or only its call', () => {
    const down = (failure: string): Observation => ({ ready: false, failure, tools: [] });
    expect(judge(down('ENOENT'), down('spawn failed'), [])).toEqual({ kind: 'failed-in-both', reason: 'ENOENT' });
    expect(judge(ready(text('x')), down('handshake timed out'), [])).toEqual({
      kind: 'different',
      differences: ['ready only in the bare client; Berth: handshake timed out'],
    });
    expect(judge(ready(text('x')), ready({ error: 'no result within 120 s' }), [])).toEqual({
      kind: 'different',
      differences: ['the call failed only in Berth (no result within 120 s)'],
    });
  });

  it('takes a server error handed on as a tool error carrying its message as the same failure, and nothing else', () => {
    const handedOn = (message: string): Observation['call'] => ({
      result: {
        content: [{ type: 'text', text: `server 'x' answered tools/call with error -32603: ${message}` }],
        isError: true,
      },
    });
    const bare = ready({ error: 'getaddrinfo ENOTFOUND api.example.com' });
    expect(judge(bare, ready(handedOn('getaddrinfo ENOTFOUND api.example.com')), [])).toEqual({ kind: 'same' });
    expect(judge(bare, ready(handedOn('fetch failed')), []).kind).toBe('different');
    // A success with the error's words is not the failure handed on.
    expect(judge(bare, ready(text('getaddrinfo ENOTFOUND api.example.com')), []).kind).toBe('different');
  });
});
