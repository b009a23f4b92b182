import { describe, expect, it } from 'vitest';
import { parseConfigText } from './config-document';
import { MAX_JSON_DEPTH, tooDeepAt } from './json-depth';

describe('tooDeepAt', () => {
  it('finds the first bracket beyond the limit, and ignores brackets in strings and comments', () => {
    expect(tooDeepAt('{"a":[[1]]}', 3)).toBeUndefined();
    expect(tooDeepAt('{"a":[[[1]]]}', 3)).toBe(7);
    expect(tooDeepAt('{"a":"[[[[\\"[[[[","b":[1]}', 2)).toBeUndefined();
    expect(tooDeepAt('{ // [[[[\n "a": /* {{{{ */ 1 }', 1)).toBeUndefined();
    // Closing brackets bring the depth back down: siblings do not add up.
    expect(tooDeepAt('[[],[],[],[]]', 2)).toBeUndefined();
  });
});

describe('parseConfigText on deeply nested text', () => {
  it.each([
    ['50,000 [', '['.repeat(50_000)],
    ['50,000 nested arrays under mcpServers', `{"mcpServers":${'['.repeat(50_000)}${']'.repeat(50_000)}}`],
    [
      '50,000 nested objects in an entry',
      `{"mcpServers":{"a":{"command":"x","env":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_001)}}}}`,
    ],
  ])('%s: an invalid file with a clear problem, not a stack overflow', (_label, text) => {
    const doc = parseConfigText(text);
    expect(doc.servers.size).toBe(0);
    expect(doc.fatal).toHaveLength(1);
    expect(doc.fatal[0]?.message).toBe(
      `The file nests [ and { more than ${MAX_JSON_DEPTH} levels deep: a config is only a few levels deep, so Berth does not read it`,
    );
    expect(doc.fatal[0]).toMatchObject({ line: 1 });
  });

  it('still reads a config nested to the limit', () => {
    const deepArgs = `${'['.repeat(MAX_JSON_DEPTH - 4)}${']'.repeat(MAX_JSON_DEPTH - 4)}`;
    const doc = parseConfigText(`{"mcpServers":{"a":{"command":"x","x-extra":${deepArgs}}}}`);
    expect(doc.fatal).toEqual([]);
    expect(doc.servers.has('a')).toBe(true);
  });
});
