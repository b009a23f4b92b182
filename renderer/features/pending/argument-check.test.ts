import { describe, expect, it } from 'vitest';
import { activateLocale } from '../../i18n/i18n';
import { argumentChecker, argumentIssues, pointerLabel } from './argument-check';

describe('argumentChecker', () => {
  const schema = {
    type: 'object',
    properties: {
      count: { type: 'integer', minimum: 1 },
      tags: { type: 'array', items: { type: 'string' } },
      nested: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
      name: { type: 'string', maxLength: 3 },
    },
    required: ['count'],
  };
  const check = argumentChecker(schema);

  it('finds nothing wrong with arguments that match', () => {
    expect(check({ count: 2, tags: ['a'], nested: { x: 1 } })).toEqual({ issues: [] });
  });

  it('names each argument that does not match, nested ones by path, without the summary lines', () => {
    expect(check({ count: 1.5, tags: ['a', 7], nested: {}, name: 'toolong' })).toEqual({
      issues: [
        'count: expected an integer, not a number',
        'tags[1]: expected a string, not a number',
        'nested.x: missing (required)',
        'name: String is too long (7 > 3)',
      ],
    });
    expect(check({ count: 0 })).toEqual({ issues: ['count: 0 is less than 1'] });
  });

  it("words each problem in the person's language, the argument's path as written", async () => {
    await activateLocale('zh-CN');
    expect(check({ count: 1.5, tags: ['a', 7], nested: {} })).toEqual({
      issues: ['count: 应为整数，而不是数字', 'tags[1]: 应为字符串，而不是数字', 'nested.x: 缺失（必填）'],
    });
    expect(pointerLabel('#')).toBe('（参数整体）');
  });

  it('follows the schema’s declared dialect, and reports one it cannot use instead of throwing', () => {
    const draft7 = argumentChecker({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { type: 'boolean' } },
    });
    expect(draft7({ a: 'yes' })).toEqual({ issues: ['a: expected a boolean, not a string'] });
    expect(argumentChecker({ $schema: 'https://example.com/other', type: 'object' })({})).toMatchObject({
      unchecked: expect.stringContaining('unsupported dialect'),
    });
  });
});

describe('argumentIssues', () => {
  it('keeps words it does not know, and falls back to the whole message when nothing is left', () => {
    expect(argumentIssues('#/a: Something new went wrong.')).toEqual(['a: Something new went wrong']);
    expect(argumentIssues('#: Property "a" does not match schema.')).toEqual([
      '#: Property "a" does not match schema.',
    ]);
  });

  it('labels JSON pointers as paths', () => {
    expect(pointerLabel('#')).toBe('(the arguments)');
    expect(pointerLabel('#/a~1b/0/c%20d')).toBe('a/b[0].c d');
  });
});
