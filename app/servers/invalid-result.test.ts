import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { describeInvalidResult } from './invalid-result';

function invalid(method: string, issues: unknown): SdkError {
  return new SdkError(SdkErrorCode.InvalidResult, `Invalid result for ${method}: ${JSON.stringify(issues, null, 2)}`, {
    method,
  });
}

describe('describeInvalidResult', () => {
  it('names the method and the first bad fields in one line', () => {
    const error = invalid('tools/list', [
      {
        code: 'invalid_type',
        path: ['tools', 0, 'name'],
        message: 'Invalid input: expected string, received undefined',
      },
      { code: 'invalid_type', path: [], message: 'Invalid input: expected object' },
    ]);
    expect(describeInvalidResult(error)).toBe(
      "the server's tools/list result is not valid MCP: tools.0.name: Invalid input: expected string, received undefined; result: Invalid input: expected object",
    );
  });

  it('follows the union branch with the fewest issues, and counts what it leaves out', () => {
    const issue = (field: string) => ({ code: 'invalid_type', path: [field], message: `bad ${field}` });
    const error = invalid('tools/call', [
      {
        code: 'invalid_union',
        path: ['content', 0],
        message: 'Invalid input',
        errors: [[issue('a'), issue('b')], [issue('text')]],
      },
      issue('x'),
      issue('y'),
      issue('z'),
    ]);
    expect(describeInvalidResult(error)).toBe(
      "the server's tools/call result is not valid MCP: content.0.text: bad text; x: bad x; y: bad y (and 1 more)",
    );
  });

  it('leaves every other error alone', () => {
    expect(describeInvalidResult(new Error('Invalid result for tools/list: []'))).toBeUndefined();
    expect(
      describeInvalidResult(new SdkError(SdkErrorCode.InvalidResult, 'Invalid result for tools/list: not an object')),
    ).toBeUndefined();
    expect(
      describeInvalidResult(new SdkError(SdkErrorCode.InvalidResult, 'Invalid result for tools/list: [not json')),
    ).toBeUndefined();
    expect(
      describeInvalidResult(new SdkError(SdkErrorCode.RequestTimeout, 'Invalid result for x: []')),
    ).toBeUndefined();
    expect(describeInvalidResult('a string')).toBeUndefined();
  });
});
