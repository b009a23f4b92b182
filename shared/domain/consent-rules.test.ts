import { describe, expect, it } from 'vitest';
import { ConsentRuleSchema, globMatches, ruleCovers } from './consent-rules';

describe('tool-name patterns', () => {
  it.each([
    ['get_*', 'get_file', true],
    ['get_*', 'get_', true],
    ['get_*', 'forget_file', false],
    ['*_file', 'read_file', true],
    ['read?file', 'read_file', true],
    ['read?file', 'readfile', false],
    ['*', 'anything', true],
    ['echo', 'echo', true],
    ['echo', 'echo2', false],
    ['echo', 'Echo', false],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['get-*', 'get-sum', true],
  ])('%s against %s: %s', (pattern, name, expected) => {
    expect(globMatches(pattern, name)).toBe(expected);
  });

  it('takes the whole name, with no regular-expression syntax', () => {
    expect(globMatches('get.file', 'getXfile')).toBe(false);
    expect(ConsentRuleSchema.safeParse({ kind: 'name-pattern', pattern: 'get_(.*)' }).success).toBe(false);
    expect(ConsentRuleSchema.safeParse({ kind: 'name-pattern', pattern: '  ' }).success).toBe(false);
    expect(ConsentRuleSchema.safeParse({ kind: 'name-pattern', pattern: 'x'.repeat(101) }).success).toBe(false);
    expect(ConsentRuleSchema.safeParse({ kind: 'name-pattern', pattern: ' get_* ' }).data).toEqual({
      kind: 'name-pattern',
      pattern: 'get_*',
    });
    expect(ConsentRuleSchema.safeParse({ kind: 'read-only', pattern: 'x' }).success).toBe(false);
  });

  it('does not blow up on a hostile pattern', () => {
    const started = Date.now();
    expect(globMatches('*a*a*a*a*a*a*a*a*b', 'a'.repeat(2_000))).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('the read-only rule', () => {
  it('covers only tools whose server says readOnlyHint: true', () => {
    const rule = { kind: 'read-only' } as const;
    expect(ruleCovers(rule, { name: 'a', annotations: { readOnlyHint: true } })).toBe(true);
    expect(ruleCovers(rule, { name: 'a', annotations: { readOnlyHint: 'true' } })).toBe(false);
    expect(ruleCovers(rule, { name: 'a', annotations: { readOnlyHint: false } })).toBe(false);
    expect(ruleCovers(rule, { name: 'a' })).toBe(false);
  });
});
