import { describe, expect, it } from 'vitest';
import { JsonObjectSchema } from '../../shared/domain/consent';
import { isJsonObject } from './json-object';

class Point {
  x = 1;
}

/** Inputs and whether a JSON object they are; the zod schema must agree on each. */
const CASES: Array<[string, unknown, boolean]> = [
  ['empty object', {}, true],
  ['flat arguments', { text: 'ping', n: 1.5, ok: false, none: null }, true],
  ['nested arrays and objects', { a: [1, 'two', [true, null], { b: { c: [] } }] }, true],
  ['object without prototype', Object.assign(Object.create(null) as object, { a: 1 }), true],
  ['JSON.parse output', JSON.parse('{"path":"/tmp","depth":{"max":3},"list":[1,2]}'), true],
  ['an array', [1, 2], false],
  ['a string', 'text', false],
  ['null', null, false],
  ['undefined', undefined, false],
  ['NaN inside', { n: Number.NaN }, false],
  ['Infinity inside', { n: Number.POSITIVE_INFINITY }, false],
  ['undefined inside', { a: undefined }, false],
  ['function inside', { f: () => 1 }, false],
  ['bigint inside', { big: 1n }, false],
  ['symbol inside', { s: Symbol('s') }, false],
  ['Date inside', { when: new Date(0) }, false],
  ['class instance inside', { p: new Point() }, false],
  ['class instance itself', new Point(), false],
  ['deep bad value', { a: [{ b: [{ c: Number.NaN }] }] }, false],
];

describe('isJsonObject', () => {
  it.each(CASES)('%s', (_name, value, expected) => {
    expect(isJsonObject(value)).toBe(expected);
    expect(JsonObjectSchema.safeParse(value).success).toBe(expected);
  });

  it('refuses a cycle instead of running out of stack', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(isJsonObject(cyclic)).toBe(false);
  });

  it('accepts nesting as deep as real arguments go', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 200; i += 1) deep = { child: deep };
    expect(isJsonObject(deep)).toBe(true);
  });
});
