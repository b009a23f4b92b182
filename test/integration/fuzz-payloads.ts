import { z } from 'zod';
import { contract, METHOD_NAMES, type MethodName } from '../../shared/contract';

/**
 * Seeded generators for the bridge fuzz test. Everything random comes from
 * one PRNG, so a failing run is replayed exactly with BERTH_FUZZ_SEED.
 */

/** A random float in [0, 1). */
export type Rng = () => number;

/** mulberry32: tiny, fast, and good enough to pick payloads reproducibly. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const int = (rng: Rng, below: number): number => Math.floor(rng() * below);
export const pick = <T>(rng: Rng, items: readonly T[]): T => {
  if (items.length === 0) throw new Error('pick() from an empty list');
  // Items may themselves be undefined (it is one of the fuzz values), so no undefined check here.
  return items[int(rng, items.length)] as T;
};

/** Methods whose VALID input changes nothing; every other method only ever gets input its schema refuses. */
export const READ_ONLY_METHODS: ReadonlySet<MethodName> = new Set<MethodName>([
  'app.info',
  'config.status',
  'servers.list',
  'logs.query',
  'chat.list',
  'chat.get',
  'chat.tools',
  'settings.get',
  'pending.list',
  'consent.policies',
  'consent.audit',
  'sampling.policies',
  'sampling.usage',
  'elicitation.awaiting',
]);

/** Keys that have bitten JS object handling before: prototype pollution and inherited names. */
const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '',
  ' ',
  '\u0000',
  'a'.repeat(300),
];

const SCALARS: readonly unknown[] = [
  null,
  undefined,
  true,
  false,
  0,
  -0,
  -1,
  1.5,
  2 ** 53 + 2,
  -1e308,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  ' ',
  'x',
  '\u0000',
  '\ud800',
  '😀\u202e',
  '../../etc/passwd',
  '{"kind":"call"}',
  'servers.add',
];

function randomString(rng: Rng): string {
  const length = int(rng, 24);
  let text = '';
  for (let i = 0; i < length; i += 1) text += String.fromCharCode(rng() < 0.8 ? 32 + int(rng, 95) : int(rng, 0x10000));
  return text;
}

/** A string past every limit in the contract that is not about config text (5 MB); a few are bigger than that too. */
export function hugeString(rng: Rng): string {
  return pick(rng, ['a', 'é', '\u0000', '{']).repeat(pick(rng, [1_001, 70_000, 600_000, 5_000_001]));
}

/** Nested arrays or objects, deeper than any schema expects (within what JSON.stringify can still print). */
export function deepValue(rng: Rng, depth = 200 + int(rng, 2_500)): unknown {
  let value: unknown = pick(rng, SCALARS);
  const asObject = rng() < 0.5;
  for (let i = 0; i < depth; i += 1) value = asObject ? { a: value } : [value];
  return value;
}

/** An object with own keys like `__proto__`, as JSON.parse makes them (a literal would set the prototype instead). */
function nastyObject(rng: Rng, depth: number): Record<string, unknown> {
  const keys = Array.from({ length: 1 + int(rng, 3) }, () => pick(rng, NASTY_KEYS));
  const object = JSON.parse(`{${keys.map((key) => `${JSON.stringify(key)}:{"polluted":true}`).join(',')}}`) as Record<
    string,
    unknown
  >;
  if (rng() < 0.5) object[pick(rng, NASTY_KEYS)] = randomValue(rng, depth + 1);
  return object;
}

/** Any value: scalars, strings, arrays, objects (with nasty keys), now and then huge or deep. */
export function randomValue(rng: Rng, depth = 0): unknown {
  const roll = rng();
  if (depth > 3 || roll < 0.35) return pick(rng, SCALARS);
  if (roll < 0.5) return randomString(rng);
  if (roll < 0.52) return hugeString(rng);
  if (roll < 0.54) return deepValue(rng);
  if (roll < 0.7) return Array.from({ length: int(rng, 5) }, () => randomValue(rng, depth + 1));
  if (roll < 0.8) return nastyObject(rng, depth);
  const object: Record<string, unknown> = {};
  for (let i = int(rng, 4); i > 0; i -= 1) object[randomString(rng)] = randomValue(rng, depth + 1);
  return object;
}

/** Unwraps optional/default/nullable layers to reach an object schema's shape, if there is one. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let current: z.ZodType = schema;
  for (let i = 0; i < 5; i += 1) {
    if (current instanceof z.ZodObject) return current.shape as Record<string, z.ZodType>;
    if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** A value of the wrong kind for most fields: the type confusion a buggy or hostile client sends. */
function wrongTyped(rng: Rng): unknown {
  return pick(rng, [
    () => 42,
    () => 'not-a-thing',
    () => null,
    () => [],
    () => ({}),
    () => true,
    () => hugeString(rng),
    () => deepValue(rng, 50),
  ])();
}

/**
 * An object shaped like `schema` (its real keys, nested one level for object
 * fields) with random or wrong-typed values, then damaged: a key dropped, an
 * extra or nasty key added.
 */
export function shapedInput(rng: Rng, schema: z.ZodType, depth = 0): unknown {
  const shape = shapeOf(schema);
  if (shape === undefined || depth > 1) return rng() < 0.5 ? randomValue(rng) : wrongTyped(rng);
  const object: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const roll = rng();
    if (roll < 0.15) continue;
    object[key] =
      roll < 0.5 && shapeOf(field) !== undefined
        ? shapedInput(rng, field, depth + 1)
        : roll < 0.75
          ? randomValue(rng)
          : wrongTyped(rng);
  }
  if (rng() < 0.4) object[rng() < 0.5 ? randomString(rng) : pick(rng, NASTY_KEYS)] = randomValue(rng);
  return rng() < 0.2 ? { ...object, ...nastyObject(rng, depth) } : object;
}

/** Method names that are not in the contract, including non-strings and near misses. */
export function bogusMethod(rng: Rng): unknown {
  const real = pick(rng, METHOD_NAMES);
  return pick(rng, [
    () => randomString(rng),
    () => pick(rng, NASTY_KEYS),
    () => `${real} `,
    () => real.toUpperCase(),
    () => real.split('.').reverse().join('.'),
    () => `${real}.__proto__`,
    () => hugeString(rng).slice(0, 100_000),
    () =>
      pick(
        rng,
        SCALARS.filter((value) => typeof value !== 'string'),
      ),
    () => [real],
    () => ({ method: real }),
  ])();
}

/** One fuzz case: a method (usually real) and an input its schema usually refuses. */
export interface FuzzCase {
  method: unknown;
  input: unknown;
}

/** One fuzz case; with `forMethod`, always a case of that contract method (to reach a method chance left out). */
export function fuzzCase(rng: Rng, forMethod?: MethodName): FuzzCase {
  if (forMethod === undefined && rng() < 0.15) return { method: bogusMethod(rng), input: randomValue(rng) };
  const method = forMethod ?? pick(rng, METHOD_NAMES);
  const input = rng() < 0.6 ? shapedInput(rng, contract[method].input) : randomValue(rng);
  return { method, input };
}

/** Whether the host would run this call for real (a contract method and schema-valid input). */
export function wouldRun(method: unknown, input: unknown): method is MethodName {
  return (
    typeof method === 'string' &&
    (METHOD_NAMES as readonly string[]).includes(method) &&
    contract[method as MethodName].input.safeParse(input).success
  );
}

/** Short, never-throwing description of a payload for failure messages. */
export function describePayload(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} chars)` : text;
  } catch (error) {
    return `(unprintable: ${(error as Error).message})`;
  }
}
