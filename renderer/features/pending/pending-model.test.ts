import { describe, expect, it } from 'vitest';
import { canonicalJson, describeRequest, formatAge, parseArgumentsText } from './pending-model';

describe('parseArgumentsText', () => {
  it('accepts a JSON object, nested values included', () => {
    expect(parseArgumentsText('{ "message": "hi", "n": [1, {"a": null}] }')).toEqual({
      ok: true,
      value: { message: 'hi', n: [1, { a: null }] },
    });
    expect(parseArgumentsText('{}')).toEqual({ ok: true, value: {} });
  });

  it('refuses text that is not JSON, and JSON that is not an object', () => {
    expect(parseArgumentsText('{ "message": ')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^This is not valid JSON: /),
    });
    expect(parseArgumentsText('[1, 2]')).toEqual({
      ok: false,
      error: 'The arguments must be a JSON object ({ … }), not a list',
    });
    expect(parseArgumentsText('null')).toEqual({
      ok: false,
      error: 'The arguments must be a JSON object ({ … }), not null',
    });
    expect(parseArgumentsText('"text"')).toEqual({
      ok: false,
      error: 'The arguments must be a JSON object ({ … }), not a string',
    });
    expect(parseArgumentsText('   ')).toMatchObject({ ok: false, error: expect.stringContaining('{} for none') });
  });
});

describe('helpers', () => {
  it('compares arguments regardless of key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 2], c: 'x' } })).toBe(canonicalJson({ a: { c: 'x', d: [1, 2] }, b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });

  it('says how long a request has waited', () => {
    expect(formatAge(1_000)).toBe('just now');
    expect(formatAge(42_000)).toBe('42 s');
    expect(formatAge(3 * 60_000 + 5_000)).toBe('3 min');
    expect(formatAge(2 * 3600_000)).toBe('2 h');
    expect(formatAge(-5)).toBe('just now');
  });
});

describe('describeRequest', () => {
  const call = (requestedBy?: 'app') =>
    ({
      id: 'p1',
      kind: 'tool-call',
      server: 'clock',
      createdAt: 0,
      payload: { server: 'clock', tool: 'get-time', arguments: {}, ...(requestedBy ? { requestedBy } : {}) },
    }) as unknown as Parameters<typeof describeRequest>[0];

  it('says in the tray when a server’s app, not the model, asks for a tool call', () => {
    expect(describeRequest(call())).toBe('Run get-time');
    expect(describeRequest(call('app'))).toBe('Run get-time (asked by its app)');
  });
});
